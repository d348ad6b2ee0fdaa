"""The classic ``autogen.agentchat.eligibility_policy`` path (re-exports only; the code is in ``eligibility``).

``SelectionContext`` (what a policy sees: ``round`` = messages so far, ``last_speaker`` and
``participants`` as names), the ``AgentEligibilityPolicy`` protocol and ``AgentDescriptionGuard``.
"""

from ..eligibility import AgentDescriptionGuard, AgentEligibilityPolicy, SelectionContext

__all__ = ["AgentDescriptionGuard", "AgentEligibilityPolicy", "SelectionContext"]
