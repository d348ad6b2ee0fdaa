"""What speaker selection sees of a group chat: the settings it reads and the state it keeps there.

Selection depends on this narrow view, not on the ``GroupChat`` class, so the class can delegate
to selection without the two modules importing each other. ``GroupChat`` provides every member;
a custom ``speaker_selection_method`` still receives the group chat object itself.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from ....graph_utils import ConditionalEdge
from ...agent import Agent
from .trace import SelectionRecord

__all__ = ["GroupState"]


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
    _warned_no_model: bool
    random_source: Any  # a random.Random for "random" selection, or None for the `random` module

    # Helpers of the group chat.
    def transition_graph(self) -> dict[Any, list[Any]]: ...

    def next_agent(self, agent: Agent, agents: list[Agent] | None = None) -> Agent: ...

    def agent_by_name(
        self, name: str, recursive: bool = False, raise_on_name_conflict: bool = False
    ) -> Agent | None: ...

    def select_speaker_msg(self, agents: list[Agent] | None = None) -> str: ...

    def select_speaker_prompt(self, agents: list[Agent] | None = None) -> str | None: ...
