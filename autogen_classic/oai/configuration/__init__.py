"""Checking an ``llm_config``: the options ``LLMConfig`` and the wrapper share (llm_options.py), value types
(config.py), option names (options.py); the default one (default_config.py).

May import oai's config_list and secrets, endpoint/ (the keys an endpoint takes) and local: never client.py.
"""
