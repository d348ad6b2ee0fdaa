"""The classic path ``autogen.agentchat.group.targets.group_manager_target``: GroupManagerTarget and its selection
messages (code in ``agentchat.groupchat.handoffs.manager_target``)."""

from ...groupchat.handoffs import GroupToolExecutor  # noqa: F401 - importable here, as in the classic module
from ...groupchat.handoffs.manager_target import (  # noqa: F401 - importable here, as in the classic module
    GroupManagerSelectionMessage,
    GroupManagerSelectionMessageContextStr,
    GroupManagerSelectionMessageString,
    GroupManagerTarget,
    prepare_groupchat_auto_speaker,
)
from ...transitions import ContextStr, SpeakerSelectionResult, TransitionTarget  # noqa: F401 - classic names

__all__ = ["GroupManagerTarget"]
