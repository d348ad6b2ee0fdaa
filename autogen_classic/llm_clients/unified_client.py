"""``UnifiedResponseClient``: what the two clients answering with a ``UnifiedResponse`` share.

``OpenAICompletionsClient`` and ``OpenAIResponsesV2Client`` take the same connection arguments, keep
the same default ``response_format`` and report usage under the same classic keys; they differ in
the request they send and in how they read the answer.
"""

from __future__ import annotations

from typing import Any, Union

from ..oai.model_client import ModelClient
from ._sdk import SdkEndpoint, build_sdk_client
from .models import UnifiedResponse

__all__ = ["UnifiedResponseClient"]


class UnifiedResponseClient(SdkEndpoint, ModelClient):
    """A client built on an ``openai.OpenAI`` client whose ``create`` returns a ``UnifiedResponse``.

    Args:
        api_key: the API key (default: ``OPENAI_API_KEY``; a local ``base_url`` needs none).
        base_url: the endpoint, e.g. ``http://localhost:8000/v1`` (default: OpenAI's).
        timeout: seconds per request.
        response_format: a pydantic model (or JSON-schema dict) every request asks for.
        **kwargs: other ``openai.OpenAI`` settings (``max_retries``, ``default_headers``, ...).
    """

    def __init__(
        self,
        api_key: Union[str, None] = None,
        base_url: Union[str, None] = None,
        timeout: float = 60.0,
        response_format: Any = None,
        **kwargs: Any,
    ) -> None:
        self._use_client(build_sdk_client(api_key, base_url, timeout, kwargs), api_key)
        self._default_response_format = response_format

    @staticmethod
    def get_usage(response: UnifiedResponse) -> dict[str, Any]:  # type: ignore[override]
        """``prompt_tokens``, ``completion_tokens``, ``total_tokens``, ``cost`` and ``model`` of ``response``."""
        return {
            "prompt_tokens": response.usage.get("prompt_tokens", 0),
            "completion_tokens": response.usage.get("completion_tokens", 0),
            "total_tokens": response.usage.get("total_tokens", 0),
            "cost": response.cost or 0.0,
            "model": response.model,
        }
