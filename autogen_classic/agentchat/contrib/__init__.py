"""Optional agent capabilities and helpers (classic ``autogen.agentchat.contrib`` import paths).

Built on the agent core (agentchat) and the layers below; the agent core never imports them.
"""
