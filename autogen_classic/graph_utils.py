"""Speaker-transition graphs for group chats: validity checks, inversion and drawing.

A transition graph is a dict whose keys are agents and whose values are lists of agents:
``{planner: [coder, critic], coder: [planner]}`` means the planner may hand over to the
coder or the critic, and the coder only back to the planner. Agents are any objects with a
string ``name`` (every classic agent has one).
"""

from __future__ import annotations

import logging
from typing import Any, Iterable, Optional

from .types import Agent  # also the classic name ``graph_utils.Agent``

__all__ = [
    "check_graph_validity",
    "has_self_loops",
    "invert_disallowed_to_allowed",
    "visualize_speaker_transitions_dict",
]

logger = logging.getLogger(__name__)

_GRAPH_EXTRA_HINT = 'pip install "autogen-classic[graph]"'


def _is_agent(obj: Any) -> bool:
    # Duck-typed on purpose: any object with a name can take part in a graph (classic AutoGen
    # does not require the name to be a str).
    return hasattr(obj, "name")


def _label(obj: Any) -> str:
    return obj.name if _is_agent(obj) else repr(obj)


def _labels(objs: Iterable[Any]) -> list[str]:
    return [_label(o) for o in objs]


def _in_order(items: Iterable[Any], order: list[Any]) -> list[Any]:
    """Return the distinct ``items``: those in ``order`` first, in its order, then the rest as met."""
    pool = list(dict.fromkeys(items))
    ranked = [a for a in order if a in pool]
    return ranked + [a for a in pool if a not in ranked]


def has_self_loops(allowed_speaker_transitions: dict) -> bool:
    """Return True if any agent in the transition dict may transition to itself."""
    return any(key in value for key, value in allowed_speaker_transitions.items())


def check_graph_validity(allowed_speaker_transitions_dict: dict, agents: list[Agent]) -> None:
    """Check a transition graph against the group's agents; raise on errors, log warnings.

    Args:
        allowed_speaker_transitions_dict: keys are agents, values are lists of the agents the
            key agent can transition to.
        agents: the agents of the group chat.

    Raises:
        ValueError: if the graph is not a dict, a value is not a list, a key is not one of
            ``agents``, or a value holds something that is not an agent (e.g. a name string).

    Warnings (logged on this module's logger, naming the agents concerned):
        - agents with neither incoming nor outgoing edges (isolated);
        - agents in the graph but not in ``agents``, or in ``agents`` but not in the graph;
        - an agent listed more than once in one value.
    """
    if not isinstance(allowed_speaker_transitions_dict, dict):
        raise ValueError(
            "allowed_speaker_transitions_dict must be a dictionary "
            f"(agent -> list of agents), got {type(allowed_speaker_transitions_dict).__name__}."
        )

    not_lists = [k for k, v in allowed_speaker_transitions_dict.items() if not isinstance(v, list)]
    if not_lists:
        raise ValueError(
            "allowed_speaker_transitions_dict must be a dictionary with lists as values; "
            f"the values for {_labels(not_lists)} are not lists."
        )

    unknown_keys = [k for k in allowed_speaker_transitions_dict if k not in agents]
    if unknown_keys:
        raise ValueError(
            f"allowed_speaker_transitions_dict has keys not in agents: {_labels(unknown_keys)}. "
            f"Every key must be one of the group chat's agents {_labels(agents)}."
        )

    bad_values = [
        (k, v) for k, values in allowed_speaker_transitions_dict.items() for v in values if not _is_agent(v)
    ]
    if bad_values:
        shown = ", ".join(f"{_label(k)} -> {v!r}" for k, v in bad_values)
        raise ValueError(
            "allowed_speaker_transitions_dict has values that are not lists of Agents "
            f"({shown}); list agent objects, not names."
        )

    with_outgoing = [k for k, values in allowed_speaker_transitions_dict.items() if values]
    with_incoming = [v for values in allowed_speaker_transitions_dict.values() for v in values]

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

    for key, values in allowed_speaker_transitions_dict.items():
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
    edge listed in ``disallowed_speaker_transitions_dict``.

    Raises:
        ValueError: if the dict is not a dict of lists, or a key is not one of ``agents``.
    """
    if not isinstance(disallowed_speaker_transitions_dict, dict):
        raise ValueError(
            "disallowed_speaker_transitions_dict must be a dictionary "
            f"(agent -> list of agents), got {type(disallowed_speaker_transitions_dict).__name__}."
        )
    unknown_keys = [k for k in disallowed_speaker_transitions_dict if k not in agents]
    if unknown_keys:
        raise ValueError(
            f"disallowed_speaker_transitions_dict has keys not in agents: {_labels(unknown_keys)}. "
            f"Every key must be one of the group chat's agents {_labels(agents)}."
        )
    allowed = {agent: list(agents) for agent in agents}
    for key, forbidden in disallowed_speaker_transitions_dict.items():
        if not isinstance(forbidden, (list, tuple, set)):
            raise ValueError(
                "disallowed_speaker_transitions_dict must have lists of agents as values; "
                f"the value for {_label(key)} is a {type(forbidden).__name__}."
            )
        allowed[key] = [agent for agent in allowed[key] if agent not in forbidden]
    return allowed


def visualize_speaker_transitions_dict(
    speaker_transitions_dict: dict, agents: list[Agent], export_path: Optional[str] = None
) -> Any:
    """Draw a transition graph with networkx and matplotlib.

    Args:
        speaker_transitions_dict: agent -> list of agents it can transition to.
        agents: the agents to draw as nodes (also those without edges).
        export_path: save the picture to this file; when None, show it in a window.

    Returns:
        The ``networkx.DiGraph`` that was drawn (node names are the agent names).

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

    graph = nx.DiGraph()
    graph.add_nodes_from([agent.name for agent in agents])
    for source, targets in speaker_transitions_dict.items():
        for target in targets:
            graph.add_edge(source.name, target.name)

    # A fresh figure per call, so consecutive drawings do not pile up on one canvas.
    figure = plt.figure()
    nx.draw(graph, with_labels=True, font_weight="bold")
    if export_path is not None:
        plt.savefig(export_path)
        plt.close(figure)
    else:
        plt.show()
    return graph
