"""The request parameters the installed openai SDK's ``chat.completions.create`` takes, read once.

Tracing tools (OpenTelemetry's OpenAI instrumentation, Langfuse, ...) replace ``create`` with a
wrapper of their own, on the class or on one client. A wrapper written as ``(*args, **kwargs)``
hides the SDK's signature, so the names are read from the SDK's own function under any wrapper
(``inspect.unwrap`` of the class attribute), never from whatever ``create`` is installed when a
request is made. When the class attribute is a wrapper that does not lead back to the SDK's
function, the names come from the SDK's typed request body, and failing that from the list of
openai 3.54.
"""

from __future__ import annotations

import functools
import inspect
import logging
from typing import Any

import openai

__all__ = ["KNOWN_CREATE_PARAMETERS", "REQUEST_OPTIONS", "SDK_VERSION", "create_parameters"]

logger = logging.getLogger("autogen_classic.oai")

SDK_VERSION: str = openai.__version__

# Per-request options of every SDK method; they are not part of the request body.
REQUEST_OPTIONS = frozenset({"extra_headers", "extra_query", "extra_body", "timeout"})

# The arguments of ``chat.completions.create`` in openai 3.54, used only when the installed SDK's
# own function and typed request body cannot be reached.
KNOWN_CREATE_PARAMETERS = REQUEST_OPTIONS | frozenset(
    {
        "audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
        "max_completion_tokens", "max_tokens", "messages", "metadata", "modalities", "model", "moderation", "n",
        "parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key", "prompt_cache_options",
        "prompt_cache_retention", "reasoning_effort", "response_format", "safety_identifier", "seed",
        "service_tier", "stop", "store", "stream", "stream_options", "temperature", "tool_choice", "tools",
        "top_logprobs", "top_p", "user", "verbosity", "web_search_options",
    }
)


def _is_sdk_function(function: Any) -> bool:
    """Whether ``function`` is the SDK's own ``create`` (not a wrapper hiding it)."""
    if not inspect.isfunction(function) or not getattr(function, "__module__", "").startswith("openai."):
        return False
    parameters = inspect.signature(function).parameters
    return "messages" in parameters and not any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _from_signature() -> frozenset[str] | None:
    from openai.resources.chat.completions import Completions

    function = inspect.unwrap(inspect.getattr_static(Completions, "create"))
    if not _is_sdk_function(function):
        return None
    return frozenset(name for name in inspect.signature(function).parameters if name != "self")


def _from_typed_body() -> frozenset[str] | None:
    try:
        from openai.types.chat import completion_create_params as typed
    except ImportError:
        return None
    bodies = [getattr(typed, f"CompletionCreateParams{kind}", None) for kind in ("NonStreaming", "Streaming")]
    names = {key for body in bodies if body is not None for key in getattr(body, "__annotations__", {})}
    return REQUEST_OPTIONS | frozenset(names) if "messages" in names else None


@functools.lru_cache(maxsize=1)
def create_parameters() -> frozenset[str]:
    """The argument names of the installed SDK's ``chat.completions.create`` (read once per process).

    Request settings outside this set (vLLM's ``top_k``, Ollama's ``options``, ...) are not
    arguments the SDK takes: they travel in ``extra_body``. Option checking uses the same set.
    """
    names = _from_signature()
    if names is None:
        names = _from_typed_body()
        source = "its typed request body"
        if names is None:
            names, source = KNOWN_CREATE_PARAMETERS, "the list of openai 3.54"
        logger.debug(
            "openai %s: Completions.create is replaced by a wrapper that hides the SDK's function; "
            "its parameters are taken from %s.",
            SDK_VERSION,
            source,
        )
    return names
