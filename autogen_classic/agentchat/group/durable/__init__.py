"""Pattern chats that outlive their process: resumed from a transcript, parked at an input request, forked
from a recorded round. Each sets the pattern up again and runs the group chat's own engines
(``agentchat.groupchat.durable_resume``, ``parking``, ``fork``)."""
