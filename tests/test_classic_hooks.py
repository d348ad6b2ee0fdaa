"""The classic hooks that subclasses override and tests patch: called where the classic package calls them.

The expected speakers and selection-chat histories were observed by running the same subclasses on
ag2 0.7.3 and autogen 0.14.1 against the scripted server (both agree).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Optional
from unittest.mock import patch

import pytest

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChatManager
from autogen_classic.agentchat.chat import ChatResult, _post_process_carryover_item
from autogen_classic.agentchat.contrib.capabilities.transform_messages import TransformMessages
from autogen_classic.agentchat.contrib.capabilities.transforms import MessageHistoryLimiter
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

NAMES = ("planner", "coder", "critic")


# ----------------------------------------------------------------------------- group chat subclasses
class NarrowedGroupChat(GroupChat):
    """Never lets the critic be chosen: the candidates the method chooses from lose it."""

    def _prepare_and_select_agents(self, last_speaker: Any) -> Any:
        selected, agents, messages = super()._prepare_and_select_agents(last_speaker)
        return selected, [a for a in agents if a.name != "critic"], messages


class ReaderGroupChat(GroupChat):
    """Reads the selection chat itself; after a failed selection the last candidate speaks."""

    seen: list[list[tuple[Any, Any, Any]]] = []

    def _process_speaker_selection_result(self, result: Any, last_speaker: Any, agents: Any) -> Any:
        ReaderGroupChat.seen.append([(m.get("role"), m.get("content"), m.get("name")) for m in result.chat_history])
        final = result.chat_history[-1]["content"]
        if "[AGENT SELECTED]" in final:
            return self.agent_by_name(final.replace("[AGENT SELECTED]", ""))
        return agents[-1]


class LowerCaseGroupChat(GroupChat):
    """Accepts the model's answer in any letter case."""

    def _validate_speaker_name(self, recipient, messages, sender, config, attempts_left, attempt, agents):  # type: ignore[no-untyped-def]
        if messages and isinstance(messages[-1].get("content"), str):
            messages[-1]["content"] = messages[-1]["content"].lower()
        return super()._validate_speaker_name(recipient, messages, sender, config, attempts_left, attempt, agents)


class OwnAgentsGroupChat(GroupChat):
    """Builds the selection chat's agents itself, with a system message of its own."""

    made = 0

    def _create_internal_agents(self, agents, max_attempts, messages, validate_speaker_name, selector=None):  # type: ignore[no-untyped-def]
        checking, selecting = super()._create_internal_agents(
            agents, max_attempts, messages, validate_speaker_name, selector
        )
        OwnAgentsGroupChat.made += 1
        selecting.update_system_message("Pick one of: " + ", ".join(a.name for a in agents))
        return checking, selecting


def _roles_answer(body: dict[str, Any]) -> str:
    """The model names the last agent of the roles listed in the selector's system message."""
    lines = body["messages"][0]["content"].splitlines()
    names = [line.split(":")[0].strip() for line in lines if line.split(":")[0].strip() in NAMES]
    return names[-1] if names else "nobody"


def _pick_answer(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"]
    return system[len("Pick one of: "):].split(", ")[0] if system.startswith("Pick one of: ") else "nobody"


def _agents() -> list[ConversableAgent]:
    return [
        ConversableAgent(n, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{n} speaks",
                         description=f"the {n}")
        for n in NAMES
    ]


def _run(server: ScriptedOpenAIServer, cls: type, answer: Any, is_async: bool, **settings: Any) -> GroupChat:
    server.set_responder(answer)
    agents = _agents()
    groupchat = cls(agents=agents, messages=[], max_round=5, **settings)
    manager = GroupChatManager(groupchat, llm_config=server.llm_config())
    if is_async:
        asyncio.run(agents[0].a_initiate_chat(manager, message="start", silent=True))
    else:
        agents[0].initiate_chat(manager, message="start", silent=True)
    return groupchat


def _speakers(groupchat: GroupChat) -> list[Optional[str]]:
    return [m.get("name") for m in groupchat.messages]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_prepare_and_select_agents_override_narrows_the_candidates(
    scripted_server: ScriptedOpenAIServer, is_async: bool
) -> None:
    plain = _run(scripted_server, GroupChat, _roles_answer, is_async)
    assert _speakers(plain) == ["planner", "critic", "critic", "critic", "critic"]

    scripted_server.reset()
    narrowed = _run(scripted_server, NarrowedGroupChat, _roles_answer, is_async)
    assert _speakers(narrowed) == ["planner", "coder", "coder", "coder", "coder"]  # as in the classic package
    assert scripted_server.request_count == 4
    # The model was shown only the narrowed candidates.
    system = scripted_server.requests[0]["messages"][0]["content"]
    assert "coder: the coder" in system and "critic:" not in system
    record = narrowed.selection_log[0]
    assert [step.name for step in record.steps][-1] == "_prepare_and_select_agents"
    assert record.steps[-1].candidates == ["planner", "coder"]
    assert record.chosen == "coder" and record.reason.startswith("auto: the model named coder")


def test_prepare_and_select_agents_override_may_choose_the_agent(scripted_server: ScriptedOpenAIServer) -> None:
    class CoderAlways(GroupChat):
        def _prepare_and_select_agents(self, last_speaker: Any) -> Any:
            return self.agent_by_name("coder"), self.agents, None

    groupchat = _run(scripted_server, CoderAlways, _roles_answer, False)
    assert _speakers(groupchat) == ["planner", "coder", "coder", "coder", "coder"]
    assert scripted_server.request_count == 0  # no model was asked
    assert groupchat.selection_log[0].reason == "chosen by CoderAlways._prepare_and_select_agents"


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_process_speaker_selection_result_override_reads_the_selection_chat(
    scripted_server: ScriptedOpenAIServer, is_async: bool
) -> None:
    ReaderGroupChat.seen = []
    groupchat = _run(scripted_server, ReaderGroupChat, lambda body: "nobody", is_async,
                     max_retries_for_selecting_speaker=1)
    # The classic default falls back to the next agent; the override takes the last candidate.
    assert _speakers(groupchat) == ["planner", "critic", "critic", "critic", "critic"]
    assert scripted_server.request_count == 8  # two attempts per selection
    none_prompt = groupchat.select_speaker_auto_none_template.format(agentlist="['planner', 'coder', 'critic']")
    assert ReaderGroupChat.seen[0] == [
        ("system", "Read the above conversation. Then select the next role from ['planner', 'coder', 'critic'] to "
                   "play. Only return the role.", "checking_agent"),
        ("user", "nobody", "speaker_selection_agent"),
        ("system", none_prompt, "checking_agent"),
        ("user", "nobody", "speaker_selection_agent"),
        ("user", "[AGENT SELECTION FAILED]Select speaker attempt #2 of 2 failed as it did not include any agent "
                 "names.", None),
    ]
    record = groupchat.selection_log[0]
    assert [a.outcome for a in record.attempts] == ["none", "none"]
    assert record.reason == "auto: ReaderGroupChat._process_speaker_selection_result chose critic"

    scripted_server.reset()
    ReaderGroupChat.seen = []
    groupchat = _run(scripted_server, ReaderGroupChat, lambda body: "coder", is_async)
    assert _speakers(groupchat) == ["planner", "coder", "coder", "coder", "coder"]
    assert ReaderGroupChat.seen[0][1:] == [
        ("user", "coder", "speaker_selection_agent"), ("user", "[AGENT SELECTED]coder", None),
    ]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_validate_speaker_name_override_changes_how_the_answer_is_read(
    scripted_server: ScriptedOpenAIServer, is_async: bool
) -> None:
    plain = _run(scripted_server, GroupChat, lambda body: "CODER", is_async, max_retries_for_selecting_speaker=0)
    assert _speakers(plain) == ["planner", "coder", "critic", "planner", "coder"]  # no name found: round robin
    scripted_server.reset()
    lower = _run(scripted_server, LowerCaseGroupChat, lambda body: "CODER", is_async,
                 max_retries_for_selecting_speaker=0)
    assert _speakers(lower) == ["planner", "coder", "coder", "coder", "coder"]
    assert lower.selection_log[0].attempts[0].answer == "coder"


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_create_internal_agents_override_is_used_on_every_selection(
    scripted_server: ScriptedOpenAIServer, is_async: bool
) -> None:
    OwnAgentsGroupChat.made = 0
    groupchat = _run(scripted_server, OwnAgentsGroupChat, _pick_answer, is_async)
    assert _speakers(groupchat) == ["planner"] * 5
    assert OwnAgentsGroupChat.made == 4
    assert scripted_server.requests[0]["messages"][0]["content"] == "Pick one of: planner, coder, critic"


def test_mentioned_agents_override_is_used_by_auto_selection(scripted_server: ScriptedOpenAIServer) -> None:
    class AnyCase(GroupChat):
        def _mentioned_agents(self, message_content: Any, agents: Any) -> dict[str, int]:
            text = message_content.lower() if isinstance(message_content, str) else ""
            return {a.name: 1 for a in (agents or self.agents) if a.name in text}

    groupchat = _run(scripted_server, AnyCase, lambda body: "CRITIC", False, max_retries_for_selecting_speaker=0)
    assert _speakers(groupchat) == ["planner", "critic", "critic", "critic", "critic"]


def test_hooks_patched_with_mock_are_called(scripted_server: ScriptedOpenAIServer) -> None:
    server = scripted_server
    with patch.object(GroupChat, "_process_speaker_selection_result", autospec=True,
                      side_effect=lambda self, result, last, agents: self.agent_by_name("critic")) as processed:
        groupchat = _run(server, GroupChat, lambda body: "coder", False)
    assert processed.call_count == 4
    result = processed.call_args.args[1]
    assert isinstance(result, ChatResult) and result.chat_history[-1]["content"] == "[AGENT SELECTED]coder"
    assert _speakers(groupchat) == ["planner", "critic", "critic", "critic", "critic"]

    server.reset()
    server.set_responder(lambda body: "coder")
    agents = _agents()
    groupchat = GroupChat(agents=agents, messages=[], max_round=3)
    manager = GroupChatManager(groupchat, llm_config=server.llm_config())
    with patch.object(groupchat, "_prepare_and_select_agents", wraps=groupchat._prepare_and_select_agents) as spy:
        agents[0].initiate_chat(manager, message="start", silent=True)
    assert spy.call_count == 2 and spy.call_args.args == (agents[1],)
    assert _speakers(groupchat) == ["planner", "coder", "coder"]
    assert groupchat.selection_log[1].steps[0].name == "all"  # the built-in body recorded into the selection


# ----------------------------------------------------------------------------- the hooks called directly
def test_prepare_and_select_agents_returns_the_classic_tuple() -> None:
    agents = _agents()
    agents[1].register_function({"f": lambda: 1})
    groupchat = GroupChat(agents=agents, messages=[], max_round=5, allow_repeat_speaker=False)
    groupchat.append({"role": "user", "content": "hi"}, agents[0])
    selected, candidates, messages = groupchat._prepare_and_select_agents(agents[0])
    assert selected is None and [a.name for a in candidates] == ["coder", "critic"]
    assert messages == [{"role": "user", "content": "hi", "name": "planner"}] and messages is not groupchat.messages
    groupchat.speaker_selection_method = "round_robin"
    assert groupchat._prepare_and_select_agents(agents[0]) == (agents[1], agents[1:], None)
    groupchat.speaker_selection_method = lambda last, group: group.agents[2]
    assert groupchat._prepare_and_select_agents(agents[0]) == (agents[2], agents, None)
    assert groupchat.selection_log == []  # a direct call is recorded nowhere


def test_validate_speaker_name_and_process_result_called_directly() -> None:
    agents = _agents()
    groupchat = GroupChat(agents=agents, messages=[])
    messages = [{"role": "user", "content": "coder"}]
    assert groupchat._validate_speaker_name(None, messages, None, None, 1, 1, agents) == (True, None)
    assert messages[-1] == {"role": "user", "content": "[AGENT SELECTED]coder"}
    messages = [{"role": "user", "content": "coder and critic"}]
    final, prompt = groupchat._validate_speaker_name(None, messages, None, None, 1, 3, agents)
    assert final is True and prompt == {
        "content": groupchat.select_speaker_auto_multiple_template.format(agentlist="['planner', 'coder', 'critic']"),
        "name": "checking_agent",
        "override_role": "system",
    }
    assert groupchat._validate_speaker_name(None, messages, None, None, 0, 3, agents) == (True, None)
    assert messages[-1]["content"] == (
        "[AGENT SELECTION FAILED]Select speaker attempt #3 of 3 failed as it returned multiple names."
    )
    process = groupchat._process_speaker_selection_result
    assert process(ChatResult(chat_history=[{"content": "[AGENT SELECTED]critic"}]), agents[0], None) is agents[2]
    assert process(ChatResult(chat_history=[{"content": "[AGENT SELECTION FAILED]x"}]), agents[0],
                   [agents[0], agents[2]]) is agents[2]
    assert process(ChatResult(chat_history=[]), agents[0], None) is None


def test_create_internal_agents_returns_the_classic_pair(scripted_server: ScriptedOpenAIServer) -> None:
    agents = _agents()
    groupchat = GroupChat(agents=agents, messages=[])
    manager = GroupChatManager(groupchat, llm_config=scripted_server.llm_config())

    def validate(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, None]:
        return True, None

    history = [{"role": "user", "content": "x", "name": "planner"}]
    checking, selecting = groupchat._create_internal_agents(agents[:2], 3, history, validate, manager)
    assert (checking.name, selecting.name) == ("checking_agent", "speaker_selection_agent")
    assert isinstance(checking, ConversableAgent) and isinstance(selecting, ConversableAgent)
    assert [entry["reply_func"] for entry in checking._reply_func_list] == [validate]
    assert checking._default_auto_reply == 3 and selecting.human_input_mode == "NEVER"
    assert selecting.system_message == groupchat.select_speaker_msg(agents[:2])
    assert selecting.chat_messages[checking] == history
    assert selecting.llm_config["config_list"][0]["model"] == "scripted-model"

    no_model = GroupChatManager(GroupChat(agents=agents, messages=[]), llm_config=False)
    with pytest.raises(ValueError, match="internal speaker selection agent does not have an LLM configuration"):
        no_model.groupchat._create_internal_agents(agents, 1, [], validate, no_model)


def test_speaker_selection_transforms_are_applied(scripted_server: ScriptedOpenAIServer) -> None:
    limiter = TransformMessages(transforms=[MessageHistoryLimiter(max_messages=1)])
    assert GroupChat(agents=_agents(), messages=[], select_speaker_transform_messages=limiter)._speaker_selection_transforms is limiter

    def longest_request(cls: type, transforms: Any) -> int:
        scripted_server.reset()
        scripted_server.set_responder(_pick_answer if cls is OwnAgentsGroupChat else (lambda body: "coder"))
        agents = _agents()
        groupchat = cls(agents=agents, messages=[], max_round=4)
        assert groupchat._speaker_selection_transforms is None
        groupchat._speaker_selection_transforms = transforms  # the classic attribute, set after construction
        assert groupchat.select_speaker_transform_messages is transforms
        agents[0].initiate_chat(GroupChatManager(groupchat, llm_config=scripted_server.llm_config()),
                                message="start", silent=True)
        return max(len(request["messages"]) for request in scripted_server.requests)

    for cls in (GroupChat, OwnAgentsGroupChat):
        assert longest_request(cls, None) == 5  # system message, three chat messages, the prompt
        assert longest_request(cls, limiter) == 2  # system message and the last one
    with pytest.raises(ValueError, match="must be None or MessageTransforms"):
        GroupChat(agents=_agents(), messages=[])._speaker_selection_transforms = "no"  # type: ignore[assignment]


# ----------------------------------------------------------------------------- resume
def test_valid_resume_messages_raises_as_the_classic_package() -> None:
    agents = _agents()
    manager = GroupChatManager(GroupChat(agents=agents, messages=[]), llm_config=False)
    with pytest.raises(Exception, match=re.escape(
        "Cannot resume group chat as no messages were provided. Use GroupChatManager.run_chat or "
        "ConversableAgent.initiate_chat to start a new chat."
    )):
        manager._valid_resume_messages([])
    with pytest.raises(Exception, match="Agent name in message doesn't exist as agent in group chat: ghost"):
        manager._valid_resume_messages([{"role": "user", "content": "x", "name": "ghost"}])
    assert manager._valid_resume_messages([
        {"role": "user", "content": "x", "name": "coder"},
        {"role": "user", "content": "x", "name": "chat_manager"},
        {"role": "user", "content": "x"},
    ]) is None


def test_resume_calls_an_overriding_valid_resume_messages() -> None:
    class Strict(GroupChatManager):
        checked: list[list[dict[str, Any]]] = []

        def _valid_resume_messages(self, messages: list[dict[str, Any]]) -> None:
            Strict.checked.append(messages)
            if len(messages) < 3:
                raise Exception("Resume needs at least three messages.")
            super()._valid_resume_messages(messages)

    agents = _agents()
    groupchat = GroupChat(agents=agents, messages=[{"role": "user", "content": "kept", "name": "planner"}])
    manager = Strict(groupchat, llm_config=False)
    with pytest.raises(Exception, match="at least three"):
        manager.resume([{"role": "user", "content": "a", "name": "planner"}])
    assert groupchat.messages[0]["content"] == "kept"  # checked before anything changed
    messages = [{"role": "user", "content": c, "name": n} for c, n in (("a", "planner"), ("b", "coder"), ("c", "critic"))]
    last_agent, last_message = manager.resume(messages, silent=True)
    assert len(Strict.checked) == 2 and last_agent is agents[2] and last_message["content"] == "c"


# ----------------------------------------------------------------------------- carryover
class ContextFirst(ConversableAgent):
    """Puts the carryover before the task instead of after it."""

    def _process_carryover(self, content: str, kwargs: dict[str, Any]) -> str:
        carryover = kwargs.get("carryover")
        if not carryover:
            return content
        items = carryover if isinstance(carryover, list) else [carryover]
        context = "\n".join(_post_process_carryover_item(item) for item in items)
        return f"Context:\n{context}\n\nTask: {content}"


def test_process_carryover_override_shapes_the_first_message() -> None:
    sender = ContextFirst("sender", llm_config=False, human_input_mode="NEVER")
    recipient = ConversableAgent("recipient", llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")
    sender.initiate_chat(recipient, message="do it", carryover=["a", {"content": "b"}], max_turns=1, silent=True)
    assert recipient.chat_messages[sender][0]["content"] == "Context:\na\nb\n\nTask: do it"

    asyncio.run(sender.a_initiate_chat(recipient, message={"content": "again"}, carryover="c", max_turns=1,
                                       silent=True))
    assert recipient.chat_messages[sender][0]["content"] == "Context:\nc\n\nTask: again"

    # Multimodal content: the classic prepends _process_carryover("", ...) as a text part.
    image = {"type": "image_url", "image_url": {"url": "http://example.com/x.png"}}
    message = sender.generate_init_message({"content": [image]}, carryover="c")
    assert message["content"] == [{"type": "text", "text": "Context:\nc\n\nTask: "}, image]

    # A chat queue's summaries reach the next chat's first message through the override.
    with pytest.warns(UserWarning, match="Repetitive recipients"):
        results = sender.initiate_chats([
            {"recipient": recipient, "message": "first", "max_turns": 1, "silent": True},
            {"recipient": recipient, "message": "second", "max_turns": 1, "silent": True},
        ])
    assert results[0].summary == "ok"
    assert recipient.chat_messages[sender][0]["content"] == "Context:\nok\n\nTask: second"


def test_handle_carryover_is_called_by_generate_init_message() -> None:
    agent = ConversableAgent("a", llm_config=False)
    with patch.object(ConversableAgent, "_handle_carryover", autospec=True,
                      side_effect=lambda self, message, kwargs: f"{message} [{kwargs['carryover']}]") as handled:
        assert agent.generate_init_message("hi", carryover="c") == "hi [c]"
        assert asyncio.run(agent.a_generate_init_message("hi", carryover="d")) == "hi [d]"
    assert handled.call_count == 2
    assert agent._handle_carryover("m", {"carryover": ["x", {"content": [{"type": "text", "text": "y"}]}, 3]}) == (
        "m\nContext: \nx\ny\n3"
    )
    assert agent._handle_carryover({"content": None, "role": "user"}, {"carryover": "c"}) == {
        "content": None, "role": "user"
    }
    with pytest.raises(autogen.InvalidCarryOverTypeError, match="Carryover should be a string or a list"):
        agent._handle_carryover(5, {"carryover": "c"})  # type: ignore[arg-type]
    with pytest.raises(autogen.InvalidCarryOverType, match="Not adding carryover to the message"):
        agent._process_carryover("m", {"carryover": ("a",)})


def test_post_process_carryover_item_as_autogen_014() -> None:
    items = ["s", {"content": "c"}, {"content": [{"type": "text", "text": "t"}]}, {"content": None}, {"content": 5},
             {"x": 1}, 7]
    assert [_post_process_carryover_item(item) for item in items] == ["s", "c", "t", "", "5", "{'x': 1}", "7"]


# ----------------------------------------------------------------------------- invoke on appended messages
def _model_agent(server: ScriptedOpenAIServer, name: str) -> ConversableAgent:
    return ConversableAgent(name, llm_config=server.llm_config(), human_input_mode="NEVER")


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_invoke_goes_on_from_appended_messages(scripted_server: ScriptedOpenAIServer, is_async: bool) -> None:
    scripted_server.add_reply("the plan is ready")
    planner = ConversableAgent("planner", llm_config=False, human_input_mode="NEVER")
    writer = _model_agent(scripted_server, "writer")
    groupchat = GroupChat(agents=[planner, writer], messages=[], max_round=5, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False, silent=True)
    groupchat.append({"role": "user", "content": "Write a plan."}, planner)

    added = asyncio.run(manager.a_invoke(writer)) if is_async else manager.invoke(writer)

    assert added is not None and added["content"] == "the plan is ready" and added["name"] == "writer"
    # The invoked agent read the appended message.
    sent = scripted_server.requests[0]["messages"]
    assert sent[-1]["content"] == "Write a plan."
    assert [m["content"] for m in groupchat.messages] == ["Write a plan.", "the plan is ready"]
    assert planner.chat_messages[manager][-1]["content"] == "the plan is ready"


def test_invoke_and_step_from_messages_given_to_the_group_chat(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("first answer", "second answer")
    planner = ConversableAgent("planner", llm_config=False, human_input_mode="NEVER", default_auto_reply="noted")
    writer = _model_agent(scripted_server, "writer")
    # No speaker name: invoke names the next speaker, step has nobody to select after.
    groupchat = GroupChat(agents=[planner, writer], messages=[{"role": "user", "content": "Task."}], max_round=6,
                          speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False, silent=True)
    with pytest.raises(ValueError, match=r"manager\.begin\(sender, message\)"):
        manager.step()
    assert manager.invoke(writer)["content"] == "first answer"
    assert manager.step()[0]["content"] == "noted"  # round robin after the writer
    assert manager.invoke(writer)["content"] == "second answer"
    assert [m["content"] for m in scripted_server.requests[1]["messages"][-3:]] == ["Task.", "first answer", "noted"]


def test_invoke_on_an_empty_group_chat_names_begin() -> None:
    agents = _agents()
    manager = GroupChatManager(GroupChat(agents=agents, messages=[]), llm_config=False)
    with pytest.raises(ValueError, match=r"has no message to go on from: open it with manager\.begin"):
        manager.invoke(agents[1])
    with pytest.raises(ValueError, match=r"manager\.begin"):
        asyncio.run(manager.a_invoke(agents[1]))


# ----------------------------------------------------------------------------- overrides that answer wrongly
def test_overrides_with_wrong_answers_get_clear_errors(scripted_server: ScriptedOpenAIServer) -> None:
    class OneValue(GroupChat):
        def _prepare_and_select_agents(self, last_speaker: Any) -> Any:
            return self.agents

    class NoSpeaker(GroupChat):
        def _process_speaker_selection_result(self, result: Any, last_speaker: Any, agents: Any) -> Any:
            return None

    class Nobody(GroupChat):
        def _prepare_and_select_agents(self, last_speaker: Any) -> Any:
            return None, [], self.messages

    with pytest.raises(TypeError, match=r"OneValue\._prepare_and_select_agents must return \(the chosen agent"):
        _run(scripted_server, OneValue, _roles_answer, False)
    with pytest.raises(TypeError, match=r"NoSpeaker\._process_speaker_selection_result must return the next speaker"):
        _run(scripted_server, NoSpeaker, lambda body: "coder", False)
    # No candidate left: the chat ends, as when the candidate pipeline leaves nobody.
    groupchat = _run(scripted_server, Nobody, _roles_answer, False)
    assert _speakers(groupchat) == ["planner"]
    assert groupchat.selection_log[0].reason == "No eligible speaker: Nobody._prepare_and_select_agents returned no candidate."
