"""Test helpers that are real components: a scripted console (ScriptedIOStream) and a scripted
OpenAI-compatible HTTP server on loopback. Imports nothing else of the package; the demo uses the server.
"""
