"""The classic exception classes."""

from __future__ import annotations

from typing import Any

__all__ = [
    "AgentNameConflict",
    "AgentNameConflictError",
    "InvalidCarryOverType",
    "InvalidCarryOverTypeError",
    "ModelToolNotSupportedError",
    "NoEligibleSpeaker",
    "NoEligibleSpeakerError",
    "SenderRequired",
    "SenderRequiredError",
    "UndefinedNextAgent",
    "UndefinedNextAgentError",
]

# Not classic names: the errors this package raises where the classic package asserted.
# Each is both the clear type (ValueError / RuntimeError / TypeError) and AssertionError,
# so ``except AssertionError`` in old code keeps working.


class InvalidArgumentError(ValueError, AssertionError):
    """A bad argument value, where the classic package raised ``AssertionError``."""


class InvalidArgumentTypeError(TypeError, AssertionError):
    """An argument of the wrong type, where the classic package raised ``AssertionError``."""


class InvalidStateError(RuntimeError, AssertionError):
    """A call the object is not set up for, where the classic package raised ``AssertionError``."""


# Each classic exception has two names: the AG2 0.14 name (``...Error``) and the older one (ag2 0.7 /
# pyautogen 0.2). Both name the same class, so ``except`` with either name catches what the package
# raises and what user code raises under the other name.


class AgentNameConflictError(Exception):  # noqa: N818 - classic name
    """Two agents of a group share a name where names must be unique."""

    def __init__(self, msg: str = "Found multiple agents with the same name.", *args: Any, **kwargs: Any) -> None:
        super().__init__(msg, *args, **kwargs)


class NoEligibleSpeakerError(Exception):  # noqa: N818
    """No agent may speak next: the group chat ends early."""

    def __init__(self, message: str = "No eligible speakers.") -> None:
        self.message = message
        super().__init__(self.message)


class SenderRequiredError(Exception):  # noqa: N818
    """A reply trigger given as a name needs a sender to compare with."""

    def __init__(self, message: str = "Sender is required but not provided.") -> None:
        self.message = message
        super().__init__(self.message)


class InvalidCarryOverTypeError(Exception):  # noqa: N818
    """A carryover that is neither a string nor a list."""

    def __init__(
        self, message: str = "Carryover should be a string or a list of strings. Not adding carryover to the message."
    ) -> None:
        self.message = message
        super().__init__(self.message)


class UndefinedNextAgentError(Exception):  # noqa: N818
    """The agents named as next speakers are not in the group."""

    def __init__(self, message: str = "The provided agents list does not overlap with agents in the group.") -> None:
        self.message = message
        super().__init__(self.message)


# The older names (ag2 0.7.3, pyautogen 0.2).
AgentNameConflict = AgentNameConflictError
NoEligibleSpeaker = NoEligibleSpeakerError
SenderRequired = SenderRequiredError
InvalidCarryOverType = InvalidCarryOverTypeError
UndefinedNextAgent = UndefinedNextAgentError


class ModelToolNotSupportedError(Exception):
    """Tools were requested from a model that does not support them."""

    def __init__(self, model: str) -> None:
        self.message = f"Tools are not supported with {model} models."
        super().__init__(self.message)


class InvalidAttributeTypeError(AttributeError, TypeError):
    """An argument of the wrong type, found when it is first used, where the classic package raised
    ``AttributeError`` (a method missing on the wrong type)."""


class NotAnAgentError(ValueError, TypeError):
    """Something that is not an agent where agents are expected; the classic package raised ``ValueError``."""


class NotAPolicyError(ValueError, TypeError):
    """An eligibility policy without an ``is_eligible(agent, ctx)`` method; the classic package raised
    ``ValueError`` (older releases of this package ``TypeError``)."""


class UnknownKeyError(KeyError):
    """An unknown key where the classic package raised ``KeyError``; ``args[0]`` is the key, as there.

    ``str()`` shows the key followed by the fix (a plain ``KeyError`` shows only the quoted key).
    """

    def __init__(self, key: Any, hint: str) -> None:
        super().__init__(key)
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.args[0]!r}: {self.hint}"


class TransitionConditionError(RuntimeError):
    """The condition of a conditional speaker transition (``graph_utils.ConditionalEdge``) failed.

    Raised while the next speaker is chosen when the condition raised (the original error is the
    ``__cause__``) or gave no True/False answer; the group chat stops there, its messages kept.
    ``edge`` names the transition (``"coder -> critic [label]"``).
    """

    def __init__(self, message: str, edge: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.edge = edge
