"""Optional agent capabilities and helpers (classic ``autogen.agentchat.contrib`` import paths)."""
