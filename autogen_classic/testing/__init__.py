"""Test helpers that are real components: a scripted console (ScriptedIOStream), a scripted
OpenAI-compatible HTTP server on loopback, and a local redis-server (RedisServer).
Imports nothing else of the package; the demo uses the server.
"""
