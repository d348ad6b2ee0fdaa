"""Durable group chats: a checkpoint beside the transcript, and resuming a chat in one call.

``checkpoint_file`` reads and writes ``<transcript_path>.state``; ``snapshot`` says what a line holds and
puts it back. ``groupchat.durable_resume`` runs a group chat on from its files (``resume_group_chat``).
"""
