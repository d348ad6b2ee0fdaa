"""The classic hooks of ``GroupChat`` that subclasses override, with their built-in bodies.

``GroupChat`` inherits them from :class:`ClassicSelectionHooks`. Speaker selection calls a hook only
where the classic package calls it and only when it is overridden (or patched): otherwise the
pipeline runs the same steps itself, at no extra cost (see :func:`.state.overridden`). The built-in
bodies, reached through ``super()`` from an override or called directly, do what the classic ones do
and return what they return, recording into the selection trace when a selection is running.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from ...agent import Agent
from ...chat import ChatResult
from ...contrib.capabilities.transform_messages import TransformMessages
from ...conversable_agent import ConversableAgent
from . import candidates, classic_chat, pipeline
from .auto import mentioned_agents
from .state import classic_default

__all__ = ["ClassicSelectionHooks"]


class ClassicSelectionHooks:
    """The hooks of the classic ``GroupChat`` that "auto" and every other selection method go through."""

    # While a selection runs a hook: what the built-in bodies record into (see the pipeline and classic_chat).
    _selection_in_progress: Any = None

    @classic_default
    def _prepare_and_select_agents(
        self, last_speaker: Agent
    ) -> tuple[Optional[Agent], list[Agent], Optional[list[dict[str, Any]]]]:
        """Run the candidate stage of a selection after ``last_speaker``, as the classic method does.

        Returns:
            ``(selected_agent, candidates, messages)``: the agent chosen without a model (a custom selection
            function's agent, the only candidate, round robin, random, the console) or None; the agents the
            method chooses from; and for "auto", a copy of the messages the model reads (else None).
            An override may narrow ``candidates`` or choose the agent itself; the selection goes on from what
            it returns (None as the agent: the "auto" model, or for "manual" the automatic fallback).
        """
        return pipeline.prepare_and_select_agents(self, last_speaker)  # type: ignore[arg-type]

    @classic_default
    def _create_internal_agents(
        self,
        agents: list[Agent],
        max_attempts: int,
        messages: list[dict[str, Any]],
        validate_speaker_name: Callable[..., Any],
        selector: Optional[ConversableAgent] = None,
    ) -> tuple[ConversableAgent, ConversableAgent]:
        """Create the two agents of the "auto" selection chat: ``(checking_agent, speaker_selection_agent)``.

        Args:
            agents: the candidates (their roles make the selection agent's system message).
            max_attempts: the attempts allowed (the checking agent's ``default_auto_reply``, as classically).
            messages: the conversation the selection agent starts from (its history with the checking agent).
            validate_speaker_name: the checking agent's only reply function.
            selector: the group chat manager; its ``llm_config`` serves unless ``select_speaker_auto_llm_config``.

        Without an override, selection reuses one such pair for the whole chat; with one, it is called on every
        "auto" selection and the chat runs between the agents it returns.
        """
        return classic_chat.create_internal_agents(
            self, agents, max_attempts, messages, validate_speaker_name, selector  # type: ignore[arg-type]
        )

    @classic_default
    def _validate_speaker_name(
        self,
        recipient: Any,
        messages: list[dict[str, Any]],
        sender: Any,
        config: Any,
        attempts_left: int,
        attempt: int,
        agents: list[Agent],
    ) -> tuple[bool, str | dict[str, Any] | None]:
        """Judge the model's answer, the last of ``messages``, in the "auto" selection chat.

        One candidate named: ``[AGENT SELECTED]<name>`` is appended to ``messages``. Several or none: the
        follow-up prompt (``select_speaker_auto_multiple_template`` / ``..._none_template``) is returned while
        ``attempts_left``, else ``[AGENT SELECTION FAILED]...`` is appended.

        Returns:
            ``(True, the follow-up prompt or None)``; None ends the selection chat.
        """
        return classic_chat.validate_speaker_name(self, messages, attempts_left, attempt, agents)  # type: ignore[arg-type]

    @classic_default
    def _process_speaker_selection_result(
        self, result: ChatResult, last_speaker: ConversableAgent, agents: Optional[list[Agent]]
    ) -> Optional[Agent]:
        """Return the next speaker from the ``ChatResult`` of the "auto" selection chat: the agent of its
        final ``[AGENT SELECTED]<name>`` message, or after a failed selection the next of ``agents`` after
        ``last_speaker``."""
        return classic_chat.process_speaker_selection_result(self, result, last_speaker, agents)  # type: ignore[arg-type]

    @classic_default
    def _mentioned_agents(
        self, message_content: str | list[Any] | dict[str, Any], agents: Optional[list[Agent]]
    ) -> dict[str, int]:
        """Count how often each agent's name is mentioned in ``message_content`` (see ``selection.auto``)."""
        return mentioned_agents(message_content, self.agents if agents is None else agents)  # type: ignore[attr-defined]

    @classic_default
    def _apply_eligibility_policies(self, agents: list[Agent], last_speaker: Optional[Agent], round_index: int) -> list[Agent]:
        """The ``agents`` every eligibility policy keeps (all of them without policies), as AG2 Classic 0.14.1.

        Args:
            agents: the candidates, in order.
            last_speaker: the agent that spoke last (None before the first turn).
            round_index: the number of messages so far (the policies' ``round``).

        Raises:
            NoEligibleSpeakerError: the policies removed every candidate.
        """
        return candidates.eligible_agents(self, list(agents), last_speaker, round_index,  # type: ignore[arg-type]
                                          self._selection_in_progress)

    @property
    def _speaker_selection_transforms(self) -> Optional[TransformMessages]:
        """The classic name of ``select_speaker_transform_messages``: what "auto" selection applies to the
        messages its model reads. Setting it sets that field."""
        return self.select_speaker_transform_messages  # type: ignore[attr-defined, no-any-return]

    @_speaker_selection_transforms.setter
    def _speaker_selection_transforms(self, transforms: Optional[TransformMessages]) -> None:
        if transforms is not None and not isinstance(transforms, TransformMessages):
            raise ValueError("select_speaker_transform_messages must be None or MessageTransforms.")
        self.select_speaker_transform_messages = transforms
