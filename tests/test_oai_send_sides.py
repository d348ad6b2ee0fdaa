"""An endpoint's sync and async sends run one send logic (``OpenAIClient._send_through``) on two sides."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import openai
import pytest

from autogen_classic.oai import OpenAIWrapper
from autogen_classic.oai.endpoint.openai_client import OpenAIClient
from autogen_classic.oai.endpoint.sdk_sides import ASYNC_SIDE, SYNC_SIDE, SdkSide, run_unsuspended
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

MESSAGES = [{"role": "user", "content": "Add 1 and 2."}]


@pytest.mark.parametrize("route", [{"sdk_fast_path": True}, {"sdk_fast_path": False}, {"stream": True}])
def test_create_and_a_create_send_through_the_one_logic_and_the_server_gets_the_same_body(
    scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch, route: dict[str, Any]
) -> None:
    sides: list[SdkSide] = []
    one_logic = OpenAIClient._send_through

    def recorded(self: OpenAIClient, params: dict[str, Any], sdk: Any, side: SdkSide) -> Any:
        sides.append(side)
        return one_logic(self, params, sdk, side)

    monkeypatch.setattr(OpenAIClient, "_send_through", recorded)
    wrapper = OpenAIWrapper(**scripted_server.llm_config(**route))
    scripted_server.add_replies("3", "3")
    sync = wrapper.create(messages=MESSAGES)
    async_ = asyncio.run(wrapper.a_create(messages=MESSAGES))
    assert sides == [SYNC_SIDE, ASYNC_SIDE]
    assert wrapper.extract_text_or_completion_object(sync) == wrapper.extract_text_or_completion_object(async_)
    assert ["3"] == wrapper.extract_text_or_completion_object(sync)
    first, second = scripted_server.requests
    assert first == second


def test_the_sync_side_runs_in_the_callers_thread_inside_a_running_loop(scripted_server: ScriptedOpenAIServer) -> None:
    wrapper = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply("sync")

    async def main() -> Any:
        return wrapper.create(messages=MESSAGES)  # a sync call made from a coroutine

    assert wrapper.extract_text_or_completion_object(asyncio.run(main())) == ["sync"]


def test_run_unsuspended_returns_raises_and_refuses_a_coroutine_that_suspends() -> None:
    async def answer() -> int:
        return await SYNC_SIDE.result_of(42)

    async def failing() -> None:
        await SYNC_SIDE.drain(iter([1, 2]), lambda chunk: 1 / 0)

    assert run_unsuspended(answer()) == 42
    with pytest.raises(ZeroDivisionError):
        run_unsuspended(failing())
    with pytest.raises(RuntimeError, match="suspended"):
        run_unsuspended(asyncio.sleep(0))


@pytest.mark.parametrize("refused", ["Invalid 'messages[0].name': string does not match pattern.", "Something else."])
def test_the_sync_and_async_request_wrappers_translate_the_same_errors(refused: str) -> None:
    def bad_request() -> openai.BadRequestError:
        response = httpx.Response(400, request=httpx.Request("POST", "http://test"))
        return openai.BadRequestError(refused, response=response, body={"error": {"message": refused}})

    def send(**params: Any) -> None:
        raise bad_request()

    async def a_send(**params: Any) -> None:
        raise bad_request()

    expected = openai.BadRequestError if refused == "Something else." else ValueError
    with pytest.raises(expected) as sync_info:
        OpenAIClient._handle_openai_bad_request_error(send)(messages=MESSAGES)
    with pytest.raises(expected) as async_info:
        asyncio.run(OpenAIClient._handle_openai_bad_request_error(a_send)(messages=MESSAGES))
    assert str(sync_info.value) == str(async_info.value)
    assert isinstance(sync_info.value.__cause__, openai.BadRequestError) == (expected is ValueError)
