"""The sync and async faces of a twin API run one shared body, so they cannot drift apart."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from autogen_classic import ConversableAgent, OpenAIWrapper
from autogen_classic.agentchat.conversable import builtin_replies
from autogen_classic.tools import execution

USER = [{"role": "user", "content": "hi"}]


class _FlakyClient:
    """A custom client whose first entry fails and whose second answers."""

    def __init__(self, config: dict) -> None:
        self.model = config["model"]

    def create(self, params: dict) -> SimpleNamespace:
        if self.model == "broken":
            raise OSError("connection refused")
        message = SimpleNamespace(content=f"from {self.model}", tool_calls=None, function_call=None)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)], model=self.model)

    def message_retrieval(self, response: SimpleNamespace) -> list[str]:
        return [c.message.content for c in response.choices]

    def cost(self, response: SimpleNamespace) -> float:
        return 0.0

    @staticmethod
    def get_usage(response: SimpleNamespace) -> dict:
        return {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2, "cost": 0.0, "model": response.model}


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[str]:
    calls: list[str] = []
    body = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return body(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_create_and_a_create_share_the_failover_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, OpenAIWrapper, "_failover")
    entries = [{"model": m, "model_client_cls": "_FlakyClient"} for m in ("broken", "good")]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)
    client.register_model_client(_FlakyClient)
    client.register_model_client(_FlakyClient)
    sync = client.create(messages=USER)
    async_ = asyncio.run(client.a_create(messages=USER))
    assert calls == ["_failover", "_failover"]
    for response in (sync, async_):
        assert client.extract_text_or_completion_object(response) == ["from good"]
        assert response.config_id == 1


def test_execute_function_faces_share_one_body(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, execution, "_execution")

    async def a_add(a: int, b: int) -> int:
        return a + b

    async def a_boom() -> None:
        raise ValueError("no")

    functions = {"add": a_add, "boom": a_boom}
    for call in ({"name": "add", "arguments": '{"a": 1, "b": 2}'}, {"name": "boom", "arguments": "{}"}):
        sync = execution.execute_function(functions, call)
        async_ = asyncio.run(execution.a_execute_function(functions, call))
        assert sync == async_
    assert calls == ["_execution"] * 4
    assert sync == (False, {"name": "boom", "role": "function", "content": "Error: no"})


def test_generate_oai_reply_faces_share_one_body(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, builtin_replies, "_oai_reply")
    config = {"config_list": [{"model": "good", "model_client_cls": "_FlakyClient"}], "cache_seed": None}
    agent = ConversableAgent("a", llm_config=config)
    agent.client.register_model_client(_FlakyClient)
    assert agent.generate_oai_reply(messages=USER) == (True, "from good")
    assert asyncio.run(agent.a_generate_oai_reply(messages=USER)) == (True, "from good")
    assert calls == ["_oai_reply", "_oai_reply"]
