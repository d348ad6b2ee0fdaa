"""Chats run for a consumer of their events: ``run`` / ``run_iter`` and their twins, ``sequential_run`` (run_api),
and ag2 0.7.3's ``run(message)`` through a "user" agent (agent_run)."""
