"""The tokens the participants of one chat used: their model clients, and the tokens those counted.

A chat's ``agent_tokens`` is what its participants' clients count after the chat minus what they counted
before it, so agents shared by chats one after another are counted once per chat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["total_tokens", "usage_clients"]


def usage_clients(agents: Iterable[Any], skip: Any = None) -> list[Any]:
    """The model clients of ``agents`` (nested managers' included), without ``skip``'s (the selection's)."""
    clients: dict[int, Any] = {}
    for agent in agents:
        if agent is skip:
            continue
        if getattr(agent, "client", None) is not None:
            clients[id(agent.client)] = agent.client
        for client in getattr(agent, "usage_clients", None) or ():
            clients[id(client)] = client
    return list(clients.values())


def total_tokens(clients: Iterable[Any]) -> int:
    """The tokens ``clients`` counted so far, over every model."""
    total = 0
    for client in clients:
        for model, entry in (getattr(client, "total_usage_summary", None) or {}).items():
            if model != "total_cost" and isinstance(entry, dict):
                total += int(entry.get("total_tokens", 0) or 0)
    return total
