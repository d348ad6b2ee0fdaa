"""How a request travels through the openai SDK: as ``create``'s keyword arguments, or past its typed walk.

The SDK's ``create`` checks every message and tool against its typed schema before sending: about
1.5 ms of CPU per request for a short chat, 5-9 ms for twenty messages with tools, more than the
rest of a request's client work. Messages and tools are plain JSON already. Past the walk, a request
is the SDK client's own ``post`` of the same body to ``/chat/completions`` (the SDK's documented way
to send a request it has no method for, with the client's key, headers, retries and timeouts), and
the response body is read by pydantic's compiled validator. A stream, and an Azure request, send
messages, tools and functions in ``extra_body`` of ``create`` instead, which the SDK merges into the
body as they are. Either way the server receives the same body as through ``create``'s arguments.

What decides the route (``sdk_fast_path`` in an ``llm_config`` or ``config_list`` entry):

- ``True``: always past the walk;
- ``False``: always as ``create``'s arguments;
- unset (the default): past the walk while nothing watches the SDK's request functions, as
  ``create``'s arguments as soon as something does. A tracing tool (OpenTelemetry's instrumentation,
  a ``functools.wraps`` wrapper, a mock) replaces ``create`` or the client's ``request`` on the class or
  on one client; it then sees every message and tool, as it would without this package. The check
  runs on every request, so instrumentation installed mid-run takes effect at the next request.

An object standing in for the SDK client (``OpenAIClient._oai_client`` replaced by a mock or a fake
client) always gets the request as ``create``'s arguments: it is only known to have
``chat.completions.create``.
"""

from __future__ import annotations

import contextlib
import os
import types
from collections.abc import Mapping
from typing import Any, Optional

import openai
import pydantic
from openai.types.chat import ChatCompletion

from .http_clients import sdk_http_library
from .request import SDK_FAST_PATH_KEY

__all__ = [
    "completion_from_http",
    "fast_path_params",
    "fast_path_setting",
    "is_json_encoding_error",
    "parsed_completion",
    "post_arguments",
    "postable",
    "replaced_on_object",
    "sdk_is_watched",
    "stand_in_sdk",
]

CHAT_COMPLETIONS_PATH = "/chat/completions"

# create()'s arguments that are request options, not body fields.
_OPTION_PARAMETERS = ("extra_headers", "extra_query", "extra_body", "timeout")

# Request parameters sent past the SDK's per-request type walk.
_PLAIN_JSON_PARAMETERS = ("messages", "tools", "functions")

_SDK_DIRECTORY = os.path.dirname(openai.__file__) + os.sep


def fast_path_setting(config: Mapping[str, Any]) -> Optional[bool]:
    """The entry's ``sdk_fast_path``: True, False or None (unset: decided per request).

    Raises:
        ValueError: it is set to something other than True, False or None.
    """
    value = config.get(SDK_FAST_PATH_KEY)
    if value is None or isinstance(value, bool):
        return value
    raise ValueError(
        f"Invalid llm_config: {SDK_FAST_PATH_KEY!r} must be True or False, got {type(value).__name__} "
        f"{value!r}. True always sends messages and tools past the openai SDK's per-request processing "
        "(less CPU, but tracing tools wrapping chat.completions.create then record no messages or tools); "
        "False never does; leave it out to skip that processing only while no tool wraps the SDK."
    )


def _is_sdk_function(owner: Any, name: str) -> bool:
    """Whether ``owner.name`` is still the SDK's own function: not replaced on the object or its class."""
    if name in getattr(owner, "__dict__", {}):  # set on this one object (a mock, a per-client wrapper)
        return False
    for cls in type(owner).__mro__:
        found = cls.__dict__.get(name)
        if found is not None:
            # A wrapper (wrapt's proxies, mocks) is not a plain function; a plain one from elsewhere is foreign code.
            return type(found) is types.FunctionType and found.__code__.co_filename.startswith(_SDK_DIRECTORY)
    return False


def stand_in_sdk(sdk_client: Any) -> bool:
    """Whether ``sdk_client`` is not an openai SDK client at all (a mock, a fake client of the user's).

    The object's real class decides, so a ``MagicMock(spec=openai.OpenAI)`` is a stand-in too.
    """
    return not issubclass(type(sdk_client), (openai.OpenAI, openai.AsyncOpenAI))


def replaced_on_object(sdk_client: Any) -> bool:
    """Whether ``sdk_client`` is a stand-in, or its ``request`` or ``chat.completions.create`` was replaced
    on this one object (``patch.object(client._oai_client.chat.completions, "create")``).

    Replacements on the SDK's classes (tracing tools instrument the sync and async classes alike) do
    not count: those are seen by ``sdk_is_watched`` on whichever client sends the request.
    """
    if stand_in_sdk(sdk_client):
        return True
    state = sdk_client.__dict__
    if "request" in state:
        return True
    chat = state.get("chat")  # a cached property: present once something looked at it
    completions = getattr(chat, "__dict__", {}).get("completions") if chat is not None else None
    return completions is not None and "create" in completions.__dict__


def sdk_is_watched(sdk_client: Any, completions: Any) -> bool:
    """Whether anything replaced the SDK's ``create`` or its client's ``request`` (so it should see the request)."""
    if stand_in_sdk(sdk_client):
        return True
    return not (_is_sdk_function(completions, "create") and _is_sdk_function(sdk_client, "request"))


def fast_path_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with messages, tools and functions moved into ``extra_body`` (the server gets the same body)."""
    plain = {key: params[key] for key in _PLAIN_JSON_PARAMETERS if key in params}
    if not plain:
        return params
    rest = {k: v for k, v in params.items() if k not in plain}
    return {**rest, "messages": [], "extra_body": {**plain, **(params.get("extra_body") or {})}}


def parsed_completion(raw: Any) -> Any:
    """The ``ChatCompletion`` in a raw SDK response, validated by pydantic-core when the body allows.

    The SDK builds its response objects field by field in Python; pydantic's compiled validator reads
    the same JSON in a few microseconds and gives an equal object. A body it refuses (a missing field,
    an unknown finish reason from some server) goes the SDK's own lenient way, so what is accepted is
    unchanged.
    """
    try:
        completion = ChatCompletion.model_validate_json(raw.http_response.content)
    except (pydantic.ValidationError, ValueError, AttributeError):
        return raw.parse()
    with contextlib.suppress(Exception):  # the SDK keeps the server's request id on what it returns
        completion._request_id = raw.http_response.headers.get("x-request-id")
    return completion


def postable(params: Mapping[str, Any], is_azure: bool) -> bool:
    """Whether a request past the walk can be the client's ``post`` (not a stream, not Azure's deployments).

    A pydantic class as ``response_format`` goes through ``create``, whose own error names ``parse()``.
    """
    return not is_azure and not params.get("stream") and not isinstance(params.get("response_format"), type)


def post_arguments(params: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of the SDK client's ``post`` for the request ``create(**params)`` would send."""
    body = {key: value for key, value in params.items() if key not in _OPTION_PARAMETERS}
    extra_body = params.get("extra_body")
    if extra_body:
        body.update(extra_body)  # the SDK merges extra_body over the body: its keys win
    options: dict[str, Any] = {}
    if params.get("extra_headers") is not None:
        options["headers"] = params["extra_headers"]
    if params.get("extra_query") is not None:
        options["params"] = params["extra_query"]
    if "timeout" in params:
        options["timeout"] = params["timeout"]
    return {"path": CHAT_COMPLETIONS_PATH, "body": body, "options": options, "cast_to": sdk_http_library().Response}


def completion_from_http(response: Any) -> Any:
    """The ``ChatCompletion`` in an HTTP response, read as the SDK reads one (leniently when pydantic refuses it).

    As in the SDK: a body that is not JSON raises the JSON decoder's error when the response says it is
    JSON, and is returned as its text otherwise (which ``check_completion`` refuses).
    """
    try:
        completion = ChatCompletion.model_validate_json(response.content)
    except (pydantic.ValidationError, ValueError):
        content_type = response.headers.get("content-type", "*").split(";")[0]
        try:
            data = response.json()
        except ValueError:
            if content_type.endswith("json"):
                raise
            return response.text
        if not isinstance(data, dict):
            return data
        completion = ChatCompletion.construct(**data)  # the SDK's lenient construction, nested models included
    with contextlib.suppress(Exception):  # the SDK keeps the server's request id on what it returns
        completion._request_id = response.headers.get("x-request-id")
    return completion


def is_json_encoding_error(err: TypeError) -> bool:
    """Whether ``err`` is the JSON encoder refusing a value of the body (raised before anything is sent).

    Such a body (a pydantic object inside a message, say) is retried through ``create``, whose typed walk
    turns those values into JSON.
    """
    return "JSON serializable" in str(err)
