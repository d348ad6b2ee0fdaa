"""SocietyOfMindAgent: every reply is thought out by an inner group chat, then prepared into one answer."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.contrib.society_of_mind_agent import SocietyOfMindAgent
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from console_masks import mask_run_ids

SEP = "-" * 80
INTRO = (
    "Earlier you were asked to fulfill a request. You and your team worked diligently to address that request. "
    "Here is a transcript of that conversation:"
)
DEFAULT_PROMPT = (
    "Output a standalone response to the original request, without mentioning any of the intermediate discussion."
)


def _society(
    server: ScriptedOpenAIServer, som_llm: bool = True, max_round: int = 3, **kwargs: Any
) -> tuple[autogen.AssistantAgent, autogen.AssistantAgent, autogen.GroupChat, autogen.GroupChatManager,
           SocietyOfMindAgent]:
    """Two model-backed inner agents taking turns, their manager and the society around them."""
    config = server.llm_config()
    first = autogen.AssistantAgent("inner_a", llm_config=config, system_message="You are A.")
    second = autogen.AssistantAgent("inner_b", llm_config=config, system_message="You are B.")
    groupchat = autogen.GroupChat([first, second], messages=[], speaker_selection_method="round_robin",
                                  max_round=max_round)
    manager = autogen.GroupChatManager(groupchat, llm_config=config)
    society = SocietyOfMindAgent("society", chat_manager=manager, llm_config=config if som_llm else False, **kwargs)
    return first, second, groupchat, manager, society


def _user(**kwargs: Any) -> autogen.UserProxyAgent:
    kwargs.setdefault("is_termination_msg", lambda message: True)
    return autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, **kwargs)


# ----------------------------------------------------------------- the classic usage
def test_classic_script_code_team_answers_through_the_society(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream, tmp_path: Any
) -> None:
    # The classic notebook: an assistant and a code-running user proxy think; the society answers.
    config = scripted_server.llm_config()
    assistant = autogen.AssistantAgent("inner-assistant", llm_config=config, is_termination_msg=lambda x: False)
    code_interpreter = autogen.UserProxyAgent(
        "inner-code-interpreter", human_input_mode="NEVER", default_auto_reply="",
        code_execution_config={"work_dir": str(tmp_path), "use_docker": False},
        is_termination_msg=lambda x: False,
    )
    groupchat = autogen.GroupChat(agents=[assistant, code_interpreter], messages=[],
                                  speaker_selection_method="round_robin", allow_repeat_speaker=False, max_round=12)
    manager = autogen.GroupChatManager(
        groupchat=groupchat, is_termination_msg=lambda x: x.get("content", "").find("TERMINATE") >= 0,
        llm_config=config,
    )
    society = SocietyOfMindAgent("society_of_mind", chat_manager=manager, llm_config=config)
    user_proxy = autogen.UserProxyAgent("user_proxy", human_input_mode="NEVER", code_execution_config=False,
                                        default_auto_reply="", is_termination_msg=lambda x: True)
    scripted_server.add_replies("```python\nprint(6 * 7)\n```", "The answer is 42.\nTERMINATE", "42")

    result = user_proxy.initiate_chat(society, message="What is 6 times 7?")

    assert result.chat_history == [
        {"content": "What is 6 times 7?", "role": "assistant", "name": "user_proxy"},
        {"content": "42", "role": "user", "name": "society_of_mind"},
    ]
    assert result.summary == "42"
    # The code really ran inside the society, and the response was prepared from the whole transcript.
    assert groupchat.messages[2]["content"] == "exitcode: 0 (execution succeeded)\nCode output: \n42\n"
    preparer_request = scripted_server.requests[-1]["messages"]
    assert preparer_request[0] == {"role": "system", "content": INTRO}
    assert preparer_request[-1] == {"role": "system", "content": DEFAULT_PROMPT}
    assert [(m["name"], m["role"]) for m in preparer_request[1:-1]] == [
        ("society_of_mind", "user"), ("inner-assistant", "user"), ("inner-code-interpreter", "user"),
        ("inner-assistant", "user"),
    ]
    assert "society_of_mind (to chat_manager):" in console.output
    assert "Next speaker: inner-code-interpreter" in console.output


def test_console_output_and_history_without_a_model(console: ScriptedIOStream) -> None:
    writer = autogen.ConversableAgent("writer", llm_config=False, human_input_mode="NEVER",
                                      default_auto_reply="Draft: 2 + 2 = 4")
    critic = autogen.ConversableAgent("critic", llm_config=False, human_input_mode="NEVER",
                                      default_auto_reply="Correct.\nTERMINATE")
    groupchat = autogen.GroupChat([writer, critic], messages=[], speaker_selection_method="round_robin", max_round=3)
    society = SocietyOfMindAgent("society", chat_manager=autogen.GroupChatManager(groupchat, llm_config=False))

    result = _user().initiate_chat(society, message="What is 2 + 2?")

    # Without a model the answer is the last inner message with "TERMINATE" cut out (as printed by ag2 0.7.3).
    # With AG2 Classic 0.14.1's TERMINATING RUN line where each chat ends (the inner one and the outer one).
    assert mask_run_ids(console.output) == (
        f"user (to society):\n\nWhat is 2 + 2?\n\n{SEP}\n\n>>>>>>>> USING AUTO REPLY...\n"
        f"society (to chat_manager):\n\nWhat is 2 + 2?\n\n{SEP}\n\nNext speaker: writer\n\n"
        f"writer (to chat_manager):\n\nDraft: 2 + 2 = 4\n\n{SEP}\n\nNext speaker: critic\n\n"
        f"critic (to chat_manager):\n\nCorrect.\nTERMINATE\n\n{SEP}\n"
        "\n>>>>>>>> TERMINATING RUN (ID): Maximum rounds (3) reached\n"
        f"society (to user):\n\nCorrect.\n\n{SEP}\n"
        "\n>>>>>>>> TERMINATING RUN (ID): Termination message condition on agent 'user' met\n"
    )
    assert result.chat_history[-1] == {"content": "Correct.", "role": "user", "name": "society"}
    assert result.cost == {"usage_including_cached_inference": {"total_cost": 0},
                           "usage_excluding_cached_inference": {"total_cost": 0}}


def test_defaults_and_reply_functions(scripted_server: ScriptedOpenAIServer) -> None:
    *_, manager, society = _society(scripted_server, som_llm=False)
    assert society.chat_manager is manager
    assert society.system_message == ""
    assert society.human_input_mode == "TERMINATE"
    assert society.llm_config is False and society.client is None
    assert society.max_consecutive_auto_reply() == 100
    # In sync chats: termination / human input, legacy function calls, code, then the inner monologue.
    sync_names = [e["reply_func"].__name__ for e in society._reply_func_list
                  if not e["reply_func"].__name__.startswith("a_")]
    assert sync_names == ["check_termination_and_human_reply", "generate_function_call_reply",
                          "generate_code_execution_reply", "generate_inner_monologue_reply"]


# ----------------------------------------------------------------- every request runs the inner chat
def test_each_request_reruns_the_inner_chat_with_the_conversation_so_far(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    first, second, groupchat, manager, society = _society(scripted_server)
    user = _user(is_termination_msg=None, max_consecutive_auto_reply=1, default_auto_reply="Second question please")
    scripted_server.add_replies("A1", "TERMINATE", "Prepared one", "A2", "B2\nTERMINATE", "Prepared two")

    result = user.initiate_chat(society, message="Q1")

    assert [m["content"] for m in result.chat_history] == ["Q1", "Prepared one", "Second question please",
                                                           "Prepared two"]
    requests = [r["messages"] for r in scripted_server.requests]
    assert len(requests) == 6  # two inner replies and one preparation per request
    # The second inner chat starts from the earlier conversation, each message naming its author.
    assert requests[3] == [
        {"content": "You are A.", "role": "system"},
        {"content": "Q1", "name": "user", "role": "user"},
        {"content": "Prepared one", "name": "society", "role": "user"},
        {"content": "Second question please", "name": "society", "role": "user"},
    ]
    # The group chat (and so the prepared response) holds only the latest inner chat.
    assert [m["content"] for m in groupchat.messages] == ["Second question please", "A2", "B2\nTERMINATE"]
    assert requests[5] == [
        {"role": "system", "content": INTRO},
        {"content": "Second question please", "name": "society", "role": "user"},
        {"content": "A2", "role": "user", "name": "inner_a"},
        {"content": "B2\nTERMINATE", "role": "user", "name": "inner_b"},
        {"role": "system", "content": DEFAULT_PROMPT},
    ]
    assert manager.chat_messages[society] == [{"content": "Second question please", "role": "user",
                                               "name": "society"}]
    assert first._consecutive_auto_reply_counter[manager] == 1


def test_calls_and_results_reach_the_preparer_as_plain_text(scripted_server: ScriptedOpenAIServer) -> None:
    config = scripted_server.llm_config()
    caller = autogen.AssistantAgent("caller", llm_config=config)
    executor = autogen.UserProxyAgent("executor", human_input_mode="NEVER", code_execution_config=False,
                                      default_auto_reply="")

    def add(x: int, y: int) -> int:
        return x + y

    autogen.register_function(add, caller=caller, executor=executor, description="Add two numbers.")
    groupchat = autogen.GroupChat([caller, executor], messages=[], speaker_selection_method="round_robin",
                                  max_round=4)
    manager = autogen.GroupChatManager(groupchat, llm_config=config, silent=True,
                                       is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    society = SocietyOfMindAgent("society", chat_manager=manager, llm_config=config)
    scripted_server.add_replies(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"x": 1, "y": 2}}]),
                                "The sum is 3. TERMINATE", "3")

    reply = society.generate_reply([{"role": "user", "content": "add 1 and 2", "name": "asker"}])

    assert reply == "3"
    transcript = scripted_server.requests[-1]["messages"][1:-1]
    assert transcript == [
        {"content": "add 1 and 2", "name": "society", "role": "user"},
        {"content": "None", "role": "user", "name": "caller"},
        {"content": "3", "role": "user", "name": "executor"},
        {"content": "The sum is 3. TERMINATE", "role": "user", "name": "caller"},
    ]


# ----------------------------------------------------------------- preparing the response
@pytest.mark.parametrize(
    ("last", "answer"),
    [("B final\nTERMINATE", "B final"), ("TERMINATE", ""), ("  x TERMINATE  ", "x"), ("answer TERMINATE.", "answer .")],
)
def test_without_a_model_the_answer_is_the_last_inner_message(
    scripted_server: ScriptedOpenAIServer, last: str, answer: str
) -> None:
    *_, society = _society(scripted_server, som_llm=False)
    scripted_server.add_replies("A1", last)
    assert society.generate_reply([{"role": "user", "content": "Q1", "name": "u"}]) == answer
    assert scripted_server.request_count == 2  # the inner agents only: the society has no model


def test_a_prompt_preparer_is_sent_as_given(scripted_server: ScriptedOpenAIServer) -> None:
    *_, society = _society(scripted_server, response_preparer="Summarize please.")
    scripted_server.add_replies("A1", "TERMINATE", "  Answer TERMINATE ")
    # The model's answer is the reply as is: "TERMINATE" is only cut without a model.
    assert society.generate_reply([{"role": "user", "content": "Q1", "name": "u"}]) == "  Answer TERMINATE "
    assert scripted_server.requests[-1]["messages"][-1] == {"role": "system", "content": "Summarize please."}


def test_a_callable_preparer_gets_the_agent_and_the_inner_messages(scripted_server: ScriptedOpenAIServer) -> None:
    seen: list[tuple[str, list[str]]] = []

    def prepare(agent: SocietyOfMindAgent, messages: list[dict[str, Any]]) -> dict[str, Any]:
        seen.append((agent.name, [m["content"] for m in messages]))
        return {"content": f"{len(messages)} messages"}

    *_, society = _society(scripted_server, response_preparer=prepare)
    scripted_server.add_replies("A1", "TERMINATE")
    assert society.generate_reply([{"role": "user", "content": "Q1", "name": "u"}]) == {"content": "3 messages"}
    assert seen == [("society", ["Q1", "A1", "TERMINATE"])]
    assert scripted_server.request_count == 2  # no model call for the preparation


def test_the_chat_cache_serves_the_preparation_and_the_agents_own_cache_comes_back(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    *_, society = _society(scripted_server)
    own_cache = autogen.Cache.in_memory(cache_seed="own")
    society.client_cache = own_cache
    with autogen.Cache.in_memory(cache_seed="chat") as chat_cache:
        scripted_server.add_replies("A1", "TERMINATE", "prepared", "A1", "TERMINATE")
        first = _user().initiate_chat(society, message="Q", cache=chat_cache, silent=True)
        second = _user().initiate_chat(society, message="Q", cache=chat_cache, silent=True)
    assert first.summary == second.summary == "prepared"
    # Inside a `with Cache...:` block every chat without cache= uses the block's cache (autogen 0.14.1; ag2 0.7.3
    # made 5 requests): the second run's inner chat and its preparation both come from the cache.
    assert scripted_server.request_count == 3
    # The inner chat lends caches too; the society's own cache is back after the outer chat.
    assert society.client_cache is own_cache and society.previous_cache is None


def test_a_failing_inner_chat_is_logged_and_the_answer_prepared_from_what_it_has(
    scripted_server: ScriptedOpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    *_, groupchat, _, society = _society(scripted_server, som_llm=False)
    scripted_server.add_replies(ScriptedReply(status=400, error_message="bad request here"))
    with caplog.at_level(logging.ERROR, logger="autogen_classic.agentchat.contrib.society_of_mind_agent"):
        reply = society.generate_reply([{"role": "user", "content": "Q", "name": "u"}])
    assert reply == "Q"  # as in the classic package: only the opening message made it into the chat
    record = next(r for r in caplog.records if "inner group chat" in r.getMessage())
    assert "SocietyOfMindAgent 'society' failed" in record.getMessage() and record.exc_info is not None


# ----------------------------------------------------------------- async
def test_async_chat_runs_the_inner_chat_with_the_async_api(scripted_server: ScriptedOpenAIServer) -> None:
    first, _, groupchat, _, society = _society(scripted_server)
    awaited: list[str] = []

    async def note(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, None]:
        awaited.append(recipient.name)
        return False, None

    # An async-only reply function: a sync inner chat would refuse to run, so it runs only in an async one.
    first.register_reply([autogen.Agent, None], note)

    async def prepare(agent: SocietyOfMindAgent, messages: list[dict[str, Any]]) -> str:
        await asyncio.sleep(0)
        return f"async answer after {len(messages)} messages"

    society.response_preparer = prepare
    scripted_server.add_replies("A1", "TERMINATE")
    result = asyncio.run(_user().a_initiate_chat(society, message="Q"))

    assert result.chat_history[-1] == {"content": "async answer after 3 messages", "role": "user", "name": "society"}
    assert awaited == ["inner_a"]
    assert [m["content"] for m in groupchat.messages] == ["Q", "A1", "TERMINATE"]


def test_async_and_sync_chats_send_the_same_requests(scripted_server: ScriptedOpenAIServer) -> None:
    *_, society = _society(scripted_server)
    scripted_server.add_replies("A1", "TERMINATE", "final")
    sync_result = _user().initiate_chat(society, message="Q", silent=True)
    sync_requests = [r["messages"] for r in scripted_server.requests]

    scripted_server.reset()
    *_, society = _society(scripted_server)
    scripted_server.add_replies("A1", "TERMINATE", "final")
    async_result = asyncio.run(_user().a_initiate_chat(society, message="Q", silent=True))

    assert [r["messages"] for r in scripted_server.requests] == sync_requests
    assert async_result.chat_history == sync_result.chat_history
    assert async_result.cost == sync_result.cost


# ----------------------------------------------------------------- cost
def _priced_society(server: ScriptedOpenAIServer) -> tuple[Any, ...]:
    config = {"config_list": [server.config_entry(price=[1.0, 2.0])], "cache_seed": None}
    first = autogen.AssistantAgent("inner_a", llm_config=config)
    second = autogen.AssistantAgent("inner_b", llm_config=config)
    groupchat = autogen.GroupChat([first, second], messages=[], speaker_selection_method="round_robin", max_round=3)
    manager = autogen.GroupChatManager(groupchat, llm_config=config, silent=True)
    society = SocietyOfMindAgent("society", chat_manager=manager, llm_config=config)
    return first, second, manager, society


def _usage(prompt: int, completion: int, text: str) -> ScriptedReply:
    return ScriptedReply(content=text, usage={"prompt_tokens": prompt, "completion_tokens": completion})


def test_chat_cost_counts_the_inner_agents_once(scripted_server: ScriptedOpenAIServer) -> None:
    first, second, manager, society = _priced_society(scripted_server)
    user = _user()
    # inner_a 100+10, inner_b 200+20, the preparation 1000+100 tokens; price (1, 2) USD per 1K tokens.
    scripted_server.add_replies(_usage(100, 10, "A1"), _usage(200, 20, "TERMINATE"), _usage(1000, 100, "answer"))

    result = user.initiate_chat(society, message="Q", silent=True)

    expected_model = {"cost": pytest.approx(1.56), "prompt_tokens": 1300, "completion_tokens": 130,
                      "total_tokens": 1430}
    for key in ("usage_including_cached_inference", "usage_excluding_cached_inference"):
        assert result.cost[key]["total_cost"] == pytest.approx(1.56)
        assert result.cost[key]["scripted-model"] == expected_model
    # Gathering over every agent, inner ones included, counts each model call once.
    assert autogen.gather_usage_summary([user, society, manager, first, second]) == result.cost
    assert society.get_total_usage() == result.cost["usage_including_cached_inference"]
    assert society.get_actual_usage() == result.cost["usage_excluding_cached_inference"]
    # The inner agents keep their own usage too.
    assert first.get_total_usage()["scripted-model"]["prompt_tokens"] == 100


def test_inner_usage_adds_up_over_requests(scripted_server: ScriptedOpenAIServer) -> None:
    first, second, manager, society = _priced_society(scripted_server)
    scripted_server.add_replies(_usage(1, 1, "A1"), _usage(2, 2, "TERMINATE"), _usage(10, 10, "one"),
                                _usage(1, 1, "A2"), _usage(2, 2, "TERMINATE"), _usage(10, 10, "two"))
    user = _user(is_termination_msg=None, max_consecutive_auto_reply=1, default_auto_reply="again")

    result = user.initiate_chat(society, message="Q", silent=True)

    assert [m["content"] for m in result.chat_history] == ["Q", "one", "again", "two"]
    # Each request resets the inner agents' conversations, not their usage.
    assert result.cost["usage_including_cached_inference"]["scripted-model"]["prompt_tokens"] == 26
    assert first.get_total_usage()["scripted-model"]["prompt_tokens"] == 2
    assert first.chat_messages[manager][-1]["content"] == "TERMINATE"


def test_a_society_inside_a_group_chat_counts_in_that_chat(scripted_server: ScriptedOpenAIServer) -> None:
    first, second, inner_manager, society = _priced_society(scripted_server)
    helper = autogen.ConversableAgent("helper", llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")
    outer = autogen.GroupChat([society, helper], messages=[], speaker_selection_method="round_robin", max_round=2)
    outer_manager = autogen.GroupChatManager(outer, llm_config=False, silent=True)
    scripted_server.add_replies(_usage(100, 10, "A1"), _usage(200, 20, "TERMINATE"), _usage(1000, 100, "answer"))

    result = helper.initiate_chat(outer_manager, message="Q", silent=True)

    assert [m["content"] for m in outer.messages] == ["Q", "answer"]
    assert result.cost["usage_including_cached_inference"]["scripted-model"]["total_tokens"] == 1430


def test_print_usage_summary_includes_the_inner_chat(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    *_, society = _society(scripted_server, som_llm=False)
    society.print_usage_summary()
    assert console.output.startswith("Agent 'society':\n")
    console.clear()
    society.update_chat_manager(None)
    society.print_usage_summary()
    assert console.output == "No cost incurred from agent 'society'.\n"


# ----------------------------------------------------------------- the chat manager and bad input
def test_without_a_chat_manager_the_default_auto_reply_answers(scripted_server: ScriptedOpenAIServer) -> None:
    *_, groupchat, manager, society = _society(scripted_server)
    society.update_chat_manager(None)
    assert society.chat_manager is None
    assert society.generate_reply([{"role": "user", "content": "Q", "name": "u"}]) == ""
    assert scripted_server.request_count == 0
    society.update_chat_manager(manager)
    assert society.chat_manager is manager


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"chat_manager": "manager"}, AttributeError, "must be a GroupChatManager"),
        ({"response_preparer": 3}, TypeError, "response_preparer must be a prompt"),
        ({"system_message": "hi"}, TypeError, "takes no system_message"),
        ({"response_preparer": "Summarize."}, ValueError, "has no model to run it"),
    ],
)
def test_bad_arguments_name_the_field(kwargs: dict[str, Any], error: type, match: str) -> None:
    groupchat = autogen.GroupChat([autogen.ConversableAgent("a", llm_config=False)], messages=[])
    arguments = {"chat_manager": autogen.GroupChatManager(groupchat, llm_config=False), **kwargs}
    with pytest.raises(error, match=match):
        SocietyOfMindAgent("society", **arguments)
