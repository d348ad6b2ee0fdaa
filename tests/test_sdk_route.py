"""The route of a request through the openai SDK, and the SDK clients behind an endpoint.

With ``sdk_fast_path`` unset, a request skips the SDK's typed walk of messages and tools while nothing
watches the SDK, and goes through ``create``'s keyword arguments as soon as something does: a wrapper
of ``create`` or of the client's ``request``, on the class or on one client, installed before or
during a run. The server receives the same body either way. ``True`` and ``False`` fix the route.

An endpoint builds its sync SDK client on its first sync request; endpoints with equal settings share
one async SDK client per event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from openai.resources.chat.completions import AsyncCompletions, Completions

from autogen_classic.oai import OpenAIWrapper
from autogen_classic.oai.endpoint.openai_client import OpenAIClient
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "name": "ann", "content": "Add 1 and 2."}]
TOOL = {"type": "function", "function": {"name": "add", "parameters": {"type": "object", "properties": {}}}}


def _endpoint(wrapper: OpenAIWrapper) -> OpenAIClient:
    (endpoint,) = wrapper._clients
    assert isinstance(endpoint, OpenAIClient)
    return endpoint


@contextlib.contextmanager
def wrapped(owner: Any, name: str) -> Iterator[list[dict[str, Any]]]:
    """A ``functools.wraps`` wrapper on ``owner.name`` (a class or one object), recording the arguments.

    Each call is recorded as its keyword arguments, with the positional ones under ``"args"``.
    """
    original = inspect.getattr_static(owner, name)
    bound = getattr(owner, name)
    calls: list[dict[str, Any]] = []
    if isinstance(owner, type):

        @functools.wraps(original)
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            calls.append({"args": args, **kwargs})
            return original(self, *args, **kwargs)

        setattr(owner, name, method)
    else:

        @functools.wraps(bound)
        def function(*args: Any, **kwargs: Any) -> Any:
            calls.append({"args": args, **kwargs})
            return bound(*args, **kwargs)

        setattr(owner, name, function)
    try:
        yield calls
    finally:
        if isinstance(owner, type):
            setattr(owner, name, original)
        else:
            delattr(owner, name)


def test_the_unset_route_skips_the_walk_only_while_nothing_watches(scripted_server: ScriptedOpenAIServer) -> None:
    endpoint = _endpoint(OpenAIWrapper(**scripted_server.llm_config()))
    assert endpoint.sdk_fast_path is None
    sdk = endpoint._client
    completions = sdk.chat.completions
    assert endpoint._past_the_walk(sdk, completions)
    with wrapped(Completions, "create"):
        assert not endpoint._past_the_walk(sdk, completions)
    with wrapped(completions, "create"):
        assert not endpoint._past_the_walk(sdk, completions)
    with wrapped(openai.OpenAI, "request"):
        assert not endpoint._past_the_walk(sdk, completions)
    with wrapped(sdk, "request"):
        assert not endpoint._past_the_walk(sdk, completions)
    assert endpoint._past_the_walk(sdk, completions)  # every wrapper removed: past the walk again


def test_true_and_false_fix_the_route(scripted_server: ScriptedOpenAIServer) -> None:
    always = _endpoint(OpenAIWrapper(**scripted_server.llm_config(sdk_fast_path=True)))
    never = _endpoint(OpenAIWrapper(**scripted_server.llm_config(sdk_fast_path=False)))
    for endpoint, expected in ((always, True), (never, False)):
        sdk = endpoint._client
        assert endpoint._past_the_walk(sdk, sdk.chat.completions) is expected
        with wrapped(Completions, "create"):
            assert endpoint._past_the_walk(sdk, sdk.chat.completions) is expected


def test_a_ready_sdk_client_always_takes_the_walk(scripted_server: ScriptedOpenAIServer) -> None:
    sdk = openai.OpenAI(api_key="sk-scripted-test", base_url=scripted_server.base_url)
    endpoint = OpenAIClient(sdk)
    assert endpoint._past_the_walk(sdk, sdk.chat.completions) is False


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_request_level_wrapper_sees_the_messages_and_the_server_gets_the_same_body(
    scripted_server: ScriptedOpenAIServer, mode: str
) -> None:
    """A tool wrapping the client's ``request`` reads the body from the request options: all of it."""
    wrapper = OpenAIWrapper(**scripted_server.llm_config(temperature=0))
    scripted_server.add_replies("3", "3")
    owner = openai.OpenAI if mode == "sync" else openai.AsyncOpenAI

    def send() -> None:
        if mode == "sync":
            wrapper.create(messages=MESSAGES, tools=[TOOL])
        else:
            asyncio.run(wrapper.a_create(messages=MESSAGES, tools=[TOOL]))

    send()  # unwatched: past the walk
    with wrapped(owner, "request") as calls:
        send()  # watched: through create's arguments
    unwatched, watched = scripted_server.requests
    assert unwatched == watched
    assert (watched["messages"], watched["tools"], watched["temperature"]) == (MESSAGES, [TOOL], 0)
    (seen,) = calls
    options = seen.get("options") or seen["args"][1]  # request(cast_to, options, ...)
    assert (options.json_data["messages"], options.json_data["tools"]) == (MESSAGES, [TOOL])


def test_an_async_class_wrapper_installed_mid_run_sees_the_next_request(scripted_server: ScriptedOpenAIServer) -> None:
    wrapper = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_replies("one", "two")

    async def main() -> list[dict[str, Any]]:
        await wrapper.a_create(messages=MESSAGES)
        with wrapped(AsyncCompletions, "create") as calls:
            await wrapper.a_create(messages=MESSAGES)
        return calls

    (seen,) = asyncio.run(main())
    assert seen["messages"] == MESSAGES
    assert scripted_server.requests[0] == scripted_server.requests[1]


# ----------------------------------------------------------------- the SDK clients
def test_the_sync_sdk_client_is_built_on_the_first_sync_request(scripted_server: ScriptedOpenAIServer) -> None:
    wrapper = OpenAIWrapper(**scripted_server.llm_config())
    endpoint = _endpoint(wrapper)
    scripted_server.add_replies("async", "sync")
    response = asyncio.run(wrapper.a_create(messages=MESSAGES))
    assert wrapper.extract_text_or_completion_object(response) == ["async"]
    assert endpoint._sync_sdk is None  # an async-only endpoint never built one
    assert wrapper.extract_text_or_completion_object(wrapper.create(messages=MESSAGES)) == ["sync"]
    assert isinstance(endpoint._sync_sdk, openai.OpenAI)
    assert endpoint._client is endpoint._sync_sdk


def test_azure_settings_are_still_checked_by_the_sdk_when_the_agent_is_built() -> None:
    endpoint = OpenAIClient({"api_type": "azure", "model": "gpt-4o", "api_key": "k", "api_version": "2024-02-01",
                             "base_url": "https://example.openai.azure.com"})
    assert isinstance(endpoint._sync_sdk, openai.AzureOpenAI)


def test_the_key_shape_warning_is_given_without_building_a_client(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="autogen_classic.oai"):
        endpoint = OpenAIClient({"model": "gpt-4o", "api_key": "not a key", "base_url": "https://api.openai.com/v1"})
    assert "The API key specified is not a valid OpenAI format" in caplog.text
    assert endpoint._sync_sdk is None


def test_endpoints_with_equal_settings_share_one_async_sdk_client_per_loop(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.set_responder(lambda body: "ok")
    same = [OpenAIWrapper(**scripted_server.llm_config()) for _ in range(3)]
    other_key = OpenAIWrapper(config_list=[scripted_server.config_entry(api_key="sk-other")], cache_seed=None)
    headers = [OpenAIWrapper(config_list=[scripted_server.config_entry(default_headers={"X-Run": str(i)})],
                             cache_seed=None) for i in range(2)]

    async def main() -> list[Any]:
        wrappers = [*same, other_key, *headers]
        await asyncio.gather(*(w.a_create(messages=MESSAGES) for w in wrappers))
        loop = asyncio.get_running_loop()
        return [_endpoint(w)._async_clients[loop] for w in wrappers]

    first_loop = asyncio.run(main())
    assert first_loop[0] is first_loop[1] is first_loop[2]
    assert len({id(sdk) for sdk in first_loop}) == 4  # the three equal ones, the other key, two header sets
    assert [sdk.api_key for sdk in first_loop[2:4]] == ["sk-scripted-test", "sk-other"]
    second_loop = asyncio.run(main())
    assert second_loop[0] is not first_loop[0]  # a new loop, a new client on its own connection pool
    assert [r["messages"] for r in scripted_server.requests] == [MESSAGES] * 12
    assert {h["x-run"] for h in scripted_server.request_headers if "x-run" in h} == {"0", "1"}
