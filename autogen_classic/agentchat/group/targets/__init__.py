"""The classic path ``autogen.agentchat.group.targets``: the transition targets, one module per kind."""
