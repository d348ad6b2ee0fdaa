"""Speaker-transition graphs for group chats: validity checks, inversion, conditions and drawing.

A transition graph is a dict whose keys are agents and whose values are lists of agents:
``{planner: [coder, critic], coder: [planner]}`` means the planner may hand over to the
coder or the critic, and the coder only back to the planner. Agents are any objects with a
string ``name`` (every classic agent has one).

A value list may also hold :class:`ConditionalEdge` items, whose ``condition(groupchat)`` is asked
at selection time: ``{coder: [executor, ConditionalEdge(critic, lambda gc: len(gc.messages) > 4)]}``.
In an "allowed" graph such an edge is allowed only while the condition returns True; in a
"disallowed" graph it is disallowed only while the condition returns True. The plain view of a
graph (:func:`plain_transitions`) lists conditional targets as plain targets; the conditions are
kept apart (:func:`transition_conditions`).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Optional

from .exception_utils import TransitionConditionError
from .types import Agent  # also the classic name ``graph_utils.Agent``

__all__ = [
    "ConditionRule",
    "ConditionalEdge",
    "check_graph_validity",
    "conditional_fingerprint",
    "describe_edge",
    "evaluate_transition_condition",
    "has_conditional_edges",
    "has_self_loops",
    "invert_disallowed_to_allowed",
    "plain_transitions",
    "speaker_transition_edges",
    "transition_conditions",
    "visualize_speaker_transitions_dict",
]

ConditionRule = Literal["allow_if", "block_if"]
"""How a condition acts: "allow_if" (an "allowed" graph) or "block_if" (a "disallowed" graph)."""

logger = logging.getLogger(__name__)

_GRAPH_EXTRA_HINT = 'pip install "autogen-classic[graph]"'
_CONDITION_HINT = (
    "pass a plain function that takes the GroupChat and returns True or False, "
    "e.g. ConditionalEdge(critic, lambda gc: len(gc.messages) > 4, label=\"after 4 messages\")"
)


@dataclass(frozen=True)
class ConditionalEdge:
    """A speaker transition that depends on the state of the chat.

    Put it in a value list of ``allowed_or_disallowed_speaker_transitions`` in place of a plain agent:
    ``{coder: [executor, ConditionalEdge(critic, lambda gc: len(gc.messages) > 4, label="after 4 messages")]}``.
    With ``speaker_transitions_type="allowed"`` the transition is allowed only when the condition returns
    True at selection time; with "disallowed" it is disallowed only when the condition returns True.

    Args:
        target: the agent the transition leads to (an agent of the group chat).
        condition: ``condition(groupchat) -> bool``, called with the GroupChat object (as a custom
            ``speaker_selection_method`` is) each time the source agent has just spoken.
        label: a short text naming the condition in errors, the selection trace and drawings
            (default: the function's name, unless it is a lambda).
    """

    target: Any
    condition: Callable[[Any], bool]
    label: str | None = None

    @property
    def display_label(self) -> str | None:
        """The label, else the condition function's name (None for a lambda or a nameless callable)."""
        if self.label:
            return self.label
        name = getattr(self.condition, "__name__", None)
        return name if isinstance(name, str) and name.isidentifier() else None


def _is_agent(obj: Any) -> bool:
    # Duck-typed on purpose: any object with a name can take part in a graph (classic AutoGen
    # does not require the name to be a str).
    return hasattr(obj, "name")


def _label(obj: Any) -> str:
    return obj.name if _is_agent(obj) else repr(obj)


def _labels(objs: Iterable[Any]) -> list[str]:
    return [_label(o) for o in objs]


def _check_is_dict(graph: Any, name: str) -> None:
    """ValueError unless the graph (the argument ``name``) is a dict."""
    if not isinstance(graph, dict):
        raise ValueError(f"{name} must be a dictionary (agent -> list of agents), got {type(graph).__name__}.")


def _check_keys(graph: dict, agents: list[Agent], name: str) -> None:
    """ValueError unless every key of the graph (the argument ``name``) is one of ``agents``."""
    unknown_keys = [k for k in graph if k not in agents]
    if unknown_keys:
        raise ValueError(
            f"{name} has keys not in agents: {_labels(unknown_keys)}. "
            f"Every key must be one of the group chat's agents {_labels(agents)}."
        )


def _target(item: Any) -> Any:
    return item.target if isinstance(item, ConditionalEdge) else item


def _in_order(items: Iterable[Any], order: list[Any]) -> list[Any]:
    """Return the distinct ``items``: those in ``order`` first, in its order, then the rest as met."""
    pool = list(dict.fromkeys(items))
    ranked = [a for a in order if a in pool]
    return ranked + [a for a in pool if a not in ranked]


def describe_edge(source: Any, item: Any) -> str:
    """Name a transition for people: ``"coder -> critic"``, with ``" [label]"`` for a labelled conditional edge."""
    text = f"{_label(source)} -> {_label(_target(item))}"
    label = item.display_label if isinstance(item, ConditionalEdge) else None
    return f"{text} [{label}]" if label else text


def has_conditional_edges(graph: Any) -> bool:
    """Return True if any value list of ``graph`` holds a :class:`ConditionalEdge`."""
    if not isinstance(graph, dict):
        return False
    return any(
        isinstance(item, ConditionalEdge)
        for values in graph.values() if isinstance(values, (list, tuple, set))
        for item in values
    )


def conditional_fingerprint(graph: Any) -> tuple[Any, ...] | None:
    """Identify the content of a graph holding conditional edges (None for a graph without any).

    A group chat compares fingerprints to notice a conditional graph changed in place; plain graphs
    give None, so they are not re-checked on every change (as before conditions existed).
    """
    if not has_conditional_edges(graph):
        return None
    return tuple(
        (id(source), tuple(id(item) for item in values) if isinstance(values, (list, tuple, set)) else id(values))
        for source, values in graph.items()
    )


def plain_transitions(graph: dict) -> dict:
    """Return ``graph`` with every :class:`ConditionalEdge` replaced by its target.

    A graph without conditional edges is returned itself (not a copy), as the classic package used it.
    """
    if not has_conditional_edges(graph):
        return graph
    return {source: [_target(item) for item in values] for source, values in graph.items()}


def transition_conditions(
    graph: dict | None, speaker_transitions_type: str | None
) -> dict[tuple[Any, Any], tuple[ConditionalEdge, ConditionRule]]:
    """Return ``(source, target) -> (edge, rule)`` for the conditional edges of a checked graph.

    ``rule`` is "allow_if" for an "allowed" graph and "block_if" for a "disallowed" one.
    """
    if not graph:
        return {}
    rule: ConditionRule = "block_if" if speaker_transitions_type == "disallowed" else "allow_if"
    return {
        (source, item.target): (item, rule)
        for source, values in graph.items()
        for item in values
        if isinstance(item, ConditionalEdge)
    }


def _check_conditional_edges(graph: dict, agents: list[Agent], graph_name: str) -> None:
    """Refuse a conditional edge whose target is not a group agent, whose condition is not a plain
    function, whose label is not a str, or whose target is listed again for the same source."""
    for source, values in graph.items():
        for item in values:
            if not isinstance(item, ConditionalEdge):
                continue
            edge = f"{_label(source)} -> {_label(item.target)}"
            if not _is_agent(item.target) or item.target not in agents:
                raise ValueError(
                    f"{graph_name}: the conditional edge {edge} leads to {item.target!r}, which is not an agent of "
                    f"the group chat {_labels(agents)}; give ConditionalEdge the agent object itself as its target."
                )
            condition = item.condition
            if not callable(condition):
                raise ValueError(
                    f"{graph_name}: the condition of the conditional edge {edge} is not callable "
                    f"(got {type(condition).__name__} {condition!r}); {_CONDITION_HINT}."
                )
            if inspect.iscoroutinefunction(condition):
                raise ValueError(
                    f"{graph_name}: the condition of the conditional edge {edge} is an async function; "
                    f"speaker selection does not await it: {_CONDITION_HINT}."
                )
            if item.label is not None and not isinstance(item.label, str):
                raise ValueError(
                    f"{graph_name}: the label of the conditional edge {edge} must be a str or None, "
                    f"got {type(item.label).__name__} {item.label!r}."
                )
            if sum(1 for other in values if _target(other) is item.target) > 1:
                raise ValueError(
                    f"{graph_name}: the transition {edge} is listed more than once and at least once with a "
                    "condition, so its meaning is ambiguous; keep one entry (combine the conditions in one "
                    "function if needed)."
                )


def has_self_loops(allowed_speaker_transitions: dict) -> bool:
    """Return True if any agent in the transition dict may transition to itself (conditionally or not)."""
    return any(key in [_target(item) for item in value] for key, value in allowed_speaker_transitions.items())


def check_graph_validity(allowed_speaker_transitions_dict: dict, agents: list[Agent]) -> None:
    """Check a transition graph against the group's agents; raise on errors, log warnings.

    Args:
        allowed_speaker_transitions_dict: keys are agents, values are lists of the agents the
            key agent can transition to; an item may be a :class:`ConditionalEdge`.
        agents: the agents of the group chat.

    Raises:
        ValueError: if the graph is not a dict, a value is not a list, a key is not one of
            ``agents``, a value holds something that is not an agent (e.g. a name string), or a
            conditional edge is malformed (target outside ``agents``, condition not a plain function,
            label not a str, target listed again for the same source); the error names the edge.

    Warnings (logged on this module's logger, naming the agents concerned):
        - agents with neither incoming nor outgoing edges (isolated);
        - agents in the graph but not in ``agents``, or in ``agents`` but not in the graph;
        - an agent listed more than once in one value.
    """
    _check_is_dict(allowed_speaker_transitions_dict, "allowed_speaker_transitions_dict")

    not_lists = [k for k, v in allowed_speaker_transitions_dict.items() if not isinstance(v, list)]
    if not_lists:
        raise ValueError(
            "allowed_speaker_transitions_dict must be a dictionary with lists as values; "
            f"the values for {_labels(not_lists)} are not lists."
        )

    _check_keys(allowed_speaker_transitions_dict, agents, "allowed_speaker_transitions_dict")

    bad_values = [
        (k, v)
        for k, values in allowed_speaker_transitions_dict.items()
        for v in values
        if not _is_agent(v) and not isinstance(v, ConditionalEdge)
    ]
    if bad_values:
        shown = ", ".join(f"{_label(k)} -> {v!r}" for k, v in bad_values)
        raise ValueError(
            "allowed_speaker_transitions_dict has values that are not lists of Agents "
            f"({shown}); list agent objects, not names."
        )
    _check_conditional_edges(allowed_speaker_transitions_dict, agents, "allowed_speaker_transitions_dict")
    graph = plain_transitions(allowed_speaker_transitions_dict)

    with_outgoing = [k for k, values in graph.items() if values]
    with_incoming = [v for values in graph.values() for v in values]

    isolated = [a for a in agents if a not in with_outgoing and a not in with_incoming]
    if isolated:
        logger.warning(
            "Warning: There are isolated agent nodes, there are not incoming nor outgoing edges. "
            "Isolated agents: %s",
            _labels(isolated),
        )

    in_graph = _in_order(with_outgoing + with_incoming, agents)
    mismatched = [a for a in agents if a not in in_graph] + [a for a in in_graph if a not in agents]
    if mismatched:
        logger.warning(
            "Warning: The set of agents in allowed_speaker_transitions do not match agents. Offending agents: %s",
            _labels(mismatched),
        )

    for key, values in graph.items():
        duplicates = _in_order([v for v in values if values.count(v) > 1], agents)
        if duplicates:
            logger.warning(
                "Agent '%s' has duplicate elements: %s. Please remove duplicates manually.",
                _label(key),
                _labels(duplicates),
            )


def invert_disallowed_to_allowed(disallowed_speaker_transitions_dict: dict, agents: list[Agent]) -> dict:
    """Turn a graph of forbidden transitions into the graph of allowed ones.

    Starts from the complete graph over ``agents`` (self-loops included) and removes every
    edge listed in ``disallowed_speaker_transitions_dict``. A :class:`ConditionalEdge` is forbidden
    only while its condition holds, so its target stays in the returned (plain) graph; the
    conditions are read with ``transition_conditions(graph, "disallowed")``.

    Raises:
        ValueError: if the dict is not a dict of lists, a key is not one of ``agents``, or a
            conditional edge is malformed (the error names the edge).
    """
    _check_is_dict(disallowed_speaker_transitions_dict, "disallowed_speaker_transitions_dict")
    _check_keys(disallowed_speaker_transitions_dict, agents, "disallowed_speaker_transitions_dict")
    allowed = {agent: list(agents) for agent in agents}
    for key, forbidden in disallowed_speaker_transitions_dict.items():
        if not isinstance(forbidden, (list, tuple, set)):
            raise ValueError(
                "disallowed_speaker_transitions_dict must have lists of agents as values; "
                f"the value for {_label(key)} is a {type(forbidden).__name__}."
            )
    _check_conditional_edges(disallowed_speaker_transitions_dict, agents, "disallowed_speaker_transitions_dict")
    for key, forbidden in disallowed_speaker_transitions_dict.items():
        always = [item for item in forbidden if not isinstance(item, ConditionalEdge)]
        allowed[key] = [agent for agent in allowed[key] if agent not in always]
    return allowed


def evaluate_transition_condition(source: Any, edge: ConditionalEdge, groupchat: Any) -> bool:
    """Ask ``edge.condition(groupchat)`` whether the condition holds now.

    Raises:
        TransitionConditionError: if the condition raises (the original error is the ``__cause__``),
            returns None or returns an awaitable; the message names the edge and the fix.
    """
    edge_text = describe_edge(source, edge)
    try:
        result = edge.condition(groupchat)
        if result is not None and not inspect.isawaitable(result):
            return bool(result)
    except Exception as error:
        raise TransitionConditionError(
            f"The condition of the speaker transition {edge_text} raised {type(error).__name__}: {error}. "
            "Fix the condition (it receives the GroupChat and must return True or False) or remove the edge "
            "from allowed_or_disallowed_speaker_transitions.",
            edge=edge_text,
        ) from error
    if inspect.iscoroutine(result):
        result.close()  # never awaited: close it so Python does not warn about it
    what = "None" if result is None else f"an awaitable ({type(result).__name__})"
    raise TransitionConditionError(
        f"The condition of the speaker transition {edge_text} returned {what}; it must return True or False "
        "(a plain function; is a return statement missing?).",
        edge=edge_text,
    )


def _edge_attributes(item: Any, rule: str | None) -> dict[str, Any]:
    label = item.display_label or "condition"
    return {
        "conditional": True,
        "style": "dashed",
        "rule": rule or "allow_if",
        "label": f"unless {label}" if rule == "block_if" else label,
    }


def speaker_transition_edges(
    speaker_transitions_dict: dict,
    conditions: dict[tuple[Any, Any], tuple[ConditionalEdge, str]] | None = None,
) -> list[tuple[str, str, dict[str, Any]]]:
    """Return the edges to draw: ``(source name, target name, attributes)``, in graph order.

    Plain edges have no attributes. A conditional edge (a :class:`ConditionalEdge` item, or a pair
    found in ``conditions``, e.g. ``groupchat.transition_conditions``) gets ``conditional=True``,
    ``style="dashed"``, its ``rule`` ("allow_if"/"block_if") and a ``label`` ("unless ..." for
    "block_if").
    """
    conditions = conditions or {}
    edges: list[tuple[str, str, dict[str, Any]]] = []
    for source, targets in speaker_transitions_dict.items():
        for item in targets:
            target = _target(item)
            found = conditions.get((source, target))
            if isinstance(item, ConditionalEdge):
                attributes = _edge_attributes(item, found[1] if found else None)
            elif found is not None:
                attributes = _edge_attributes(found[0], found[1])
            else:
                attributes = {}
            edges.append((source.name, target.name, attributes))
    return edges


def visualize_speaker_transitions_dict(
    speaker_transitions_dict: dict,
    agents: list[Agent],
    export_path: Optional[str] = None,
    conditions: dict[tuple[Any, Any], tuple[ConditionalEdge, str]] | None = None,
) -> Any:
    """Draw a transition graph with networkx and matplotlib; conditional edges are dashed and labelled.

    Args:
        speaker_transitions_dict: agent -> list of agents it can transition to (items may be
            :class:`ConditionalEdge`).
        agents: the agents to draw as nodes (also those without edges).
        export_path: save the picture to this file; when None, show it in a window.
        conditions: the conditions of a group chat's plain graph (``groupchat.transition_conditions``),
            to draw ``groupchat.allowed_speaker_transitions_dict`` with its conditional edges.

    Returns:
        The ``networkx.DiGraph`` that was drawn (node names are the agent names; a conditional edge
        carries the attributes of :func:`speaker_transition_edges`).

    Raises:
        ImportError: if networkx or matplotlib is missing (install the ``graph`` extra).
    """
    try:
        import matplotlib.pyplot as plt
        import networkx as nx
    except ImportError as e:
        raise ImportError(
            f"visualize_speaker_transitions_dict needs networkx and matplotlib: {_GRAPH_EXTRA_HINT}"
        ) from e

    edges = speaker_transition_edges(speaker_transitions_dict, conditions)
    graph = nx.DiGraph()
    graph.add_nodes_from([agent.name for agent in agents])
    for source, target, attributes in edges:
        if attributes:
            graph.add_edge(source, target, **attributes)
        else:
            graph.add_edge(source, target)

    # A fresh figure per call, so consecutive drawings do not pile up on one canvas.
    figure = plt.figure()
    dashed = [(s, t) for s, t, attributes in edges if attributes]
    if not dashed:
        nx.draw(graph, with_labels=True, font_weight="bold")
    else:
        solid = [(s, t) for s, t, attributes in edges if not attributes]
        pos = nx.spring_layout(graph, seed=0)  # seeded: the same graph is drawn the same way each time
        nx.draw(graph, pos, edgelist=solid, with_labels=True, font_weight="bold")
        nx.draw_networkx_edges(graph, pos, edgelist=dashed, style="dashed")
        nx.draw_networkx_edge_labels(
            graph, pos, edge_labels={(s, t): a["label"] for s, t, a in edges if a}, font_size=8
        )
    if export_path is not None:
        plt.savefig(export_path)
        plt.close(figure)
    else:
        plt.show()
    return graph
