"""The documentation site builds with ``mkdocs build --strict`` and holds the pages and API text it promises.

Needs the docs extra (``pip install -e ".[docs]"``); without it the tests are skipped.
"""

from __future__ import annotations

import html
import inspect
import os
import re
import subprocess
import sys
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


def _mermaid_blocks(page_html: str) -> list[str]:
    return [html.unescape(b) for b in re.findall(r'<pre class="mermaid"><code>(.*?)</code></pre>', page_html, re.DOTALL)]


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
        assert command in page, f"getting-started does not show the README command {command!r}"


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
        "api/oai": ["OpenAIWrapper", "config_list.config_list_from_json", "default_config.default_llm_config"],
        "api/cache": ["Cache", "DiskCache", "InMemoryCache"],
        "api/local": ["llm_config", "start_server", "EmbeddedServer"],
        "api/speaker_selection": [
            "agentchat.speaker_selection.select_speaker",
            "agentchat.selection_trace.SelectionRecord",
            "agentchat.selection_trace.format_selection_log",
            "agentchat.structured_selection.addressed_agent",
            "eligibility.TurnBudgetPolicy",
        ],
    }
    for page_name, objects in expected.items():
        raw = _page(site_dir, page_name)
        ids = set(re.findall(r'id="(autogen_classic\.[^"]+)"', raw))
        for obj in objects:
            assert any(i.endswith("." + obj) or i == f"autogen_classic.{obj}" for i in ids), (page_name, obj)
    assert _first_docstring_line(OpenAIWrapper) in _text(_page(site_dir, "api/oai"))


def test_concepts_page_draws_the_round_and_the_selection_pipeline(
    site: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    site_dir, _ = site
    diagrams = _mermaid_blocks(_page(site_dir, "concepts"))
    assert len(diagrams) == 2
    assert diagrams[0].lstrip().startswith("sequenceDiagram")
    pipeline = diagrams[1]
    assert pipeline.lstrip().startswith("flowchart TD")
    for step in ("function_call_filter", "repeat_rule", "transition_graph", "NoEligibleSpeaker"):
        assert step in pipeline
    assert {"start", "custom", "all", "calls", "repeat", "policies", "chosen", "ended"} <= _flowchart_node_ids(pipeline)


def test_node_id_check_spots_a_keyword() -> None:
    assert _flowchart_node_ids("flowchart TD\n  a([go]) -- yes --> graph[x: y]\n  graph --> b{ok?}") == {"a", "graph", "b"}


@pytest.mark.parametrize(
    "page",
    [
        "concepts",
        "groupchat",
    ],
)
def test_flowcharts_name_no_node_after_a_mermaid_keyword(
    site: tuple[Path, subprocess.CompletedProcess[str]], page: str
) -> None:
    site_dir, _ = site
    flowcharts = [d for d in _mermaid_blocks(_page(site_dir, page)) if d.lstrip().startswith(("flowchart", "graph"))]
    assert flowcharts
    for chart in flowcharts:
        assert _flowchart_node_ids(chart) & MERMAID_FLOWCHART_KEYWORDS == set()


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
