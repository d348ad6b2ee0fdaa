"""``ReplyResult``: what a tool returns to answer and, optionally, move the chat and set context variables."""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, field_validator

from .context_variables import ContextVariables
from .target_base import TransitionTarget, must_be_target

__all__ = ["ReplyResult"]


class ReplyResult(BaseModel):
    """A tool's result: the reply text, where the chat goes next and the context variables to set.

    Args:
        message: the tool's reply (what ``str()`` of the result gives).
        target: where the chat goes next (None: as the hand-offs decide).
        context_variables: variables to set in the group's context variables (a plain dict is accepted).
    """

    message: str
    target: Optional[TransitionTarget] = None
    context_variables: Optional[ContextVariables] = None

    @field_validator("target", mode="before")
    @classmethod
    def _target(cls, value: Any) -> Any:
        return must_be_target(value, "ReplyResult.target")

    def __str__(self) -> str:
        return self.message
