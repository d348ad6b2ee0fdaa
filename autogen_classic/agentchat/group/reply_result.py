"""The classic path ``autogen.agentchat.group.reply_result``: ReplyResult (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextVariables,
    ReplyResult,
    TransitionTarget,
)

__all__ = ["ReplyResult"]
