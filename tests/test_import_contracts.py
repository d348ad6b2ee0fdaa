"""The package's layers and the no-circles rule hold: import-linter's contracts in setup.cfg."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 kept, 0 broken" in done.stdout, done.stdout


def test_the_classic_faces_over_upper_layers_are_imported_by_nothing_in_the_package() -> None:
    """events.agent_events serves names of the layers above (OpenAIWrapper, ContextVariables), so the package
    itself imports the events where they live."""
    import pytest

    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("autogen_classic", exclude_type_checking_imports=True)
    assert graph.find_modules_that_directly_import("autogen_classic.events.agent_events") == set()
    # the same for the classic path of OpenAIResponsesClient, which lives in llm_clients, above oai
    assert graph.find_modules_that_directly_import("autogen_classic.oai.openai_responses") == set()
