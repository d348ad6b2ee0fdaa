"""Updating an agent before it replies: ``UpdateSystemMessage`` and the constructor's ``functions``.

``ConversableAgent(update_agent_state_before_reply=[...])`` takes callables ``(agent, messages)`` and
``UpdateSystemMessage`` objects; each runs (as an ``update_agent_state`` hook) every time the agent
is about to reply. ``ConversableAgent(functions=[...])`` offers functions to the agent's model as tools.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from inspect import signature
from typing import TYPE_CHECKING, Any, Union

from ...oai import OpenAIWrapper

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent

__all__ = ["UpdateSystemMessage", "add_functions", "register_update_agent_state"]


@dataclass
class UpdateSystemMessage:
    """A new system message for an agent, made before each of its replies.

    Args:
        content_updater: a template whose ``{name}`` fields are filled from the agent's context
            variables (a template naming a variable the agent does not have is used as it is), or a
            function ``(agent, messages) -> str`` (annotated ``-> str``).

    Raises:
        ValueError: a function without exactly two parameters or without the ``-> str`` annotation,
            or something that is neither a str nor a callable. A template without any ``{field}``
            gives a ``UserWarning``.
    """

    content_updater: Union[Callable[..., str], str]

    def __post_init__(self) -> None:
        if isinstance(self.content_updater, str):
            if not re.findall(r"\{(\w+)\}", self.content_updater):
                warnings.warn("Update function string contains no variables. This is probably unintended.",
                              UserWarning, stacklevel=3)
        elif callable(self.content_updater):
            parameters = signature(self.content_updater).parameters
            if len(parameters) != 2:
                raise ValueError(
                    "The update function must accept two parameters of type ConversableAgent and "
                    f"List[Dict[str, Any]], respectively; {_name(self.content_updater)} takes {len(parameters)}."
                )
            # ``-> str`` reads as the str "str" in a module with ``from __future__ import annotations``.
            if signature(self.content_updater).return_annotation not in (str, "str"):
                raise ValueError(
                    f"The update function must return a string; annotate {_name(self.content_updater)} with -> str."
                )
        else:
            raise ValueError(
                "The update function must be either a string or a callable; got "
                f"{type(self.content_updater).__name__} {self.content_updater!r:.60}."
            )

    def new_system_message(self, agent: "ConversableAgent", messages: list[dict[str, Any]]) -> str:
        """The system message ``agent`` gets before replying to ``messages``."""
        if callable(self.content_updater):
            return self.content_updater(agent, messages)
        variables = getattr(agent, "context_variables", None)
        if variables is None:
            variables = getattr(agent, "_context_variables", {})
        if hasattr(variables, "to_dict"):
            variables = variables.to_dict()
        try:
            return OpenAIWrapper.instantiate(template=self.content_updater, context=dict(variables or {}),
                                             allow_format_str_template=True)
        except (KeyError, IndexError, ValueError):
            # A field the context does not have: the template is kept as written, as in classic AutoGen.
            return self.content_updater

    def as_hook(self) -> Callable[["ConversableAgent", list[dict[str, Any]]], list[dict[str, Any]]]:
        """The ``update_agent_state`` hook that applies this update."""

        def update_system_message(agent: "ConversableAgent", messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
            agent.update_system_message(self.new_system_message(agent, messages))
            return messages

        return update_system_message


def _name(func: Any) -> str:
    return getattr(func, "__name__", None) or repr(func)


def register_update_agent_state(agent: "ConversableAgent", functions: Any) -> None:
    """Register ``functions`` (callables ``(agent, messages)`` and ``UpdateSystemMessage``s) as hooks of ``agent``.

    Raises:
        ValueError: ``functions`` is neither a list nor one callable / ``UpdateSystemMessage``, or an item
            is neither.
    """
    if functions is None:
        return
    if not isinstance(functions, (list, tuple, UpdateSystemMessage)) and not callable(functions):
        raise ValueError(
            "functions must be a list of callables (or UpdateSystemMessage objects); update_agent_state_before_reply "
            f"got {type(functions).__name__} {functions!r:.60}."
        )
    items = list(functions) if isinstance(functions, (list, tuple)) else [functions]
    for index, item in enumerate(items):
        if isinstance(item, UpdateSystemMessage):
            agent.register_hook(hookable_method="update_agent_state", hook=item.as_hook())
        elif callable(item):
            agent.register_hook(hookable_method="update_agent_state", hook=item)
        else:
            raise ValueError(
                f"update_agent_state_before_reply[{index}] must be a callable (agent, messages) or an "
                f"UpdateSystemMessage; got {type(item).__name__} {item!r:.60}."
            )


def add_functions(agent: "ConversableAgent", functions: Any) -> None:
    """Offer ``functions`` (one callable or a list) to ``agent``'s model as tools (not for execution).

    Each tool is named by the function's ``_name`` or ``__name__`` and described by its ``_description``
    or docstring.

    Raises:
        TypeError: ``functions`` is not a callable or a list of callables.
    """
    if functions is None:
        return
    if isinstance(functions, list):
        if not all(callable(f) for f in functions):
            bad = [f for f in functions if not callable(f)]
            raise TypeError(f"All elements in the functions list must be callable; got {bad!r:.80}.")
        items = functions
    elif callable(functions):
        items = [functions]
    else:
        raise TypeError(
            f"Functions must be a callable or a list of callables; got {type(functions).__name__} {functions!r:.60}."
        )
    for func in items:
        name = getattr(func, "_name", None) or func.__name__
        description = getattr(func, "_description", None) or (func.__doc__ or "").strip()
        agent.register_for_llm(name=name, description=description)(func)
