"""Re-render every ``docs/diagrams/*.mmd`` to the ``.svg`` next to it.

A maintainer's tool: the site build and the tests use the committed SVGs and never run it. After
editing a ``.mmd`` source, run it and commit both files (tests/test_docs_site.py fails when an SVG
lacks the labels of its source).

The committed SVGs were rendered with @mermaid-js/mermaid-cli 11.17.0 (mermaid 11.17.2, puppeteer
24.43.1) on Node 20.20.2 with Chromium 150.0.7871.100 (Debian 12). mermaid-cli lives outside the
repository and uses the system Chromium instead of the browser puppeteer would download::

    mkdir -p ~/mmdc && cd ~/mmdc && npm init -y
    PUPPETEER_SKIP_DOWNLOAD=1 npm install @mermaid-js/mermaid-cli@11.17.0
    cd /path/to/autogen-classic && MMDC_DIR=~/mmdc python3 docs/diagrams/render.py

(set PUPPETEER_EXECUTABLE_PATH when Chromium is not /usr/bin/chromium).

For each diagram this runs (with the two config files below written to a temporary folder)::

    PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium $MMDC_DIR/node_modules/.bin/mmdc --quiet \\
        -i NAME.mmd -o NAME.svg -c mermaid.json -p puppeteer.json -b white --svgId NAME

then rounds the coordinates to two decimals (the files shrink by half; nothing visible changes) and
gives the ``<svg>`` its natural width and height, so the page shows it at its size, scaled down
only when the column is narrower.

Labels are plain SVG text (``htmlLabels`` off): the files look the same in any viewer, not only in
a browser that renders HTML inside ``<foreignObject>``. The white background keeps them readable
on the dark palette of the site too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

MERMAID_CONFIG: dict[str, object] = {
    "theme": "neutral",
    "htmlLabels": False,
    "fontFamily": "Helvetica, Arial, sans-serif",
    # ELK keeps the steps of the selection pipeline in one column and each edge label next to its
    # own edge (the default dagre layout put labels of neighbouring long edges side by side).
    "layout": "elk",
    "elk": {"nodePlacementStrategy": "NETWORK_SIMPLEX"},
    # A fixed seed for the rough.js outlines of the rounded boxes makes a re-render byte-identical.
    "handDrawnSeed": 1,
    # wrappingWidth: break labels only at their <br/>, never in the middle of a long name.
    "flowchart": {"htmlLabels": False, "wrappingWidth": 400},
    # Narrow columns with wrapped messages: at the default width the round diagrams are ~1330 px wide
    # and their text shrinks to a hard-to-read size in the page column. 160 px still fits
    # "GroupChatManager" on one line (narrower boxes hyphenate it).
    "sequence": {"mirrorActors": False, "wrap": True, "width": 160, "actorMargin": 20},
}
# Chromium refuses to start as root without it; the pages it opens are our own diagram sources.
PUPPETEER_CONFIG: dict[str, object] = {"args": ["--no-sandbox"]}

_LONG_FLOAT = re.compile(r"-?\d+\.\d{3,}")
_ATTRIBUTE = re.compile(r'="[^"]*"')


def _round_coordinates(svg: str) -> str:
    """Round the numbers inside attribute values (never in label text) to two decimals."""

    def round_in(attribute: re.Match[str]) -> str:
        return _LONG_FLOAT.sub(lambda number: f"{float(number.group()):.2f}", attribute.group())

    return _ATTRIBUTE.sub(round_in, svg)


def _natural_size(svg: str) -> str:
    """Replace mermaid's ``width="100%"`` by the width and height of the viewBox."""
    view_box = re.search(r'<svg[^>]*\sviewBox="([^"]+)"', svg)
    if view_box is None:
        raise ValueError("the rendered SVG has no viewBox on its <svg> element")
    width, height = (float(v) for v in view_box.group(1).split()[2:])
    return re.sub(r'(<svg[^>]*?\s)width="100%"', rf'\1width="{width:.0f}" height="{height:.0f}"', svg, count=1)


def render(source: Path, mmdc: Path, config_dir: Path) -> Path:
    """Render one ``.mmd`` file to the ``.svg`` beside it and return the SVG's path."""
    target = source.with_suffix(".svg")
    subprocess.run(
        [
            str(mmdc),
            "--quiet",
            "-i", str(source),
            "-o", str(target),
            "-c", str(config_dir / "mermaid.json"),
            "-p", str(config_dir / "puppeteer.json"),
            "-b", "white",
            "--svgId", source.stem,
        ],
        check=True,
        env={"PUPPETEER_EXECUTABLE_PATH": "/usr/bin/chromium", **os.environ},
    )
    svg = target.read_text(encoding="utf-8")
    target.write_text(_natural_size(_round_coordinates(svg)), encoding="utf-8")
    return target


def main() -> int:
    mmdc = Path(os.environ.get("MMDC_DIR", "~/mmdc")).expanduser() / "node_modules" / ".bin" / "mmdc"
    if not mmdc.is_file():
        print(f"mmdc not found at {mmdc}: install mermaid-cli as {__file__} describes at its top, then set MMDC_DIR",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        config_dir = Path(tmp)
        (config_dir / "mermaid.json").write_text(json.dumps(MERMAID_CONFIG), encoding="utf-8")
        (config_dir / "puppeteer.json").write_text(json.dumps(PUPPETEER_CONFIG), encoding="utf-8")
        for source in sorted(HERE.glob("*.mmd")):
            print("rendered", render(source, mmdc, config_dir).name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
