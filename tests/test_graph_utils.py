"""Transition graphs: validity errors and warnings, inversion, drawing."""

from __future__ import annotations

import logging
import sys
import types
from dataclasses import dataclass
from typing import Any

import pytest

from autogen_classic.graph_utils import (
    check_graph_validity,
    has_self_loops,
    invert_disallowed_to_allowed,
    visualize_speaker_transitions_dict,
)


@dataclass(eq=False)
class Stand:
    """A stand-in agent: graphs only need a name (and identity for hashing)."""

    name: str


A, B, C, D = Stand("A"), Stand("B"), Stand("C"), Stand("D")
AGENTS = [A, B, C]


def _names(graph: dict) -> dict[str, list[str]]:
    return {k.name: [v.name for v in vs] for k, vs in graph.items()}


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_has_self_loops() -> None:
    assert has_self_loops({A: [A]}) is True
    assert has_self_loops({A: [B], B: [B, C]}) is True
    assert has_self_loops({A: [B], B: [A]}) is False
    assert has_self_loops({}) is False


@pytest.mark.parametrize(
    ("graph", "message"),
    [
        ([], r"allowed_speaker_transitions_dict must be a dictionary \(agent -> list of agents\), got list"),
        ({A: B}, r"must be a dictionary with lists as values; the values for \['A'\] are not lists"),
        ({A: (B,)}, r"must be a dictionary with lists as values"),
        ({D: [A]}, r"has keys not in agents: \['D'\]\. Every key must be one of the group chat's agents "
                   r"\['A', 'B', 'C'\]"),
        ({A: ["B"]}, r"has values that are not lists of Agents \(A -> 'B'\); list agent objects, not names"),
    ],
)
def test_check_graph_validity_errors(graph: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_graph_validity(graph, AGENTS)


def test_valid_graph_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        check_graph_validity({A: [B], B: [C], C: [A]}, AGENTS)
    assert _warnings(caplog) == []


def test_isolated_agent_is_named(caplog: pytest.LogCaptureFixture) -> None:
    # Same two warnings as the reference for this graph (C has no edges at all).
    with caplog.at_level(logging.WARNING):
        check_graph_validity({A: [B], B: [A], C: []}, AGENTS)
    assert _warnings(caplog) == [
        "Warning: There are isolated agent nodes, there are not incoming nor outgoing edges. Isolated agents: ['C']",
        "Warning: The set of agents in allowed_speaker_transitions do not match agents. Offending agents: ['C']",
    ]
    assert {r.name for r in caplog.records} == {"autogen_classic.graph_utils"}


def test_empty_graph_lists_agents_in_group_order(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        check_graph_validity({}, AGENTS)
    assert _warnings(caplog) == [
        "Warning: There are isolated agent nodes, there are not incoming nor outgoing edges. "
        "Isolated agents: ['A', 'B', 'C']",
        "Warning: The set of agents in allowed_speaker_transitions do not match agents. "
        "Offending agents: ['A', 'B', 'C']",
    ]


def test_agent_outside_the_group_is_named(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        check_graph_validity({A: [B, D], B: [A, C], C: [A]}, AGENTS)
    assert _warnings(caplog) == [
        "Warning: The set of agents in allowed_speaker_transitions do not match agents. Offending agents: ['D']"
    ]


def test_duplicates_are_named(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        check_graph_validity({A: [C, B, B, C], B: [A], C: [A]}, AGENTS)
    assert _warnings(caplog) == [
        "Agent 'A' has duplicate elements: ['B', 'C']. Please remove duplicates manually."
    ]


def test_invert_disallowed_to_allowed_matches_reference() -> None:
    allowed = invert_disallowed_to_allowed({A: [B], C: [C, A]}, AGENTS)
    assert _names(allowed) == {"A": ["A", "C"], "B": ["A", "B", "C"], "C": ["B"]}
    # The inverted graph is itself valid input for check_graph_validity.
    check_graph_validity(allowed, AGENTS)


def test_invert_empty_is_complete_graph() -> None:
    assert _names(invert_disallowed_to_allowed({}, [A, B])) == {"A": ["A", "B"], "B": ["A", "B"]}


def test_invert_rejects_unknown_key_and_non_dict() -> None:
    with pytest.raises(ValueError, match=r"disallowed_speaker_transitions_dict has keys not in agents: \['D'\]"):
        invert_disallowed_to_allowed({D: [A]}, AGENTS)
    with pytest.raises(ValueError, match=r"disallowed_speaker_transitions_dict must be a dictionary"):
        invert_disallowed_to_allowed([A], AGENTS)  # type: ignore[arg-type]


def test_visualize_without_packages_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "networkx", None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "autogen-classic\[graph\]"'):
        visualize_speaker_transitions_dict({A: [B]}, AGENTS)


class _FakeDiGraph:
    def __init__(self) -> None:
        self.nodes: list[str] = []
        self.edges: list[tuple[str, str]] = []

    def add_nodes_from(self, nodes: list[str]) -> None:
        self.nodes.extend(nodes)

    def add_edge(self, u: str, v: str) -> None:
        self.edges.append((u, v))


def _install_fake_plotting(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    calls: list[tuple] = []
    nx = types.ModuleType("networkx")
    nx.DiGraph = _FakeDiGraph  # type: ignore[attr-defined]
    nx.draw = lambda g, **kw: calls.append(("draw", kw))  # type: ignore[attr-defined]
    plt = types.ModuleType("matplotlib.pyplot")
    plt.figure = lambda: calls.append(("figure",)) or "fig"  # type: ignore[attr-defined]
    plt.savefig = lambda path: calls.append(("savefig", path))  # type: ignore[attr-defined]
    plt.close = lambda fig: calls.append(("close", fig))  # type: ignore[attr-defined]
    plt.show = lambda: calls.append(("show",))  # type: ignore[attr-defined]
    mpl = types.ModuleType("matplotlib")
    mpl.pyplot = plt  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "networkx", nx)
    monkeypatch.setitem(sys.modules, "matplotlib", mpl)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", plt)
    return calls


def test_visualize_builds_graph_and_saves(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    calls = _install_fake_plotting(monkeypatch)
    target = str(tmp_path / "graph.png")
    graph = visualize_speaker_transitions_dict({A: [B, C], B: [A]}, AGENTS, export_path=target)
    assert graph.nodes == ["A", "B", "C"]
    assert graph.edges == [("A", "B"), ("A", "C"), ("B", "A")]
    assert calls == [
        ("figure",),
        ("draw", {"with_labels": True, "font_weight": "bold"}),
        ("savefig", target),
        ("close", "fig"),
    ]


def test_visualize_shows_without_export_path(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _install_fake_plotting(monkeypatch)
    visualize_speaker_transitions_dict({}, [A], export_path=None)
    assert calls[-1] == ("show",)
