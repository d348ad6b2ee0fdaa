"""The classic path ``autogen.agentchat.group.targets.group_manager_target``: GroupManagerTarget and its selection messages (code in ``agentchat.transitions``)."""

from __future__ import annotations

import importlib
from typing import Any

from ...transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextStr,
    GroupManagerSelectionMessage,
    GroupManagerSelectionMessageContextStr,
    GroupManagerSelectionMessageString,
    GroupManagerTarget,
    SpeakerSelectionResult,
    TransitionTarget,
    prepare_groupchat_auto_speaker,
)

__all__ = ["GroupManagerTarget"]

# Kept in the group chat engine, above this face's imports: resolved on first use.
_ELSEWHERE = {"GroupToolExecutor": "autogen_classic.agentchat.group.group_tool_executor"}


def __getattr__(name: str) -> Any:
    if name in _ELSEWHERE:
        try:
            return getattr(importlib.import_module(_ELSEWHERE[name]), name)
        except ImportError as error:  # that part of the package is not there: the name is not either
            raise AttributeError(f"module {__name__!r} has no attribute {name!r} ({error})") from None
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
