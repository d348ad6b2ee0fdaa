"""The documentation site builds with ``mkdocs build --strict`` and holds the pages and API text it promises.

Needs the docs extra (``pip install -e ".[docs]"``); without it the tests are skipped.
"""

from __future__ import annotations

import html
import inspect
import os
import posixpath
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

NEEDS_DOCS_EXTRA = 'the docs site needs the docs extra: pip install -e ".[docs]"'
for _module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
    pytest.importorskip(_module, reason=NEEDS_DOCS_EXTRA)

from autogen_classic import GroupChatManager, OpenAIWrapper

# Words that end or change a mermaid flowchart where a node name is expected: a node named so breaks the
# whole diagram ("Syntax error in text" in the browser), which the build itself cannot notice.
MERMAID_FLOWCHART_KEYWORDS = frozenset(
    {"end", "graph", "flowchart", "subgraph", "style", "class", "classDef", "click", "linkStyle", "direction"}
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# The diagrams: mermaid sources (NAME.mmd) rendered once to NAME.svg by docs/diagrams/render.py.
DIAGRAMS = DOCS / "diagrams"
SVG_NS = "{http://www.w3.org/2000/svg}"

# One build serves every test: it takes several seconds (mkdocstrings reads the whole package).
BUILD_TIMEOUT_S = 240


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # silences the theme's end-of-life banner
    )
    return out, result


def _page(site_dir: Path, name: str) -> str:
    path = site_dir / name / "index.html" if name else site_dir / "index.html"
    assert path.is_file(), f"{path} was not built"
    return path.read_text(encoding="utf-8")


def _text(page_html: str) -> str:
    """The visible text of a page: tags removed, entities decoded, whitespace collapsed."""
    without_tags = re.sub(r"<[^>]+>", " ", page_html)
    return re.sub(r"\s+", " ", html.unescape(without_tags))


def _first_docstring_line(obj: object) -> str:
    doc = inspect.getdoc(obj)
    assert doc, f"{obj!r} has no docstring"
    return doc.splitlines()[0].strip()


class _PageParser(HTMLParser):
    """Collects the tags of a built page with their attributes, and the text of its <style> blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def _parse_page(page_html: str) -> _PageParser:
    parser = _PageParser()
    parser.feed(page_html)
    return parser


def _is_off_site(url: str) -> bool:
    """True for a URL the browser would fetch from another host (``https://...``, ``//host/...``)."""
    return bool(re.match(r"^\s*([a-zA-Z][a-zA-Z0-9+.-]*:|//)", url)) and not url.strip().startswith("data:")


def _diagram_images(page_html: str) -> list[tuple[str, str]]:
    """The (src, alt) of each diagram image of a page, in page order."""
    return [
        (attrs["src"], attrs.get("alt", ""))
        for tag, attrs in _parse_page(page_html).tags
        if tag == "img" and "diagrams/" in attrs.get("src", "")
    ]


def _svg_words(svg: Path) -> list[str]:
    """The words of an SVG's <text> elements in document order; fails if the file is not well-formed SVG."""
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG_NS}svg", f"{svg} is not an SVG document (root <{root.tag}>)"
    pieces: list[str] = []
    for text in root.iter(f"{SVG_NS}text"):
        for element in text.iter():
            pieces.append(element.text or "")
            if element is not text:
                pieces.append(element.tail or "")
    return " ".join(pieces).split()


def _contains_run(words: list[str], run: list[str]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


def _label_words(label: str) -> list[str]:
    """The words a label shows: quotes around it dropped, <br/> a line break, entities decoded."""
    label = label.strip()
    if len(label) >= 2 and label[0] == label[-1] == '"':
        label = label[1:-1]
    return html.unescape(re.sub(r"<br\s*/?>", " ", label)).split()


_FLOWCHART_NODE_LABEL = re.compile(r"\w+(?:\(\[(.*?)\]\)|\[(.*?)\]|\{(.*?)\})")
_FLOWCHART_EDGE_LABEL = re.compile(r"--\s+(.+?)\s+-->")
_SEQUENCE_PARTICIPANT = re.compile(r"^\s*(?:participant|actor)\s+\w+\s+as\s+(.+)$")
_SEQUENCE_MESSAGE = re.compile(r"^\s*\w+\s*--?(?:>>|>|x|\))\s*[+-]?\w+\s*:\s*(.+)$")
_SEQUENCE_BLOCK = re.compile(r"^\s*(alt|else|opt|loop|par|and|critical|option|break)\b\s*(.*)$")


def _mermaid_labels(source: str) -> list[str]:
    """Every text a flowchart or sequence diagram source shows: node, edge, participant and message labels."""
    lines = source.strip().splitlines()
    kind, body = lines[0].split()[0], lines[1:]
    labels: list[str] = []
    if kind in ("flowchart", "graph"):
        for line in body:
            labels += [next(g for g in m.groups() if g is not None) for m in _FLOWCHART_NODE_LABEL.finditer(line)]
            labels += _FLOWCHART_EDGE_LABEL.findall(re.sub(r"\w+(?:\(\[.*?\]\)|\[.*?\]|\{.*?\})", "", line))
    elif kind == "sequenceDiagram":
        for line in body:
            if match := _SEQUENCE_PARTICIPANT.match(line) or _SEQUENCE_MESSAGE.match(line):
                labels.append(match.group(1))
            elif match := _SEQUENCE_BLOCK.match(line):
                # The frame shows its keyword (alt, loop, ...) once; each condition appears in brackets.
                if match.group(1) != "else":
                    labels.append(match.group(1))
                if match.group(2):
                    labels.append(f"[{match.group(2)}]")
    else:
        raise AssertionError(f"no label reader for a mermaid {kind!r}: extend _mermaid_labels")
    return labels


def _flowchart_node_ids(source: str) -> set[str]:
    """The node names of a mermaid flowchart: labels and edge texts removed, split at the arrows."""
    ids: set[str] = set()
    for line in source.strip().splitlines()[1:]:
        line = re.sub(r"\[[^\]]*\]|\{[^}]*\}", "", line)  # [box] and {decision} labels; ([x]) leaves ()
        line = re.sub(r"\([^)]*\)", "", line)
        line = re.sub(r"--\s[^->]*?-->", "-->", line)  # "a -- text --> b"
        ids.update(part.strip() for part in re.split(r"-->|---|==>|-\.->", line) if part.strip())
    return ids


def test_strict_build_succeeds_without_warnings(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    _, result = site
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    log = result.stdout + result.stderr
    assert "WARNING" not in log, log
    assert "Documentation built" in log


def test_every_page_in_docs_is_in_the_nav_and_built(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav_pages = set(re.findall(r":\s*(\S+\.md)\s*$", nav, re.MULTILINE))
    doc_pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert doc_pages - nav_pages == set(), "pages missing from the nav of mkdocs.yml"
    assert nav_pages - doc_pages == set(), "nav entries without a page"
    for page in sorted(doc_pages):
        name = page[: -len(".md")]
        name = "" if name == "index" else name.removesuffix("/index")
        assert _page(site_dir, name)


def test_home_page_links_the_guides_and_the_api(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    home = _page(site_dir, "")
    for target in ("getting-started/", "concepts/", "migrating/", "groupchat/", "configuration/", "api/"):
        assert f'href="{target}"' in home, target
    assert "import autogen_classic as autogen" in _text(home)


def test_getting_started_shows_the_readme_commands(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    page = _text(_page(site_dir, "getting-started"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line for line in readme.splitlines() if line.startswith("python3 -m venv .venv")]
    assert len(commands) == 2, "README.md should hold the demo and the test command"
    for command in commands:
        # Highlighting wraps tokens (an `=` assignment, a string) in their own tags: compare without spaces.
        assert command.replace(" ", "") in page.replace(" ", ""), f"getting-started does not show {command!r}"


def test_agentchat_api_page_renders_the_docstrings(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    raw = _page(site_dir, "api/agentchat")
    page = _text(raw)
    for name in ("ConversableAgent", "AssistantAgent", "UserProxyAgent", "GroupChat", "GroupChatManager"):
        assert f'id="autogen_classic.agentchat.{name}"' in raw, name
    assert _first_docstring_line(GroupChatManager) in page
    # The __init__ arguments are merged into the class entry.
    assert "The manager works on this very object" in page
    assert 'id="autogen_classic.agentchat.GroupChatManager.run_chat"' in raw
    # Methods ConversableAgent gets from its mixins are documented on it.
    for method in ("initiate_chat", "register_reply", "generate_reply", "register_for_llm"):
        assert f'id="autogen_classic.agentchat.ConversableAgent.{method}"' in raw, method


def test_other_api_pages_render_their_objects(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    expected = {
        "api/oai": [
            "OpenAIWrapper",
            "config_list.config_list_from_json",
            "configuration.default_config.default_llm_config",
        ],
        "api/cache": ["Cache", "DiskCache", "InMemoryCache"],
        "api/local": ["llm_config", "start_server", "EmbeddedServer"],
        "api/speaker_selection": [
            "agentchat.groupchat.selection.pipeline.select_speaker",
            "agentchat.groupchat.selection.candidates.candidate_agents",
            "agentchat.groupchat.selection.trace.SelectionRecord",
            "agentchat.groupchat.selection.trace.format_selection_log",
            "agentchat.groupchat.selection.structured.addressed_agent",
            "agentchat.groupchat.selection.state.GroupState",
            "agentchat.groupchat.resume.messages_to_string",
            "eligibility.TurnBudgetPolicy",
        ],
    }
    for page_name, objects in expected.items():
        raw = _page(site_dir, page_name)
        ids = set(re.findall(r'id="(autogen_classic\.[^"]+)"', raw))
        for obj in objects:
            assert any(i.endswith("." + obj) or i == f"autogen_classic.{obj}" for i in ids), (page_name, obj)
    assert _first_docstring_line(OpenAIWrapper) in _text(_page(site_dir, "api/oai"))


# The diagrams each page shows, in page order, with words each must hold.
PAGE_DIAGRAMS = {
    "architecture": {
        "architecture-layers.svg": ["imports", "the group chat: agentchat.groupchat", "ToolAgent protocol",
                                    "the model client: oai", "types (the Agent protocol)"],
    },
    "concepts": {
        "concepts-round.svg": ["GroupChatManager", "GroupChat", "groupchat.messages", "select_speaker(last speaker)",
                               "NoEligibleSpeaker", "manager.end_reason", "[termination message, or round max_round]"],
        "concepts-selection.svg": ["select_speaker", "function_call_filter:", "repeat_rule:", "transition_graph:",
                                   "eligibility policies:", "NoEligibleSpeaker:", "round_robin", "random", "manual",
                                   "auto", "max_retries_for_selecting_speaker"],
    },
    "groupchat": {
        "groupchat-round.svg": ["GroupChatManager", "GroupChat", "append(message, speaker)",
                                "send(message, request_reply=False, silent=True)", "select_speaker(speaker, manager)",
                                "generate_reply(sender=manager)",
                                "next speaker (or NoEligibleSpeaker: end, reason printed)"],
        "groupchat-selection.svg": ["select_speaker last_speaker", "function_call_filter:", "repeat_rule:",
                                    "allow_repeat_speaker", "transition_graph:", "policy:<Name>", "NoEligibleSpeaker:",
                                    "round_robin", "random.choice", "manual", "auto", "nested selector chat",
                                    "max_retries_for_selecting_speaker", "fallback as classic AutoGen"],
    },
}


@pytest.mark.parametrize("page", sorted(PAGE_DIAGRAMS))
def test_pages_show_their_diagrams_as_svg_files_of_the_site(
    site: tuple[Path, subprocess.CompletedProcess[str]], page: str
) -> None:
    site_dir, _ = site
    raw = _page(site_dir, page)
    images = _diagram_images(raw)
    assert [posixpath.basename(src) for src, _ in images] == list(PAGE_DIAGRAMS[page])
    for src, alt in images:
        assert not _is_off_site(src), src
        assert len(alt.split()) >= 8, f"{src} needs an alt text that tells what the diagram shows"
        assert f'<a href="{src}">' in raw, f"{src} should link to itself, to open it at full size"
        built = (site_dir / page / src).resolve()
        assert built.is_file(), f"{src} of {page} is not in the built site"
        words = _svg_words(built)
        for label in PAGE_DIAGRAMS[page][posixpath.basename(src)]:
            assert _contains_run(words, label.split()), f"{built.name} does not show {label!r}"


def test_every_diagram_is_shown_on_a_page() -> None:
    shown = {name for diagrams in PAGE_DIAGRAMS.values() for name in diagrams}
    assert {svg.name for svg in DIAGRAMS.glob("*.svg")} == shown
    assert {mmd.with_suffix(".svg").name for mmd in DIAGRAMS.glob("*.mmd")} == shown


@pytest.mark.parametrize("source", sorted(DIAGRAMS.glob("*.mmd")), ids=lambda p: p.name)
def test_each_svg_is_rendered_from_its_current_source(source: Path) -> None:
    svg = source.with_suffix(".svg")
    assert svg.is_file(), f"{svg.name} is missing: run python3 docs/diagrams/render.py"
    words = _svg_words(svg)
    labels = _mermaid_labels(source.read_text(encoding="utf-8"))
    assert labels
    stale = "re-render with python3 docs/diagrams/render.py"
    for label in labels:
        assert _contains_run(words, _label_words(label)), f"{svg.name} lacks the label {label!r} of its source: {stale}"
    source_words = {word for label in labels for word in _label_words(label)}
    assert set(words) - source_words == set(), f"{svg.name} shows text its source no longer has: {stale}"


@pytest.mark.parametrize("svg", sorted(DIAGRAMS.glob("*.svg")), ids=lambda p: p.name)
def test_svgs_draw_their_text_as_svg_and_load_nothing(svg: Path) -> None:
    root = ET.parse(svg).getroot()
    # HTML labels inside <foreignObject> show only in browsers; plain <text> shows in any viewer.
    assert root.find(f".//{SVG_NS}foreignObject") is None
    assert root.find(f".//{SVG_NS}text") is not None
    for element in root.iter():
        for name, value in element.attrib.items():
            if name.endswith("href"):
                assert not _is_off_site(value), (svg.name, value)
    for style in root.iter(f"{SVG_NS}style"):
        assert not re.search(r"@import|url\(\s*['\"]?\s*(https?:)?//", style.text or ""), svg.name


def test_diagram_sources_hold_the_selection_steps() -> None:
    pipeline = (DIAGRAMS / "concepts-selection.mmd").read_text(encoding="utf-8")
    assert pipeline.lstrip().startswith("flowchart TD")
    for step in ("function_call_filter", "repeat_rule", "transition_graph", "NoEligibleSpeaker"):
        assert step in pipeline
    assert {"start", "custom", "all", "calls", "repeat", "policies", "chosen", "ended"} <= _flowchart_node_ids(pipeline)
    assert (DIAGRAMS / "concepts-round.mmd").read_text(encoding="utf-8").lstrip().startswith("sequenceDiagram")


def test_label_reader_reads_nodes_edges_and_messages() -> None:
    chart = 'flowchart TD\n  a([go<br/>now]) -- yes --> b["x: &lt;y&gt;"] --> c{ok?}\n  c -- no --> a'
    assert _mermaid_labels(chart) == ["go<br/>now", '"x: &lt;y&gt;"', "ok?", "yes", "no"]
    assert _label_words('"x: &lt;y&gt;"') == ["x:", "<y>"]
    sequence = "sequenceDiagram\n  participant A as the agent\n  A->>B: hi: there\n"
    sequence += "  alt done\n    B-->>A: ok\n  else\n    A-)B: bye\n  end"
    assert _mermaid_labels(sequence) == ["the agent", "hi: there", "alt", "[done]", "ok", "bye"]


def test_node_id_check_spots_a_keyword() -> None:
    assert _flowchart_node_ids("flowchart TD\n  a([go]) -- yes --> graph[x: y]\n  graph --> b{ok?}") == {"a", "graph", "b"}


@pytest.mark.parametrize("source", sorted(DIAGRAMS.glob("*.mmd")), ids=lambda p: p.name)
def test_flowcharts_name_no_node_after_a_mermaid_keyword(source: Path) -> None:
    # Guards a re-render: mermaid refuses the whole diagram when a node is named like a keyword.
    chart = source.read_text(encoding="utf-8")
    if chart.lstrip().startswith(("flowchart", "graph")):
        assert _flowchart_node_ids(chart) & MERMAID_FLOWCHART_KEYWORDS == set()


def test_pages_hold_no_in_browser_diagram(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    for page in DOCS.rglob("*.md"):
        assert "```mermaid" not in page.read_text(encoding="utf-8"), f"{page.name}: use an SVG in docs/diagrams"
    for page in site_dir.rglob("*.html"):
        # Material's script fetches mermaid.js from a CDN as soon as a page holds an element of class mermaid.
        classes = [attrs.get("class", "").split() for _, attrs in _parse_page(page.read_text(encoding="utf-8")).tags]
        assert not any("mermaid" in c for c in classes), page


def test_pages_load_nothing_from_another_host(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    checked = 0
    for page in site_dir.rglob("*.html"):
        parsed = _parse_page(page.read_text(encoding="utf-8"))
        for tag, attrs in parsed.tags:
            urls = [attrs[a] for a in ("src", "data", "poster") if a in attrs]
            if tag == "link" and attrs.get("rel") != "canonical":  # canonical names the page; it loads nothing
                urls.append(attrs.get("href", ""))
            urls += [u.split()[0] for u in attrs.get("srcset", "").split(",") if u.strip()]
            for url in urls:
                assert not _is_off_site(url), f"{page.relative_to(site_dir)}: <{tag}> loads {url}"
                checked += 1
            assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//", attrs.get("style", "")), (page, tag)
        for style in parsed.styles:
            assert not re.search(r"@import|url\(\s*['\"]?\s*(https?:)?//", style), page
    assert checked > 0


def test_migrating_page_links_every_differences_section(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site_dir, _ = site
    raw = _page(site_dir, "migrating")
    assert "import autogen_classic as autogen" in _text(raw)
    guides_with_differences = [
        p.stem for p in DOCS.glob("*.md") if "## Differences from the reference" in p.read_text(encoding="utf-8")
    ]
    assert guides_with_differences
    for guide in guides_with_differences:
        assert f'href="../{guide}/#differences-from-the-reference"' in raw, guide


def test_pages_load_no_web_fonts_and_search_indexes_the_api(
    site: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    site_dir, _ = site
    for page in site_dir.rglob("*.html"):
        assert "fonts.googleapis.com" not in page.read_text(encoding="utf-8"), page
    index = (site_dir / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "GroupChatManager" in index
