"""The classic path ``autogen.agentchat.group.events``: the events of hand-offs."""
