"""Checking an ``llm_config``: value types (config.py), option names (options.py); the default one (default_config.py).

May import oai's config_list and secrets, endpoint/ (the keys an endpoint takes) and local: never client.py.
"""
