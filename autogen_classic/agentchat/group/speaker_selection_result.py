"""The classic path ``autogen.agentchat.group.speaker_selection_result``: SpeakerSelectionResult (code in ``agentchat.transitions``)."""

from ..agent import Agent  # noqa: F401 - importable here, as in the classic module
from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    SpeakerSelectionResult,
)

__all__ = ["SpeakerSelectionResult"]
