"""``TransformMessages``: an agent capability that runs message transforms before each reply."""

from __future__ import annotations

import copy
from typing import Optional, Sequence

from ....formatting_utils import colored
from ....io.emit import emit_print
from ...conversable_agent import ConversableAgent
from .agent_capability import AgentCapability
from .transforms import MessageTransform

__all__ = ["TransformMessages"]


class TransformMessages(AgentCapability):
    """Applies a chain of message transforms to an agent's messages before it replies.

    Typical use: keep a model's context small (``MessageHistoryLimiter``,
    ``MessageTokenLimiter``) or rewrite messages (``TextMessageContentName``). The transforms
    run in the given order, so order matters. A leading system message is never handed to
    the transforms: it is kept as the first message.

    Example::

        from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms

        context_handling = transform_messages.TransformMessages(
            transforms=[transforms.MessageHistoryLimiter(max_messages=10),
                        transforms.MessageTokenLimiter(max_tokens=1000)]
        )
        context_handling.add_to_agent(assistant)

    Args:
        transforms: the transforms to apply, in order; each has ``apply_transform(messages)``
            (and ``get_logs(pre, post)`` for verbose output).
        verbose: print what each transform changed (through the console ``IOStream``).
    """

    def __init__(
        self,
        *,
        transforms: Optional[Sequence[MessageTransform]] = [],  # noqa: B006 - the classic default, never mutated
        verbose: bool = True,
    ) -> None:
        transforms = [] if transforms is None else transforms
        if not isinstance(transforms, (list, tuple)):
            raise TypeError(f"transforms must be a list of message transforms, got {type(transforms).__name__}.")
        for index, transform in enumerate(transforms):
            if not callable(getattr(transform, "apply_transform", None)):
                raise TypeError(
                    f"transforms[{index}] ({transform!r}) has no apply_transform(messages) method; "
                    "use e.g. MessageHistoryLimiter or MessageTokenLimiter."
                )
        self._transforms = list(transforms)
        self._verbose = verbose

    @property
    def transforms(self) -> list[MessageTransform]:
        """The transforms, in the order they are applied."""
        return list(self._transforms)

    def add_to_agent(self, agent: ConversableAgent) -> None:  # type: ignore[override]
        """Register the transforms on ``agent``: every message list it replies to is transformed first.

        Uses the agent's ``process_all_messages_before_reply`` hook.
        """
        agent.register_hook(hookable_method="process_all_messages_before_reply", hook=self._transform_messages)

    def _transform_messages(self, messages: list[dict]) -> list[dict]:
        """Return a transformed copy of ``messages`` (the hook registered by :meth:`add_to_agent`)."""
        if not messages:
            return []
        result = copy.deepcopy(messages)
        system_message = result.pop(0) if result[0].get("role") == "system" else None

        for transform in self._transforms:
            # Keep an untouched copy for the logs: a transform may change its input in place.
            before = copy.deepcopy(result) if self._verbose else result
            result = transform.apply_transform(before)
            if self._verbose and callable(getattr(transform, "get_logs", None)):
                logs, had_effect = transform.get_logs(before, result)
                if had_effect:
                    emit_print(colored(logs, "yellow"))

        if system_message is not None:
            result.insert(0, system_message)
        return result
