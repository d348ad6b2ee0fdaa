"""Agents, tools and configuration used the way AG2 Classic 0.14's user guide uses them.

Each scenario was run on this package and on ``autogen==0.14.1`` against the same scripted model; the
values asserted here are the ones both print or return (the console text is compared without the two
events 0.14.1 also prints on the console, ``TERMINATING RUN`` and ``EXECUTED FUNCTION``, which this
package sends to runs only: see docs/migrating.md). The model is the scripted OpenAI-compatible server.
No ``from __future__ import annotations`` here, as in the guide: 0.14.1 reads ``Annotated`` descriptions and
``Depends`` only from evaluated annotations (this package resolves string annotations too).
"""

import json
from typing import Annotated, Any, Callable, Optional

import pytest
from pydantic import BaseModel

import autogen_classic as autogen
from autogen_classic import ConversableAgent, LLMConfig, register_function
from autogen_classic.events.agent_events import TerminationEvent, TextEvent, ToolCallEvent
from autogen_classic.events.base_event import BaseEvent, resolve_print_callable, wrap_event
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply
from autogen_classic.tools import tool
from autogen_classic.tools.dependency_injection import BaseContext, Depends


def _config(server: ScriptedOpenAIServer, **options: Any) -> LLMConfig:
    """An ``LLMConfig`` of one endpoint on the scripted server, built the 0.14 way (a positional dict)."""
    entry = {"api_type": "openai", "model": "gpt-4o-mini", "api_key": API_KEY, "base_url": server.base_url}
    return LLMConfig(entry, cache_seed=None, **options)


# ---------------------------------------------------------------- configuration


def test_where_filters_entries_by_tag_or_model_and_says_when_nothing_is_left() -> None:
    config = LLMConfig(
        {"api_type": "openai", "model": "cloud-model", "api_key": "k", "tags": ["hosted", "openai"]},
        {"api_type": "openai", "model": "small-local", "base_url": "http://127.0.0.1:9", "tags": ["local"]},
    )
    assert [e.model for e in config.where(tags="local").config_list] == ["small-local"]
    assert [e.model for e in config.where(tags=["local", "absent"]).config_list] == ["small-local"]
    assert [e.model for e in config.where(model=["cloud-model", "small-local"]).config_list] == [
        "cloud-model", "small-local"]
    with pytest.raises(ValueError, match=r"No config found that satisfies the filter criteria: \{'model': 'none'\}"):
        config.where(model="none")


def test_from_json_reads_the_environment_keeps_options_through_where(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEAM_MODELS", json.dumps([{"model": "first", "api_key": "k"}, {"model": "second", "api_key": "k"}]))
    config = LLMConfig.from_json(env="TEAM_MODELS", temperature=0.3).where(model="second")
    assert [e.model for e in config.config_list] == ["second"]
    assert config.temperature == 0.3


def test_an_sdk_http_client_is_not_an_llm_config_keyword() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'http_client'"):
        LLMConfig({"model": "m", "api_key": "k"}, http_client=object())


# ---------------------------------------------------------------- two-agent chats and tools


def test_register_function_between_a_caller_and_an_executor(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "weekday_of", "arguments": {"day": "2024-02-29"}, "id": "call_w1"}]),
        "That was a Thursday.",
    )

    def weekday_of(day: Annotated[str, "an ISO date"]) -> str:
        from datetime import date

        return date.fromisoformat(day).strftime("%A")

    planner = ConversableAgent("planner", system_message="You tell weekdays.", llm_config=_config(scripted_server))
    runner = ConversableAgent("runner", human_input_mode="NEVER")
    register_function(weekday_of, caller=planner, executor=runner, description="The weekday of a date")

    result = runner.initiate_chat(planner, message="Which weekday was 29 February 2024?", max_turns=2)

    assert result.chat_history[-1]["content"] == "That was a Thursday."
    tool_turn = result.chat_history[2]
    assert tool_turn["tool_responses"] == [{"tool_call_id": "call_w1", "role": "tool", "content": "Thursday"}]
    sent = scripted_server.requests[0]["tools"][0]["function"]
    assert sent["name"] == "weekday_of" and sent["description"] == "The weekday of a date"
    assert sent["parameters"]["properties"] == {"day": {"type": "string", "description": "an ISO date"}}
    text = "".join(console.chunks)
    assert "***** Suggested tool call (call_w1): weekday_of *****" in text
    assert ">>>>>>>> EXECUTING FUNCTION weekday_of...\nCall ID: call_w1\nInput arguments: {'day': '2024-02-29'}" in text
    assert "***** Response from calling tool (call_w1) *****\nThursday\n" in text


class _Login(BaseContext, BaseModel):
    username: str
    password: str


_METEO_ACCOUNT = _Login(username="meteo-user", password="s3cret")


def test_depends_keeps_credentials_out_of_the_schema_and_hands_them_to_the_tool(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "forecast", "arguments": {"city": "Oslo"}, "id": "call_f1"}]),
        "Cold.",
    )
    seen: list[str] = []
    forecaster = ConversableAgent("forecaster", llm_config=_config(scripted_server))
    operator = ConversableAgent("operator", human_input_mode="NEVER", llm_config=False)

    @operator.register_for_execution()
    @forecaster.register_for_llm(description="Weather for a city")
    def forecast(city: str, login: Annotated[_Login, Depends(_METEO_ACCOUNT)]) -> str:
        seen.append(login.username)
        return f"{city}: -3 C"

    operator.initiate_chat(forecaster, message="Weather in Oslo?", max_turns=2)

    parameters = scripted_server.requests[0]["tools"][0]["function"]["parameters"]
    assert parameters["properties"] == {"city": {"type": "string", "description": "city"}}
    assert parameters["required"] == ["city"]
    assert seen == ["meteo-user"]
    tool_message = scripted_server.requests[1]["messages"][-1]
    assert tool_message == {"tool_call_id": "call_f1", "role": "tool", "content": "Oslo: -3 C"}
    assert "s3cret" not in json.dumps(scripted_server.requests)


def test_human_always_prompted_an_empty_answer_auto_replies_and_exit_ends(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    console = ScriptedIOStream(["", "exit"])
    scripted_server.add_replies("Plan: planets.", "Plan: moons.")
    teacher = ConversableAgent("teacher", llm_config=_config(scripted_server))
    person = ConversableAgent("person", human_input_mode="ALWAYS")
    with IOStream.set_default(console):
        result = person.initiate_chat(teacher, message="A lesson on space, please.")
    prompt = ("Replying as person. Provide feedback to teacher. Press enter to skip and use auto-reply, "
              "or type 'exit' to end the conversation: ")
    assert console.prompts == [prompt, prompt]
    assert "".join(console.chunks).count(">>>>>>>> NO HUMAN INPUT RECEIVED.") == 1
    assert [m["content"] for m in result.chat_history] == ["A lesson on space, please.", "Plan: planets.", "",
                                                            "Plan: moons."]
    assert result.human_input == ["", "exit"]


def test_sequential_chats_carry_each_summary_into_the_next_first_message(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies("Topic: volcanoes.", "Outline about volcanoes.", "<title>Volcanoes</title>")
    config = _config(scripted_server)
    lead = ConversableAgent("lead", llm_config=config)
    picker = ConversableAgent("picker", llm_config=config)
    writer = ConversableAgent("writer", llm_config=config)
    styler = ConversableAgent("styler", llm_config=config)
    results = lead.initiate_chats([
        {"recipient": picker, "message": "Pick a topic.", "max_turns": 1, "summary_method": "last_msg"},
        {"recipient": writer, "message": "Outline it.", "max_turns": 1, "summary_method": "last_msg"},
        {"recipient": styler, "message": "Format it.", "max_turns": 1, "summary_method": "last_msg"},
    ])
    assert [r.summary for r in results] == ["Topic: volcanoes.", "Outline about volcanoes.", "<title>Volcanoes</title>"]
    second_opening = scripted_server.requests[1]["messages"][-1]["content"]
    assert second_opening == "Outline it.\nContext: \nTopic: volcanoes."
    third_opening = scripted_server.requests[2]["messages"][-1]["content"]
    assert third_opening == "Format it.\nContext: \nTopic: volcanoes.\nOutline about volcanoes."


def test_nested_chats_with_a_callable_first_message_answer_for_the_agent(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies("Standards: A, B.", "Formatted plan.")
    config = _config(scripted_server)
    standards = ConversableAgent("standards", llm_config=config)
    formatter = ConversableAgent("formatter", llm_config=config)
    lead = ConversableAgent("lead", llm_config=config)
    person = ConversableAgent("person", human_input_mode="NEVER", llm_config=False)
    opening: Callable[..., str] = lambda recipient, messages, sender, config: f"Standards for: {messages[-1]['content']}"
    lead.register_nested_chats(
        chat_queue=[
            {"recipient": standards, "message": opening, "max_turns": 1, "summary_method": "last_msg"},
            {"recipient": formatter, "message": "Format it.", "max_turns": 1, "summary_method": "last_msg"},
        ],
        trigger=lambda sender: sender not in [standards, formatter],
    )
    result = person.initiate_chat(lead, message="fractions", max_turns=1)
    assert result.summary == "Formatted plan."
    assert scripted_server.requests[0]["messages"][-1]["content"] == "Standards for: fractions"
    assert scripted_server.requests[1]["messages"][-1]["content"] == "Format it.\nContext: \nStandards: A, B."


class _Plan(BaseModel):
    title: str
    steps: list[str]


def test_a_pydantic_response_format_is_sent_as_a_json_schema_and_read_back(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_reply(json.dumps({"title": "Planets", "steps": ["Sun", "Earth"]}))
    agent = ConversableAgent("planner", llm_config=_config(scripted_server, response_format=_Plan))
    response = agent.run(message="Plan a lesson.", max_turns=1, user_input=False)
    response.process()
    assert json.loads(response.messages[-1]["content"]) == {"title": "Planets", "steps": ["Sun", "Earth"]}
    sent = scripted_server.requests[0]["response_format"]
    assert sent["type"] == "json_schema" and sent["json_schema"]["name"] == "_Plan"
    assert sent["json_schema"]["schema"]["required"] == ["title", "steps"]


# ---------------------------------------------------------------- iterating a run


def test_run_iter_yields_only_the_requested_events_in_order(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("first answer", "second answer")
    helper = ConversableAgent("Helper", system_message="Be brief.", llm_config=_config(scripted_server))
    seen = []
    for event in helper.run_iter(message="Hello", max_turns=2, yield_on=[TextEvent, TerminationEvent]):
        assert isinstance(event, (TextEvent, TerminationEvent))
        seen.append((event.type, getattr(event.content, "sender", None), getattr(event.content, "content", None)))
    assert seen[:4] == [("text", "user", "Hello"), ("text", "Helper", "first answer"), ("text", "user", ""),
                        ("text", "Helper", "second answer")]
    assert seen[4][0] == "termination" and len(seen) == 5


def test_leaving_run_iter_at_a_tool_call_keeps_the_tool_from_running(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"name": "wipe", "arguments": {"path": "conf.ini"}}]))
    wiped: list[str] = []

    @tool(description="Delete a file")
    def wipe(path: str) -> str:
        wiped.append(path)
        return "gone"

    helper = ConversableAgent("Helper", llm_config=_config(scripted_server))
    names = []
    for event in helper.run_iter(message="Remove the config", tools=[wipe], max_turns=2):
        if isinstance(event, ToolCallEvent):
            names = [call.function.name for call in event.content.tool_calls]
            break
    assert names == ["wipe"]
    assert wiped == []
    assert scripted_server.request_count == 1


@wrap_event
class StageReachedEvent(BaseEvent):
    """A stage of a tool's work, sent while the tool runs."""

    stage: str
    passed: bool

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        f = resolve_print_callable(f)
        f(f"[stage] {self.stage}: {'ok' if self.passed else 'failed'}", flush=True)


def test_an_event_sent_from_inside_a_tool_reaches_run_iter(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "ingest", "arguments": {"rows": 0}}]),
        "Ingestion failed at validation.",
    )

    @tool(description="Ingest rows")
    def ingest(rows: int) -> str:
        IOStream.get_default().send(StageReachedEvent(stage="read", passed=True))
        IOStream.get_default().send(StageReachedEvent(stage="validate", passed=rows > 0))
        return f"{rows} rows"

    helper = ConversableAgent("Helper", llm_config=_config(scripted_server))
    stages = []
    for event in helper.run_iter(message="Ingest", tools=[ingest], max_turns=2, yield_on=[StageReachedEvent]):
        assert event.type == "stage_reached"
        stages.append((event.content.stage, event.content.passed))
    assert stages == [("read", True), ("validate", False)]


def test_the_default_summary_prompt_is_the_classic_one() -> None:
    assert autogen.ConversableAgent.DEFAULT_SUMMARY_PROMPT == (
        "Summarize the takeaway from the conversation. Do not add any introductory phrases."
    )
