"""The classic ``autogen.agentchat`` modules as classic scripts use them.

Deep imports from each classic module path, ``agentchat.utils``, the agent methods the classic
package has (``run``, ``update_agent_state_before_reply``, ``GroupChat.a_auto_select_speaker``),
``default_auto_reply=None``, function calls that no agent can execute, and the classic constructor
usages. Expected values were observed on ag2 0.7.3 running the same scenarios against the scripted
OpenAI-compatible server.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import re
import sys
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.utils import consolidate_chat_info, gather_usage_summary, parse_tags_from_content
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from autogen_classic.tools import tool


def agent(name: str, **kwargs: Any) -> autogen.ConversableAgent:
    return autogen.ConversableAgent(name, **{"llm_config": False, "human_input_mode": "NEVER", **kwargs})


def history(messages: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(m.get("role"), m.get("name"), m.get("content")) for m in messages]


# ----------------------------------------------------------------- deep imports
def _classic(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


DEEP_IMPORTS = {
    "autogen_classic.agentchat.conversable_agent": {
        "register_function": "autogen_classic.register_function",
        "ChatResult": "autogen_classic.ChatResult",
        "OpenAIWrapper": "autogen_classic.OpenAIWrapper",
        "ModelClient": "autogen_classic.ModelClient",
        "LLMAgent": "autogen_classic.LLMAgent",
        "Agent": "autogen_classic.Agent",
        "CodeExecutor": "autogen_classic.coding.CodeExecutor",
        "CodeExecutorFactory": "autogen_classic.coding.CodeExecutorFactory",
        "content_str": "autogen_classic.code_utils.content_str",
        "execute_code": "autogen_classic.code_utils.execute_code",
        "extract_code": "autogen_classic.code_utils.extract_code",
        "infer_lang": "autogen_classic.code_utils.infer_lang",
        "decide_use_docker": "autogen_classic.code_utils.decide_use_docker",
        "check_can_use_docker_or_throw": "autogen_classic.code_utils.check_can_use_docker_or_throw",
        "gather_usage_summary": "autogen_classic.gather_usage_summary",
        "initiate_chats": "autogen_classic.initiate_chats",
        "a_initiate_chats": "autogen_classic.a_initiate_chats",
        "consolidate_chat_info": "autogen_classic.agentchat.utils.consolidate_chat_info",
        "load_basemodels_if_needed": "autogen_classic.tools.load_basemodels_if_needed",
        "serialize_to_str": "autogen_classic.tools.serialize_to_str",
        "Tool": "autogen_classic.Tool",
        "InvalidCarryOverType": "autogen_classic.InvalidCarryOverType",
        "SenderRequired": "autogen_classic.SenderRequired",
        "AbstractCache": "autogen_classic.cache.AbstractCache",
        "ChatContext": "autogen_classic.tools.dependency_injection.ChatContext",
        "IOStream": "autogen_classic.IOStream",
    },
    "autogen_classic.agentchat.groupchat": {
        "GroupChat": "autogen_classic.GroupChat",
        "GroupChatManager": "autogen_classic.GroupChatManager",
        "ConversableAgent": "autogen_classic.ConversableAgent",
        "NoEligibleSpeaker": "autogen_classic.NoEligibleSpeaker",
        "AgentNameConflict": "autogen_classic.AgentNameConflict",
        "UndefinedNextAgent": "autogen_classic.UndefinedNextAgent",
        "IOStream": "autogen_classic.IOStream",
        "ModelClient": "autogen_classic.ModelClient",
        "Agent": "autogen_classic.Agent",
        "content_str": "autogen_classic.code_utils.content_str",
        "check_graph_validity": "autogen_classic.graph_utils.check_graph_validity",
        "invert_disallowed_to_allowed": "autogen_classic.graph_utils.invert_disallowed_to_allowed",
    },
    "autogen_classic.agentchat.chat": {
        "ChatResult": "autogen_classic.ChatResult",
        "IOStream": "autogen_classic.IOStream",
        "consolidate_chat_info": "autogen_classic.agentchat.utils.consolidate_chat_info",
        "initiate_chats": "autogen_classic.initiate_chats",
        "a_initiate_chats": "autogen_classic.a_initiate_chats",
    },
    "autogen_classic.agentchat": {
        "gather_usage_summary": "autogen_classic.gather_usage_summary",
        "register_function": "autogen_classic.register_function",
        "LLMAgent": "autogen_classic.LLMAgent",
    },
    "autogen_classic.agentchat.utils": {
        "gather_usage_summary": "autogen_classic.gather_usage_summary",
        "Agent": "autogen_classic.Agent",
    },
    "autogen_classic.agentchat.assistant_agent": {
        "AssistantAgent": "autogen_classic.AssistantAgent",
        "ConversableAgent": "autogen_classic.ConversableAgent",
    },
    "autogen_classic.agentchat.user_proxy_agent": {
        "UserProxyAgent": "autogen_classic.UserProxyAgent",
        "ConversableAgent": "autogen_classic.ConversableAgent",
    },
}


@pytest.mark.parametrize(
    ("module", "name", "target"),
    [(module, name, target) for module, names in DEEP_IMPORTS.items() for name, target in names.items()],
)
def test_deep_imports_are_the_package_objects(module: str, name: str, target: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f"from {module} import {name}", namespace)  # the classic statement, verbatim
    assert namespace[name] is _classic(target)


def test_conversable_agent_module_has_the_callable_typevar() -> None:
    from autogen_classic.agentchat.conversable_agent import F

    assert F.__bound__ is not None and F.__name__ == "F"


def test_groupchat_module_keeps_its_logger_name() -> None:
    from autogen_classic.agentchat.groupchat import logger

    assert logger.name == "autogen_classic.agentchat.groupchat"


# ----------------------------------------------------------------- agentchat.utils
def _tags(tag: str, content: Any) -> list[tuple[Any, ...]]:
    return [(d["tag"], d["attr"], d["match"].group(0), d["match"].span()) for d in parse_tags_from_content(tag, content)]


@pytest.mark.parametrize(
    ("tag", "content", "expected"),
    [
        (
            "img",
            "look <img http://example.com/image.png> and <img  a b   c>",
            [
                ("img", {"src": "http://example.com/image.png"}, "<img http://example.com/image.png>", (5, 39)),
                ("img", {"src": "a b c"}, "<img  a b   c>", (44, 58)),
            ],
        ),
        (
            "audio",
            '<audio text="Hello I\'m a robot" prompt="whisper">',
            [("audio", {"text": "Hello I'm a robot", "prompt": "whisper"},
              '<audio text="Hello I\'m a robot" prompt="whisper">', (0, 49))],
        ),
        # "<img>" has no space after the tag: not a tag.
        ("img", "<img src='x.png' alt='a b'> <img>", [("img", {"src": "x.png", "alt": "a b"}, "<img src='x.png' alt='a b'>", (0, 27))]),
        (
            "img",
            "<img x=y z> <img w='q' extra more> <img lead tok k='v' k2=\"v2\">",
            [
                ("img", {"src": "x=y z"}, "<img x=y z>", (0, 11)),
                ("img", {"w": "q' extra mor"}, "<img w='q' extra more>", (12, 34)),
                ("img", {"src": "lead tok", "k": "v", "k2": "v2"}, "<img lead tok k='v' k2=\"v2\">", (35, 63)),
            ],
        ),
        ("img", "<img a='b> tail", [("img", {"a": ""}, "<img a='b>", (0, 10))]),
        (
            "img",
            "<img\tx> <img =\"q\"> <img a= 'b'> <img a=\"\">",
            [
                ("img", {"": "q"}, '<img ="q">', (8, 18)),
                ("img", {"src": "a= 'b'"}, "<img a= 'b'>", (19, 31)),
                ("img", {"a": ""}, '<img a="">', (32, 42)),
            ],
        ),
        ("i.g", "<img x>", [("i.g", {"src": "x"}, "<img x>", (0, 7))]),  # the tag is a regular expression
        ("img", "<img x\n y>", []),
        ("img", "<img x=\"a b\" x='c'>", [("img", {"x": "c"}, "<img x=\"a b\" x='c'>", (0, 19))]),
        ("img", "<img src='a' b c>", [("img", {"src": "a' b "}, "<img src='a' b c>", (0, 17))]),
    ],
)
def test_parse_tags_from_text(tag: str, content: str, expected: list[tuple[Any, ...]]) -> None:
    assert _tags(tag, content) == expected


def test_parse_tags_from_multimodal_content_reads_only_text_parts() -> None:
    content = [
        {"type": "text", "text": "<img p.png>"},
        {"type": "image_url", "image_url": {"url": "<img not-text.png>"}},
        {"type": "text", "text": "<img q.png> <img r>"},
    ]
    assert _tags("img", content) == [
        ("img", {"src": "p.png"}, "<img p.png>", (0, 11)),  # spans are within each part's text
        ("img", {"src": "q.png"}, "<img q.png>", (0, 11)),
        ("img", {"src": "r"}, "<img r>", (12, 19)),
    ]
    assert _tags("img", [{"text": "<img p.png>"}]) == []  # no "type": not a text part
    found = parse_tags_from_content("img", "<img a.png>")[0]
    assert sorted(found) == ["attr", "match", "tag"] and isinstance(found["match"], re.Match)


@pytest.mark.parametrize("content", [None, 5, {"type": "text"}])
def test_parse_tags_refuses_content_that_is_not_str_or_list(content: Any) -> None:
    with pytest.raises(ValueError, match=f"content must be str or list, but got {re.escape(str(type(content)))}"):
        parse_tags_from_content("img", content)


def test_consolidate_chat_info_checks_like_the_classic_assertions() -> None:
    a, b = agent("a"), agent("b")
    assert consolidate_chat_info({"sender": a, "recipient": b}) is None
    assert consolidate_chat_info([{"recipient": b}], uniform_sender=a) is None
    assert consolidate_chat_info({"sender": a, "recipient": b, "summary_method": lambda *x: ""}) is None
    cases = [
        ([{"recipient": b}], "sender must be provided"),
        ({"sender": a}, "recipient must be provided"),
        ({"sender": a, "recipient": b, "summary_method": "x"}, "summary_method must be a string"),
        ({"sender": a, "recipient": b, "summary_method": "reflection_with_llm"},
         "llm client must be set in either the recipient or sender"),
    ]
    for info, expected in cases:
        with pytest.raises(AssertionError, match=expected) as raised:
            consolidate_chat_info(info)
        assert isinstance(raised.value, ValueError)


def test_gather_usage_summary_without_models_costs_nothing() -> None:
    assert gather_usage_summary([agent("a"), agent("b")]) == {
        "usage_including_cached_inference": {"total_cost": 0},
        "usage_excluding_cached_inference": {"total_cost": 0},
    }


def test_chat_result_fields_default_as_in_autogen_0141() -> None:
    # autogen 0.14.1's defaults (ag2 0.7.3 had None everywhere; passing None still works).
    first, second = autogen.ChatResult(), autogen.ChatResult()
    assert isinstance(first.chat_id, int) and first.chat_id != second.chat_id
    assert (first.chat_history, first.summary, first.human_input) == ([], "", [])
    assert first.cost == {"usage_including_cached_inference": {}, "usage_excluding_cached_inference": {}}
    assert first.chat_history is not second.chat_history
    assert repr(autogen.ChatResult(None, None, None, None, None)) == (
        "ChatResult(chat_id=None, chat_history=None, summary=None, cost=None, human_input=None)"
    )


# ----------------------------------------------------------------- classic assertions
@pytest.mark.parametrize(
    ("call", "expected_type", "message"),
    [
        (lambda a, b: autogen.ConversableAgent("x", llm_config=True), TypeError, "llm_config must be a dict"),
        (lambda a, b: a.generate_reply(), ValueError, "Either messages=None or sender=None must be provided"),
        (lambda a, b: a.register_hook("nope", print), ValueError, "nope is not a hookable method"),
        (lambda a, b: a.initiate_chat(b, message="x", summary_method="nope"), ValueError, "summary_method must be"),
        (lambda a, b: a.initiate_chat(b, message="x", summary_method="reflection_with_llm"), ValueError,
         "reflection_with_llm"),
        (lambda a, b: autogen.initiate_chats([{"sender": a, "message": "x"}]), ValueError, "has no 'recipient'"),
    ],
)
def test_where_the_classic_package_asserted_the_error_is_also_an_assertion_error(
    call: Any, expected_type: type, message: str
) -> None:
    with pytest.raises(AssertionError, match=re.escape(message)) as raised:
        call(agent("a"), agent("b"))
    assert isinstance(raised.value, expected_type)


def test_a_trigger_returning_a_non_bool_is_an_assertion_error() -> None:
    a, b = agent("a"), agent("b")
    a.register_reply(lambda sender: "yes", lambda *args, **kwargs: (True, "hi"))
    with pytest.raises(AssertionError, match="must return a boolean value") as raised:
        a.generate_reply([{"role": "user", "content": "x"}], sender=b)
    assert isinstance(raised.value, TypeError)


# ----------------------------------------------------------------- default_auto_reply=None
def test_default_auto_reply_none_means_no_reply() -> None:
    quiet = agent("a", default_auto_reply=None)
    talker = agent("b", default_auto_reply="hi", max_consecutive_auto_reply=2)
    assert quiet.generate_reply([{"role": "user", "content": "x"}], sender=talker) is None

    result = talker.initiate_chat(quiet, message="hello", max_turns=3, silent=True)
    assert history(result.chat_history) == [
        ("assistant", "b", "hello"), ("assistant", "b", "hi"), ("assistant", "b", "hi"),
    ]
    assert result.summary == "hi"

    result = talker.initiate_chat(quiet, message="hello", silent=True)
    assert history(result.chat_history) == [("assistant", "b", "hello")]
    assert result.summary == "hello"

    proxy = autogen.UserProxyAgent("u", human_input_mode="NEVER", default_auto_reply=None, code_execution_config=False)
    assert proxy.generate_reply([{"role": "user", "content": "x"}], sender=talker) is None


# ----------------------------------------------------------------- calls no agent can execute
def _group_with_caller(
    server: ScriptedOpenAIServer, *, able: dict[str, Any] | None = None, max_round: int = 5
) -> tuple[Any, ...]:
    assistant = autogen.AssistantAgent("assistant", llm_config=server.llm_config())
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, default_auto_reply="ok")
    other = agent("other", default_auto_reply="other here")
    if able is not None:
        other.register_function(able)
    groupchat = autogen.GroupChat([user, assistant, other], messages=[], max_round=max_round,
                                  speaker_selection_method="round_robin")
    return user, autogen.GroupChatManager(groupchat, llm_config=False), groupchat


@pytest.mark.parametrize(
    "call",
    [
        ScriptedReply(tool_calls=[{"name": "foo", "arguments": {"x": 1}}]),
        ScriptedReply(function_call={"name": "foo", "arguments": "{}"}),
    ],
    ids=["tool_calls", "function_call"],
)
def test_a_call_no_agent_can_execute_raises_out_of_initiate_chat(
    scripted_server: ScriptedOpenAIServer, call: ScriptedReply
) -> None:
    scripted_server.add_reply(call)
    user, manager, groupchat = _group_with_caller(scripted_server)
    message = "No agent can execute the function foo. Please check the function_map of the agents."
    with pytest.raises(ValueError, match=re.escape(message)):
        user.initiate_chat(manager, message="please call foo", silent=True)
    # Raised when choosing who executes the call: the call itself was recorded.
    assert history(groupchat.messages) == [("user", "user", "please call foo"), ("assistant", "assistant", "None")]
    assert groupchat.selection_log[-1].chosen is None

    scripted_server.add_reply(call)
    with pytest.raises(ValueError, match=re.escape(message)):
        asyncio.run(user.a_initiate_chat(manager, message="please call foo", silent=True))


def test_a_call_goes_to_the_only_agent_with_functions_when_none_has_it(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"name": "foo", "arguments": {}}]))
    user, manager, groupchat = _group_with_caller(scripted_server, able={"bar": lambda: "BAR"}, max_round=3)
    user.initiate_chat(manager, message="please call foo", silent=True)
    assert history(groupchat.messages)[-1] == ("tool", "other", "Error: Function foo not found.")


def test_a_call_goes_to_the_agent_able_to_execute_it(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"name": "foo", "arguments": {}}]))
    user, manager, groupchat = _group_with_caller(scripted_server, able={"foo": lambda: "FOO"}, max_round=3)
    user.initiate_chat(manager, message="please call foo", silent=True)
    assert history(groupchat.messages)[-1] == ("tool", "other", "FOO")


# ----------------------------------------------------------------- ConversableAgent.run
@pytest.fixture
def in_container(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """As inside a container: the user agent of ``run`` (``use_docker=True``) runs code locally, in tmp_path."""
    import autogen_classic.coding.docker as docker

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(docker, "in_docker_container", lambda: True)


@pytest.mark.usefixtures("in_container")
def test_run_registers_the_tools_for_the_chat_only(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 1, "b": 2}}]), "The sum is 3. TERMINATE"
    )

    @tool(description="Add two numbers")
    def add(a: int, b: int) -> int:
        return a + b

    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    result = assistant.run("add 1 and 2", tools=[add], user_input=False)
    assert [(m["role"], m.get("name"), m.get("content")) for m in result.chat_history] == [
        ("assistant", "user", "add 1 and 2"),
        ("assistant", None, None),
        ("tool", "user", "3"),
        ("user", "assistant", "The sum is 3. TERMINATE"),
    ]
    assert result.chat_history[1]["tool_calls"][0]["function"]["name"] == "add"
    assert result.summary == "The sum is 3. "
    assert [[t["function"]["name"] for t in body["tools"]] for body in scripted_server.requests] == [["add"], ["add"]]
    assert [(m["role"], m.get("content")) for m in scripted_server.requests[1]["messages"][1:]] == [
        ("user", "add 1 and 2"), ("assistant", None), ("tool", "3"),
    ]
    assert "tools" not in assistant.llm_config  # withdrawn after the chat


@pytest.mark.usefixtures("in_container")
def test_run_max_turns_and_msg_to(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    scripted_server.add_replies("first answer", "second answer")
    result = assistant.run("hello", user_input=False, max_turns=2, msg_to="user")
    assert history(result.chat_history) == [
        ("assistant", "assistant", "hello"), ("user", "user", ""),
        ("assistant", "assistant", "first answer"), ("user", "user", ""),
    ]
    assert result.summary == ""

    scripted_server.reset()
    scripted_server.add_replies("first answer", "second answer")
    result = assistant.run("hello", user_input=False, max_turns=2)
    assert history(result.chat_history) == [
        ("assistant", "user", "hello"), ("user", "assistant", "first answer"),
        ("assistant", "user", ""), ("user", "assistant", "second answer"),
    ]
    assert result.summary == "second answer"
    assert [peer.name for peer in assistant.chat_messages] == ["user", "user"]  # a new user agent each run


@pytest.mark.usefixtures("in_container")
def test_run_asks_the_person_at_the_console(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    console.add_inputs("what is 2+2?", "exit")
    scripted_server.add_replies("Hi! How can I help?", "Sure: 4")
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    result = assistant.run("hello")
    assert history(result.chat_history) == [
        ("assistant", "user", "hello"), ("user", "assistant", "Hi! How can I help?"),
        ("assistant", "user", "what is 2+2?"), ("user", "assistant", "Sure: 4"),
    ]
    assert result.summary == "Sure: 4"
    assert result.human_input == ["what is 2+2?", "exit"]
    assert console.output.count(
        "Replying as user. Provide feedback to assistant. Press enter to skip and use auto-reply, "
        "or type 'exit' to end the conversation: "
    ) == 2


def test_run_user_runs_code_blocks_with_the_classic_docker_rule(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, scripted_server: ScriptedOpenAIServer
) -> None:
    import autogen_classic.coding.docker as docker

    code = "```python\nprint(6 * 7)\n```"
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(docker, "in_docker_container", lambda: True)  # inside a container: the code runs here
    scripted_server.add_replies(code, "done TERMINATE")
    result = assistant.run("compute", user_input=False)
    assert result.chat_history[2]["content"] == "exitcode: 0 (execution succeeded)\nCode output: \n42\n"
    user = list(assistant.chat_messages)[-1]
    assert user.name == "user" and user._code_execution_config["work_dir"] == "coding"

    monkeypatch.setattr(docker, "in_docker_container", lambda: False)
    monkeypatch.setattr(docker, "is_docker_running", lambda: False)
    with pytest.raises(RuntimeError, match="docker is not running"):
        assistant.run("compute", user_input=False)

    scripted_server.reset()
    scripted_server.add_replies(code, "done TERMINATE")
    result = assistant.run(  # the user agent's code execution can be configured
        "compute", user_input=False,
        executor_kwargs={"code_execution_config": {"work_dir": str(tmp_path / "w"), "use_docker": False}},
    )
    assert result.chat_history[2]["content"] == "exitcode: 0 (execution succeeded)\nCode output: \n42\n"


@pytest.mark.usefixtures("in_container")
def test_a_run_is_the_async_twin(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    scripted_server.add_replies("first answer", "second answer")
    result = asyncio.run(assistant.a_run("hello", user_input=False, max_turns=2))
    assert history(result.chat_history)[-1] == ("user", "assistant", "second answer")
    params = inspect.signature(autogen.ConversableAgent.a_run).parameters
    assert list(params) == list(inspect.signature(autogen.ConversableAgent.run).parameters)
    # autogen 0.14.1's signature (recipient first); the ag2 0.7.3 call above, task first, keeps 0.7.3's defaults.
    assert {name: p.default for name, p in params.items() if p.default is not p.empty} == {
        "recipient": None, "clear_history": True, "silent": False, "cache": None, "max_turns": None,
        "summary_method": "last_msg", "summary_args": {}, "message": None, "executor_kwargs": None, "tools": None,
        "user_input": False, "msg_to": "agent",
    }


# ----------------------------------------------------------------- hooks
def test_update_agent_state_before_reply_calls_the_hooks() -> None:
    a, b = agent("a", default_auto_reply="ok"), agent("b")
    seen: list[tuple[str, list[str]]] = []

    def remember(who: autogen.ConversableAgent, messages: list[dict[str, Any]]) -> None:
        seen.append((who.name, [m["content"] for m in messages]))
        who.update_system_message(f"seen {len(messages)}")

    a.register_hook("update_agent_state", remember)
    a.update_agent_state_before_reply([{"content": "x"}])
    assert seen == [("a", ["x"])] and a.system_message == "seen 1"
    b.initiate_chat(a, message="hello", max_turns=1, silent=True)
    assert seen[-1] == ("a", ["hello"])


# ----------------------------------------------------------------- auto selection on its own
def _trio(server: ScriptedOpenAIServer) -> tuple[Any, ...]:
    alice = agent("alice", description="Alice writes")
    bob = agent("bob", description="Bob reviews")
    carol = agent("carol", description="Carol tests")
    groupchat = autogen.GroupChat(
        [alice, bob, carol], messages=[{"role": "user", "content": "write it", "name": "alice"}], max_round=5
    )
    return alice, bob, carol, groupchat, autogen.GroupChatManager(groupchat, llm_config=server.llm_config())


def test_a_auto_select_speaker_asks_the_model_among_the_given_agents(scripted_server: ScriptedOpenAIServer) -> None:
    alice, bob, carol, groupchat, manager = _trio(scripted_server)
    scripted_server.add_reply("bob")
    assert asyncio.run(groupchat.a_auto_select_speaker(alice, manager, groupchat.messages, [bob, carol])) is bob
    assert [(m["role"], m["content"]) for m in scripted_server.requests[0]["messages"]] == [
        ("system", "You are in a role play game. The following roles are available:\n                bob: Bob reviews\n"
                   "carol: Carol tests.\n                Read the following conversation.\n                Then select "
                   "the next role from ['bob', 'carol'] to play. Only return the role."),
        ("user", "write it"),
        ("system", "Read the above conversation. Then select the next role from ['bob', 'carol'] to play. "
                   "Only return the role."),
    ]
    scripted_server.reset()
    scripted_server.add_replies("alice and carol")  # alice is not a candidate: carol is the one named
    assert asyncio.run(groupchat.a_auto_select_speaker(alice, manager, groupchat.messages, [bob, carol])) is carol
    assert scripted_server.request_count == 1
    assert groupchat.selection_log[-1].chosen == "carol"


def test_a_auto_select_speaker_without_a_model_raises_as_the_reference() -> None:
    alice, bob, carol = agent("alice"), agent("bob"), agent("carol")
    groupchat = autogen.GroupChat([alice, bob, carol], messages=[{"role": "user", "content": "x", "name": "alice"}])
    manager = autogen.GroupChatManager(groupchat, llm_config=False)
    with pytest.raises(ValueError, match="does not have an LLM configuration"):
        asyncio.run(groupchat.a_auto_select_speaker(bob, manager, None, None))
    with pytest.raises(ValueError, match="does not have an LLM configuration"):
        groupchat._auto_select_speaker(carol, manager, None, [alice, bob])


# ----------------------------------------------------------------- classic constructions
def test_classic_constructor_usages() -> None:
    assert agent("a", llm_config=None).llm_config is False
    assert agent("a", system_message=None).system_message is None
    assert agent("a", system_message=None).description is None
    parts = [{"type": "text", "text": "hi"}]
    assert agent("a", system_message=parts).system_message == parts
    assert agent("a", description="d").description == "d"
    assert dict(agent("a", chat_messages={}).chat_messages) == {}
    assert agent("a", silent=True).silent is True
    assert agent("a", is_termination_msg=lambda m: True)._is_termination_msg({}) is True
    assert agent("a", max_consecutive_auto_reply=0).max_consecutive_auto_reply() == 0
    assert agent("a", max_consecutive_auto_reply=float("inf")).max_consecutive_auto_reply() == float("inf")
    assert agent("a", code_execution_config=False).use_docker is None
    for mode in ("ALWAYS", "NEVER", "TERMINATE"):
        assert agent("a", human_input_mode=mode).human_input_mode == mode

    assistant = autogen.AssistantAgent("a")
    assert (assistant.description[:20], assistant.human_input_mode, assistant.llm_config) == (
        "A helpful and genera", "NEVER", False,
    )
    assert autogen.AssistantAgent("a", system_message="hi").description == "hi"
    proxy = autogen.UserProxyAgent("u", code_execution_config={"use_docker": False})
    assert (proxy.human_input_mode, proxy.llm_config, proxy.description[:20]) == ("ALWAYS", False, "An attentive HUMAN u")
    assert autogen.UserProxyAgent("u", human_input_mode="NEVER", code_execution_config=False).description.startswith(
        "A computer terminal that "
    )
    assert autogen.UserProxyAgent("u", system_message=None, code_execution_config=False).system_message is None


def test_classic_groupchat_and_manager_usages() -> None:
    a, b, c = agent("a"), agent("b"), agent("c")
    assert len(autogen.GroupChat(agents=[a, b], messages=[{"role": "user", "content": "x", "name": "a"}]).messages) == 1
    assert autogen.GroupChat([a, b], [], 5).max_round == 5
    assert autogen.GroupChat([a, b, c], [], allow_repeat_speaker=[a]).allowed_speaker_transitions_dict[a] == [b, c, a]
    graph = {a: [b], b: [c], c: [a]}
    assert autogen.GroupChat(
        [a, b, c], [], allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type="ALLOWED"
    ).speaker_transitions_type == "allowed"
    templated = autogen.GroupChat([a, b], [], select_speaker_message_template="Pick {roles} {agentlist}")
    assert templated.select_speaker_msg() == (
        "Pick a: You are a helpful AI Assistant.\nb: You are a helpful AI Assistant. ['a', 'b']"
    )
    assert autogen.GroupChat([a, b], [], select_speaker_prompt_template="").select_speaker_prompt() is None
    assert autogen.GroupChat([a, b], [], role_for_select_speaker_messages="user").role_for_select_speaker_messages == "user"
    assert autogen.GroupChat([a, b], [], max_retries_for_selecting_speaker=True).max_retries_for_selecting_speaker is True

    groupchat = autogen.GroupChat([a, b], messages=[])
    manager = autogen.GroupChatManager(groupchat)
    assert (manager.name, manager.human_input_mode, manager.max_consecutive_auto_reply(), manager.system_message,
            manager.llm_config, manager.description) == (
        "chat_manager", "NEVER", sys.maxsize, "Group chat manager.", False, "Group chat manager.",
    )
    manager = autogen.GroupChatManager(groupchat, "mgr", 5, "TERMINATE", "sys", True)
    assert (manager.name, manager.human_input_mode, manager.max_consecutive_auto_reply(), manager.system_message,
            manager._silent) == ("mgr", "TERMINATE", 5, "sys", True)
    manager = autogen.GroupChatManager(
        groupchat, is_termination_msg=lambda m: True, description="desc", code_execution_config=False,
        system_message=None, silent=None,
    )
    assert (manager.description, manager._is_termination_msg({}), manager.system_message) == ("desc", True, None)


# ----------------------------------------------------------------- classic edge usages
def _run_group(groupchat: autogen.GroupChat) -> list[str]:
    """Agent "u" starts a silent chat with a manager of ``groupchat``; the names of the speakers in order."""
    manager = autogen.GroupChatManager(groupchat, llm_config=False, silent=True)
    agent("u", default_auto_reply="u").initiate_chat(manager, message="start", silent=True)
    return [m["name"] for m in groupchat.messages]


def test_classic_edge_usages_of_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    # is_termination_msg=None: the default check (content exactly "TERMINATE").
    ender = agent("ender", default_auto_reply="TERMINATE", is_termination_msg=None)
    starter = agent("starter", default_auto_reply="again", is_termination_msg=None)
    result = starter.initiate_chat(ender, message="hi", silent=True)
    assert [(m["name"], m["content"]) for m in result.chat_history] == [("starter", "hi"), ("ender", "TERMINATE")]
    # An llm_config without a model is the classic error.
    for config in ({}, {"config_list": []}):
        with pytest.raises(ValueError, match="specify a non-empty 'model' either in 'llm_config' or in each config"):
            agent("x", llm_config=config)
    # code_execution_config None (deprecated) and {}: the defaults; the given dict is not changed.
    monkeypatch.setattr(autogen.code_utils, "in_docker_container", lambda: True)
    with pytest.warns(UserWarning, match=re.escape(
        "Using None to signal a default code_execution_config is deprecated. Use {} to use default or False to "
        "disable code execution."
    )):
        assert agent("x", code_execution_config=None)._code_execution_config == {"use_docker": True}
    given: dict[str, Any] = {}
    assert agent("x", code_execution_config=given)._code_execution_config == {"use_docker": True}
    assert given == {}


def test_classic_edge_usages_of_group_chats() -> None:
    def trio() -> list[autogen.ConversableAgent]:
        return [agent(name, default_auto_reply=name) for name in ("a", "b", "c")]

    with pytest.raises(ValueError, match=re.escape(
        "GroupChat is underpopulated with 0 agents. Please add more agents to the GroupChat or use direct "
        "communication instead."
    )):
        _run_group(autogen.GroupChat(agents=[], messages=[], max_round=3))
    assert _run_group(autogen.GroupChat(trio(), [], 4, speaker_selection_method="Round_Robin")) == ["u", "a", "b", "c"]
    with pytest.raises(ValueError, match="does not have an LLM configuration"):  # "auto" without a model
        _run_group(autogen.GroupChat(trio(), [], 5, speaker_selection_method="Auto", allow_repeat_speaker=False))
    a, b = trio()[:2]
    pair = autogen.GroupChat((a, b), messages=[], max_round=3, speaker_selection_method="round_robin")
    assert isinstance(pair.agents, tuple) and _run_group(pair) == ["u", "a", "b"]
    repeat = autogen.GroupChat([a, b], messages=[], allow_repeat_speaker=None)
    assert repeat.allow_repeat_speaker is True and repeat.allowed_speaker_transitions_dict[a] == [b, a]
    with pytest.warns(UserWarning, match="GroupChat max_round should be an int >= 1; got NoneType None"):
        unbounded = autogen.GroupChat([a, b], messages=[], max_round=None, speaker_selection_method="round_robin")
    with pytest.raises(TypeError, match="'NoneType' object cannot be interpreted as an integer"):
        _run_group(unbounded)
    with pytest.warns(UserWarning, match="GroupChat messages should be a list"):
        no_messages = autogen.GroupChat([a, b], messages=None, speaker_selection_method="round_robin")
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'clear'"):
        _run_group(no_messages)


# ----------------------------------------------------------------- values classic AutoGen reads loosely
def _quiet_pair() -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    receiver = autogen.ConversableAgent("a", llm_config=False, human_input_mode="NEVER", default_auto_reply="x")
    sender = autogen.ConversableAgent("b", llm_config=False, human_input_mode="NEVER", default_auto_reply="y")
    return sender, receiver


def test_a_message_given_as_key_value_pairs_is_sent_as_their_dict() -> None:
    sender, receiver = _quiet_pair()
    result = sender.initiate_chat(receiver, message=[("content", "pairs")], max_turns=1, silent=True)
    assert [(m["name"], m["content"]) for m in result.chat_history] == [("b", "pairs"), ("a", "x")]


@pytest.mark.parametrize(("message", "error", "detail"), [
    (["x"], ValueError, "dictionary update sequence element #0 has length 1; 2 is required"),
    (5, TypeError, "'int' object is not iterable"),
])
def test_a_message_dict_cannot_be_made_of_keeps_the_classic_error_type(message: Any, error: type, detail: str) -> None:
    sender, receiver = _quiet_pair()
    with pytest.raises(error, match="message must be a str or a dict") as info:
        sender.initiate_chat(receiver, message=message, max_turns=1, silent=True)
    assert detail in str(info.value)
    assert receiver.chat_messages[sender] == []


def test_a_function_map_without_items_is_an_attribute_error_as_classic() -> None:
    with pytest.raises(AttributeError, match="function_map must be a dict") as info:
        autogen.ConversableAgent("a", llm_config=False, function_map=[print])
    assert isinstance(info.value, TypeError)


def test_an_empty_list_of_chat_messages_is_no_earlier_conversation_with_a_warning() -> None:
    with pytest.warns(UserWarning, match="chat_messages should be a dict"):
        receiver = autogen.ConversableAgent(
            "a", llm_config=False, human_input_mode="NEVER", default_auto_reply="x", chat_messages=[]
        )
    sender = autogen.ConversableAgent("b", llm_config=False, human_input_mode="NEVER", default_auto_reply="y")
    result = sender.initiate_chat(receiver, message="hi", max_turns=1, silent=True)
    assert [m["content"] for m in result.chat_history] == ["hi", "x"]


def test_a_human_input_mode_that_is_not_a_str_fails_at_the_auto_reply_as_classic() -> None:
    with pytest.warns(UserWarning, match="human_input_mode"):
        receiver = autogen.ConversableAgent("a", llm_config=False, human_input_mode=None, default_auto_reply="x")
    sender = autogen.ConversableAgent("b", llm_config=False, human_input_mode="NEVER", default_auto_reply="y")
    with pytest.raises(ValueError, match="human_input_mode must be a str") as info:
        sender.initiate_chat(receiver, message="hi", max_turns=2, silent=True)
    assert isinstance(info.value, AssertionError)
    assert [m["content"] for m in receiver.chat_messages[sender]] == ["hi"]


def test_an_agent_whose_name_is_not_a_str_can_be_in_a_transition_graph() -> None:
    from autogen_classic.graph_utils import check_graph_validity

    class Named:
        name = 3

    first, second = Named(), autogen.ConversableAgent("b", llm_config=False)
    check_graph_validity({first: [second], second: [first]}, [first, second])
