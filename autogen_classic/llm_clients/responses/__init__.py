"""The parts of the Responses API clients: ``OpenAIResponsesV2Client`` (``llm_clients.openai_responses_v2``)
and ``OpenAIResponsesClient`` (``llm_clients.openai_responses``; classic path ``oai.openai_responses``).

``conversation`` (the request and the server-side conversation it continues), ``pricing`` (token and
image costs), ``request`` (messages and settings -> a Responses API request),
``response`` (a Responses API answer -> ``UnifiedResponse``), ``v1_format`` (the chat-completion shape),
``tool_settings`` (built-in tools) and ``accessors`` (reading blocks out of an answer).
The typed ``config_list`` entry, ``OpenAIResponsesV2LLMConfigEntry``, lives with the other entries in
``oai.entries``.
"""
