"""The parts ConversableAgent is made of: the reply pipeline and built-in replies, chat driving, nested
chats, tool registration, message conversion, human-input decisions and argument checks.

They import the agent core's plain modules (agent, chat, utils) and the layers below, never
conversable_agent itself (annotations only) nor the group chat.
"""
