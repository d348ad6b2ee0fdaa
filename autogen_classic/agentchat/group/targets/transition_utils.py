"""The classic path ``autogen.agentchat.group.targets.transition_utils``: the name prefix of wrapper agents."""

from ...transitions import __AGENT_WRAPPER_PREFIX__  # noqa: F401 - importable here, as in the classic module

__all__: list[str] = []
