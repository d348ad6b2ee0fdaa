"""The HTTP clients under the SDK: aiohttp for async requests, honest connection errors, closed with the loop."""

from __future__ import annotations

import asyncio
import gc
import os
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from typing import Any

import importlib

import openai
import pytest

from autogen_classic.oai import AllEndpointsFailedError, AllEndpointsTimedOutError, OpenAIWrapper
from autogen_classic.oai.endpoint.http_clients import ASYNC_HTTP_ENV
from autogen_classic.oai.endpoint.openai_client import OpenAIClient
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "hello"}]
TRANSPORTS = ["aiohttp", "httpx"]
# The SDK's HTTP library (httpx, or its successor package in newer SDKs).
httpx = importlib.import_module(openai.DefaultHttpxClient.__mro__[1].__module__.partition(".")[0])


def _entry(base_url: str, **extra: Any) -> dict[str, Any]:
    return {"model": "m1", "base_url": base_url, "api_key": "sk-test", "max_retries": 0, **extra}


@pytest.fixture
def hang_up_server() -> Iterator[str]:
    """A loopback server that accepts each connection, reads the request, and closes without answering."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    stop.set()
    thread.join(timeout=5)
    listener.close()


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each async test runs on aiohttp (the default) and on httpx (``AUTOGEN_CLASSIC_ASYNC_HTTP=httpx``)."""
    if request.param == "httpx":
        monkeypatch.setenv(ASYNC_HTTP_ENV, "httpx")
    else:
        monkeypatch.delenv(ASYNC_HTTP_ENV, raising=False)
    return str(request.param)


def _sdk_clients(wrapper: OpenAIWrapper) -> list[Any]:
    """The async SDK clients each endpoint holds (one per event loop it was used on)."""
    endpoints = [client for client in wrapper._clients if isinstance(client, OpenAIClient)]
    return [sdk for endpoint in endpoints for sdk in endpoint._async_clients.values()]


def test_async_requests_go_through_the_chosen_transport(scripted_server: ScriptedOpenAIServer, transport: str) -> None:
    wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url)], cache_seed=None)
    scripted_server.add_replies("first", "second")

    async def main() -> tuple[list[str], Any]:
        texts = []
        for _ in range(2):
            response = await wrapper.a_create(messages=USER)
            texts += wrapper.extract_text_or_completion_object(response)
        (sdk,) = _sdk_clients(wrapper)
        return texts, sdk._client

    texts, http_client = asyncio.run(main())
    assert texts == ["first", "second"]
    assert isinstance(http_client, openai.DefaultAioHttpClient) == (transport == "aiohttp")
    assert scripted_server.requests[0]["messages"] == USER
    assert scripted_server.request_headers[0]["authorization"] == "Bearer sk-test"
    # The loop has ended: its client was closed with it.
    assert http_client.is_closed


def test_sync_requests_stay_on_httpx(scripted_server: ScriptedOpenAIServer) -> None:
    wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url)], cache_seed=None)
    scripted_server.add_reply("sync answer")
    assert wrapper.extract_text_or_completion_object(wrapper.create(messages=USER)) == ["sync answer"]
    (endpoint,) = wrapper._clients
    assert isinstance(endpoint._client._client, httpx.Client)
    assert not isinstance(endpoint._client._client, openai.DefaultAioHttpClient)


def test_refused_connection_is_a_connection_failure_not_a_timeout(dead_base_url: str, transport: str) -> None:
    dead = dead_base_url
    wrapper = OpenAIWrapper(config_list=[_entry(dead)], cache_seed=None)
    with pytest.raises(AllEndpointsFailedError) as info:
        asyncio.run(wrapper.a_create(messages=USER))
    assert not isinstance(info.value, AllEndpointsTimedOutError)
    message = str(info.value)
    assert f"[0] m1 at {dead}: connection failed (" in message
    assert "timed out" not in message and "timeout" not in message
    assert isinstance(info.value.__cause__, openai.APIConnectionError)
    assert not isinstance(info.value.__cause__, openai.APITimeoutError)
    if transport == "aiohttp":
        assert "ConnectionRefusedError" in message


def test_refused_connection_is_retried_like_any_connection_failure(dead_base_url: str, transport: str) -> None:
    dead = dead_base_url
    wrapper = OpenAIWrapper(config_list=[_entry(dead, max_retries=1)], cache_seed=None)
    with pytest.raises(AllEndpointsFailedError) as info:
        asyncio.run(wrapper.a_create(messages=USER))
    assert f"[0] m1 at {dead}: connection failed after 1 retry (" in str(info.value)


def test_server_hanging_up_is_a_connection_failure(hang_up_server: str, transport: str) -> None:
    wrapper = OpenAIWrapper(config_list=[_entry(hang_up_server)], cache_seed=None)
    with pytest.raises(AllEndpointsFailedError) as info:
        asyncio.run(wrapper.a_create(messages=USER))
    assert not isinstance(info.value, AllEndpointsTimedOutError)
    assert f"[0] m1 at {hang_up_server}: connection failed (" in str(info.value)


def test_a_refused_endpoint_fails_over_to_the_next(
    scripted_server: ScriptedOpenAIServer, dead_base_url: str, transport: str
) -> None:
    entries = [_entry(dead_base_url), _entry(scripted_server.base_url, model="m2")]
    wrapper = OpenAIWrapper(config_list=entries, cache_seed=None)
    scripted_server.add_reply("from the second")
    response = asyncio.run(wrapper.a_create(messages=USER))
    assert wrapper.extract_text_or_completion_object(response) == ["from the second"]
    assert response.config_id == 1


def test_a_real_timeout_is_still_a_timeout(scripted_server: ScriptedOpenAIServer, transport: str) -> None:
    wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url, timeout=0.2)], cache_seed=None)
    scripted_server.add_reply(ScriptedReply(content="too late", delay=0.8))
    with pytest.raises(AllEndpointsTimedOutError) as info:
        asyncio.run(wrapper.a_create(messages=USER))
    assert f"[0] m1 at {scripted_server.base_url}: timed out" in str(info.value)
    assert isinstance(info.value, TimeoutError)


def test_a_bad_transport_choice_names_the_variable(scripted_server: ScriptedOpenAIServer,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ASYNC_HTTP_ENV, "curl")
    wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url)], cache_seed=None)
    with pytest.raises(ValueError, match=f"Invalid {ASYNC_HTTP_ENV}='curl': use 'aiohttp'.*or 'httpx'"):
        asyncio.run(wrapper.a_create(messages=USER))
    assert scripted_server.request_count == 0


def test_a_config_async_http_client_is_used_and_left_open(scripted_server: ScriptedOpenAIServer) -> None:
    async def main() -> tuple[list[str], list[str], Any]:
        own = openai.DefaultAsyncHttpxClient()
        wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url, http_client=own)], cache_seed=None)
        scripted_server.add_replies("through the caller's client", "sync side")
        response = await wrapper.a_create(messages=USER)
        (sdk,) = _sdk_clients(wrapper)
        assert sdk._client is own
        sync_texts = wrapper.extract_text_or_completion_object(wrapper.create(messages=USER))
        return wrapper.extract_text_or_completion_object(response), sync_texts, own

    loop = asyncio.new_event_loop()
    try:
        texts, sync_texts, own = loop.run_until_complete(main())
        loop.run_until_complete(loop.shutdown_asyncgens())  # what asyncio.run does last
        assert not own.is_closed  # the caller owns it
        loop.run_until_complete(own.aclose())
    finally:
        loop.close()
    assert texts == ["through the caller's client"] and sync_texts == ["sync side"]


def test_a_config_sync_http_client_serves_sync_requests_only(scripted_server: ScriptedOpenAIServer) -> None:
    own = openai.DefaultHttpxClient()
    wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url, http_client=own)], cache_seed=None)
    scripted_server.add_replies("sync", "async")
    assert wrapper.extract_text_or_completion_object(wrapper.create(messages=USER)) == ["sync"]
    (endpoint,) = wrapper._clients
    assert endpoint._client._client is own
    response = asyncio.run(wrapper.a_create(messages=USER))
    assert wrapper.extract_text_or_completion_object(response) == ["async"]
    own.close()


def test_each_event_loop_gets_its_own_client_and_each_is_closed(
    scripted_server: ScriptedOpenAIServer, transport: str
) -> None:
    wrapper = OpenAIWrapper(config_list=[_entry(scripted_server.base_url)], cache_seed=None)
    scripted_server.add_replies("loop one", "loop two")
    seen = []

    async def main() -> str:
        response = await wrapper.a_create(messages=USER)
        seen.extend(sdk._client for sdk in _sdk_clients(wrapper) if not sdk._client.is_closed)
        return wrapper.extract_text_or_completion_object(response)[0]

    assert [asyncio.run(main()), asyncio.run(main())] == ["loop one", "loop two"]
    assert len(seen) == 2 and seen[0] is not seen[1]
    assert all(client.is_closed for client in seen)


def test_agents_on_one_loop_share_one_connection_pool(scripted_server: ScriptedOpenAIServer, transport: str) -> None:
    scripted_server.set_responder(lambda body: "ok")

    async def main() -> list[Any]:
        wrappers = [
            OpenAIWrapper(config_list=[_entry(scripted_server.base_url, model=f"m{i}")], cache_seed=None)
            for i in range(5)
        ]
        await asyncio.gather(*(wrapper.a_create(messages=USER) for wrapper in wrappers))
        pools = {id(sdk._client): sdk._client for wrapper in wrappers for sdk in _sdk_clients(wrapper)}
        del wrappers
        gc.collect()
        (pool,) = pools.values()
        assert not pool.is_closed  # agents dropped mid-loop do not close the loop's pool
        return list(pools.values())

    (pool,) = asyncio.run(main())
    assert pool.is_closed
    assert scripted_server.request_count == 5


SCRIPT = textwrap.dedent(
    """
    import asyncio, gc, sys
    import autogen_classic as autogen
    from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

    with ScriptedOpenAIServer() as server:
        server.set_responder(lambda body: "ok TERMINATE")
        config = {"config_list": [server.config_entry(model="m1")], "cache_seed": None}

        async def chat(drop: bool) -> str:
            user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                          max_consecutive_auto_reply=0)
            assistant = autogen.AssistantAgent("assistant", llm_config=config)
            result = await user.a_initiate_chat(assistant, message="hi", max_turns=1)
            if drop:
                del user, assistant
                gc.collect()
            return result.summary

        async def main() -> None:
            print(await asyncio.gather(chat(False), chat(True)))

        asyncio.run(main())
        asyncio.run(main())
    """
)


@pytest.mark.parametrize("transport_name", TRANSPORTS)
def test_a_script_ends_without_unclosed_client_warnings(transport_name: str, tmp_path: Any) -> None:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != ASYNC_HTTP_ENV}
    if transport_name == "httpx":
        env[ASYNC_HTTP_ENV] = "httpx"
    done = subprocess.run([sys.executable, "-W", "always::ResourceWarning", str(script)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("['ok ', 'ok ']") == 2
    assert "nclosed" not in done.stderr and "ResourceWarning" not in done.stderr, done.stderr


def test_a_typed_entry_takes_the_http_client_of_the_installed_sdk() -> None:
    # The SDK's own client class (httpx's or its successor's): no separate httpx install is needed.
    from autogen_classic.oai import OpenAILLMConfigEntry

    client = openai.DefaultHttpxClient()
    entry = OpenAILLMConfigEntry(model="gpt-4o-mini", api_key="sk-test", http_client=client)
    assert entry.http_client is client
    with pytest.raises(ValueError, match="http_client"):
        OpenAILLMConfigEntry(model="gpt-4o-mini", api_key="sk-test", http_client=object())
    client.close()
