"""What speaker selection sees of a group chat: the settings it reads and the state it keeps there.

Selection depends on this narrow view, not on the ``GroupChat`` class, so the class can delegate
to selection without the two modules importing each other. ``GroupChat`` provides every member;
a custom ``speaker_selection_method`` still receives the group chat object itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from ....exception_utils import InvalidArgumentError, InvalidAttributeTypeError
from ....graph_utils import ConditionalEdge
from ...agent import Agent
from .trace import SelectionRecord

__all__ = [
    "SPEAKER_SELECTION_METHODS",
    "GroupState",
    "check_speaker_selection_method",
    "classic_default",
    "overridden",
]

# The named speaker selection methods (a function may be given instead).
SPEAKER_SELECTION_METHODS = ["auto", "manual", "random", "round_robin"]

F = TypeVar("F", bound=Callable[..., Any])


class GroupState(Protocol):
    """The members of a group chat that speaker selection uses (see ``GroupChat`` for their meaning)."""

    # Settings, read only.
    @property
    def agents(self) -> list[Agent]: ...
    @property
    def messages(self) -> list[dict[str, Any]]: ...
    @property
    def func_call_filter(self) -> bool: ...
    @property
    def speaker_selection_method(self) -> Any: ...
    @property
    def allow_repeat_speaker(self) -> bool | list[Agent] | None: ...
    @property
    def allowed_or_disallowed_speaker_transitions(self) -> dict[Any, Any] | None: ...
    @property
    def eligibility_policies(self) -> list[Any]: ...
    @property
    def max_retries_for_selecting_speaker(self) -> int: ...
    @property
    def role_for_select_speaker_messages(self) -> str | None: ...
    @property
    def select_speaker_auto_multiple_template(self) -> str: ...
    @property
    def select_speaker_auto_none_template(self) -> str: ...
    @property
    def select_speaker_transform_messages(self) -> Any: ...
    @property
    def _speaker_selection_transforms(self) -> Any: ...  # the classic name of the transforms "auto" applies
    @property
    def select_speaker_auto_verbose(self) -> bool | None: ...
    @property
    def select_speaker_auto_model_client_cls(self) -> type | list[type] | None: ...
    @property
    def select_speaker_auto_llm_config(self) -> dict[str, Any] | bool | None: ...
    @property
    def select_speaker_structured_output(self) -> bool | None: ...
    @property
    def select_speaker_auto_addressed(self) -> bool | None: ...
    @property
    def select_speaker_auto_role_match(self) -> bool | None: ...

    _VALID_SPEAKER_SELECTION_METHODS: ClassVar[list[str]]

    # The conditional transitions of the graph: (source, target) -> (edge, "allow_if" | "block_if");
    # rebuilt with the graph by ``transition_graph()``.
    transition_conditions: dict[tuple[Any, Any], tuple[ConditionalEdge, str]]

    # State that selection keeps on the group chat, so it lives and resets with it.
    selection_log: list[SelectionRecord]
    _selector_chat: Any  # the nested "auto" chat (``SpeakerSelectorChat``), built on first use
    random_source: Any  # a random.Random for "random" selection, or None for the `random` module
    _selection_in_progress: Any  # while a classic hook runs: the selection it belongs to (pipeline._Selection)

    # Helpers of the group chat.
    def transition_graph(self) -> dict[Any, list[Any]]: ...

    def next_agent(self, agent: Agent, agents: list[Agent] | None = None) -> Agent: ...

    def agent_by_name(
        self, name: str, recursive: bool = False, raise_on_name_conflict: bool = False
    ) -> Agent | None: ...

    def select_speaker_msg(self, agents: list[Agent] | None = None) -> str: ...

    def select_speaker_prompt(self, agents: list[Agent] | None = None) -> str | None: ...


def classic_default(function: F) -> F:
    """Mark ``function`` as the built-in body of a classic hook of the group chat (see :func:`overridden`)."""
    function._classic_default = True  # type: ignore[attr-defined]
    return function


def overridden(groupchat: Any, name: str) -> bool:
    """Whether the hook ``name`` of ``groupchat`` is not the built-in one: a subclass overrides it, or a patch
    (``unittest.mock.patch.object``) replaced it on the class or on the object.

    A group chat without the hook at all has nothing to override: False.
    """
    if name in getattr(groupchat, "__dict__", ()):
        return True
    found = getattr(type(groupchat), name, None)
    return found is not None and getattr(found, "_classic_default", False) is not True


def check_speaker_selection_method(method: Any, valid: Sequence[str] = SPEAKER_SELECTION_METHODS) -> None:
    """Refuse a ``speaker_selection_method`` that is neither a function nor one of the ``valid`` names.

    Raises where the classic package did when selecting: ``ValueError`` for an unknown name,
    ``AttributeError`` (here also a ``TypeError``) for a value that is not a str.
    """
    if callable(method) or (isinstance(method, str) and method in valid):  # every selection asks: answer fast
        return
    classic = (
        f"GroupChat speaker_selection_method is set to '{method}'. It should be one of {valid} (case insensitive). "
    )
    fix = "Give one of these names, or a function f(last_speaker, groupchat) returning an agent, a name or None."
    if not isinstance(method, str):
        raise InvalidAttributeTypeError(f"'{type(method).__name__}' object has no attribute 'lower': {classic}{fix}")
    if method.lower() not in valid:
        raise InvalidArgumentError(f"{classic}{fix}")
