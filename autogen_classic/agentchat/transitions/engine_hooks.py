"""What the transition targets need from the layers above them, registered by those layers.

The targets are data the agent core imports, so they cannot import the agents or the group chat
engine. A few of their methods need them all the same (a nested chat's wrapper agent is a
``ConversableAgent``; the group manager's selection message is applied by the engine). Those layers
register what they provide here when they are imported; a method that needs something not yet
registered raises :class:`GroupEngineNotLoadedError`, which names the part to import.
"""

from __future__ import annotations

from typing import Any

__all__ = ["HOOKS", "GroupEngineNotLoadedError", "engine_hook", "has_engine_hook", "register_engine_hook"]

# name -> (what it is, the module whose import registers it)
HOOKS: dict[str, tuple[str, str]] = {
    "agent_class": (
        "the ConversableAgent class, of which wrapper agents are made",
        "autogen_classic.agentchat.conversable_agent",
    ),
    "initiate_group_chat": (
        "initiate_group_chat(pattern, messages, max_rounds, ...) -> (ChatResult, ContextVariables, last agent)",
        "autogen_classic.agentchat.group.multi_agent_chat",
    ),
    "prepare_groupchat_auto_speaker": (
        "prepare_groupchat_auto_speaker(groupchat, last_group_agent, group_chat_manager_selection_msg)",
        "autogen_classic.agentchat.groupchat.handoffs",
    ),
    "pattern_class": (
        "the Pattern base class of the group orchestration (checks GroupChatConfig.pattern)",
        "autogen_classic.agentchat.group.patterns.pattern",
    ),
}

_registered: dict[str, Any] = {}


class GroupEngineNotLoadedError(RuntimeError):
    """A transition target needs a part of the package that has not been imported (so not registered)."""


def register_engine_hook(name: str, hook: Any) -> None:
    """Provide ``hook`` under ``name`` (one of :data:`HOOKS`); a later registration replaces it.

    Args:
        name: what is provided.
        hook: the function or class.
    """
    if name not in HOOKS:
        raise ValueError(f"Unknown engine hook {name!r}; the known ones are {sorted(HOOKS)}.")
    _registered[name] = hook


def has_engine_hook(name: str) -> bool:
    """Whether ``name`` has been registered."""
    return name in _registered


def engine_hook(name: str, needed_by: str) -> Any:
    """The hook registered under ``name``.

    Args:
        name: one of :data:`HOOKS`.
        needed_by: what needs it (named in the error), e.g. ``"NestedChatTarget.create_wrapper_agent"``.

    Raises:
        GroupEngineNotLoadedError: when it is not registered yet.
    """
    try:
        return _registered[name]
    except KeyError:
        what, module = HOOKS[name]
        raise GroupEngineNotLoadedError(
            f"{needed_by} needs {what}, which is registered when {module} is imported; import it first "
            f"(importing autogen_classic does)."
        ) from None
