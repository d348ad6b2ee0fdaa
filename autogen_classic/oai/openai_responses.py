"""The classic path of ``OpenAIResponsesClient``, the Responses API client (``"api_type": "responses"``).

A thin face: the client lives in ``llm_clients.openai_responses``, which builds on ``oai``, so it is
loaded on first use (``from autogen_classic.oai.openai_responses import OpenAIResponsesClient``).
"""

from __future__ import annotations

from typing import Any

from .endpoint.providers import classic_llm_client_class

__all__ = ["OpenAIResponsesClient"]


def __getattr__(name: str) -> Any:
    if name == "OpenAIResponsesClient":
        return classic_llm_client_class("responses")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
