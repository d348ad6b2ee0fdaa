"""One OpenAI-compatible endpoint: OpenAIClient, its provider, the request, streaming, the HTTP clients under the SDK.

May import oai's client_utils, errors, secrets and usage, and io and cache below: never configuration/ or client.py.
"""
