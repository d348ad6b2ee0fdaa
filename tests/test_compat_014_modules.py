"""Modules and module-level names of AG2 Classic 0.14.1 that code reaches beyond the public surface, used the
way 0.14 code and its tests use them: deep imports, fakes built from the response models, overridden providers,
the group helpers called directly; and 0.14.1's cache default (nothing cached unless asked)."""

from __future__ import annotations

import asyncio
import re
import inspect
from pathlib import Path
from typing import Annotated, Any

import pytest

from autogen_classic import ConversableAgent, LLMConfig, OpenAIWrapper
from autogen_classic.fast_depends import Depends, Provider, dependency_provider, inject
from autogen_classic.fast_depends.dependencies import Depends as DependencyMarker
from autogen_classic.fast_depends.utils import is_coroutine_callable
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply


# --------------------------------------------------------------------------------------------- fast_depends
def database() -> str:
    return "production"


def in_memory() -> str:
    return "memory"


# At module level: this file's annotations are strings (PEP 563), read back from the module's names.
@inject
def lookup(order_id: int, db: Annotated[str, Depends(database)]) -> str:
    return f"{order_id} from {db}"


@inject
async def a_lookup(order_id: int, db: Annotated[str, Depends(database)]) -> str:
    return f"{order_id} from {db}"


def test_fast_depends_injects_and_overrides_providers() -> None:
    assert isinstance(Depends(database), DependencyMarker)
    assert lookup(7) == "7 from production"
    with dependency_provider.scope(database, in_memory):
        assert lookup(7) == "7 from memory"
        assert asyncio.run(a_lookup(8)) == "8 from memory"
    assert lookup("9") == "9 from production"  # cast from the hint, the override gone
    dependency_provider.override(database, in_memory)
    try:
        assert lookup(1) == "1 from memory"
    finally:
        dependency_provider.clear()
    assert lookup(1) == "1 from production"
    assert is_coroutine_callable(a_lookup) and not is_coroutine_callable(lookup)
    assert isinstance(dependency_provider, Provider)


def account() -> str:
    return "live"


def test_an_overridden_provider_reaches_a_tool_an_agent_executes() -> None:
    agent = ConversableAgent("executor", llm_config=False)

    @agent.register_for_execution()
    def balance(user: str, source: Annotated[str, Depends(account)]) -> str:
        return f"{user}: {source}"

    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "balance", "arguments": '{"user": "ann"}'}}]}  # fmt: skip
    with dependency_provider.scope(account, lambda: "sandbox"):
        _, reply = agent.generate_tool_calls_reply([call])
    assert reply["tool_responses"][0]["content"] == "ann: sandbox"


def test_dependency_injection_helpers_of_inject_params() -> None:
    from autogen_classic.tools.dependency_injection import _fix_staticmethod, _set_return_annotation_to_any

    def plain(x: int) -> str:
        return str(x)

    async def later(x: int) -> str:
        return str(x)

    wrapped = _set_return_annotation_to_any(plain)
    assert inspect.signature(wrapped).return_annotation is Any and wrapped(3) == "3" and wrapped.__name__ == "plain"
    a_wrapped = _set_return_annotation_to_any(later)
    assert inspect.iscoroutinefunction(a_wrapped) and asyncio.run(a_wrapped(4)) == "4"

    class Tools:
        @staticmethod
        def add(a: int, b: int) -> int:
            return a + b

    fixed = _fix_staticmethod(Tools.__dict__["add"])
    assert fixed(1, 2) == 3 and fixed.__name__ == "add"
    assert _fix_staticmethod(plain) is plain


# ---------------------------------------------------------------------------------------------- oai_models
def test_response_models_fake_a_model_answer_through_a_custom_client() -> None:
    from autogen_classic.oai.oai_models import (
        ChatCompletion,
        ChatCompletionMessage,
        ChatCompletionMessageToolCall,
        Choice,
        CompletionUsage,
    )
    from autogen_classic.oai.oai_models.chat_completion import ChatCompletionExtended
    from autogen_classic.oai.oai_models.chat_completion_message_tool_call import Function

    assert ChatCompletion is ChatCompletionExtended

    class Canned:
        def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
            self.model = config["model"]

        def create(self, params: dict[str, Any]) -> ChatCompletion:
            call = ChatCompletionMessageToolCall(id="call_1", type="function",
                                                 function=Function(name="lookup", arguments='{"q": "x"}'))  # fmt: skip
            message = ChatCompletionMessage(role="assistant", content="canned answer", tool_calls=[call])
            return ChatCompletion(
                id="resp-1", created=0, model=self.model, object="chat.completion",
                choices=[Choice(index=0, finish_reason="stop", message=message)],
                usage=CompletionUsage(prompt_tokens=3, completion_tokens=2, total_tokens=5), cost=0.25,
            )  # fmt: skip

        def message_retrieval(self, response: ChatCompletion) -> list[Any]:
            return [choice.message for choice in response.choices]

        def cost(self, response: ChatCompletion) -> float:
            return float(response.cost or 0)

        @staticmethod
        def get_usage(response: ChatCompletion) -> dict[str, Any]:
            usage = response.usage
            return {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
                    "total_tokens": usage.total_tokens, "cost": response.cost, "model": response.model}  # fmt: skip

    client = OpenAIWrapper(config_list=[{"model": "canned", "model_client_cls": "Canned"}])
    client.register_model_client(Canned)
    response = client.create(messages=[{"role": "user", "content": "hi"}])
    assert isinstance(response, ChatCompletionExtended) and response.cost == 0.25
    assert client.extract_text_or_completion_object(response)[0].content == "canned answer"
    assert client.total_usage_summary["canned"]["total_tokens"] == 5


# ------------------------------------------------------------------------------------------ events helpers
def test_event_role_and_the_usage_summary_format() -> None:
    from typing import get_args

    from autogen_classic.events.agent_events import EventRole
    from autogen_classic.events.client_events import UsageSummaryEvent, _change_usage_summary_format
    from autogen_classic.messages.client_messages import _change_usage_summary_format as from_messages

    assert set(get_args(EventRole)) == {"assistant", "function", "tool"}
    assert from_messages is _change_usage_summary_format
    summary = {"total_cost": 0.5, "gpt-4o-mini": {"cost": 0.5, "prompt_tokens": 10, "completion_tokens": 5,
                                                   "total_tokens": 15}}  # fmt: skip
    changed = _change_usage_summary_format(summary, None)
    assert changed == {
        "actual": {"usages": [{"cost": 0.5, "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                               "model": "gpt-4o-mini"}], "total_cost": 0.5},
        "total": {"usages": None, "total_cost": None},
    }  # fmt: skip
    event = UsageSummaryEvent(**changed, mode="actual")
    assert event.content.actual.usages[0].model == "gpt-4o-mini"  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------- group helpers
def test_group_module_level_helpers() -> None:
    from autogen_classic.agentchat.group import (
        AgentTarget,
        ContextExpression,
        ExpressionContextCondition,
        OnContextCondition,
        RevertToUserTarget,
        StayTarget,
        TerminateTarget,
    )
    from autogen_classic.agentchat.group import group_utils
    from autogen_classic.agentchat.group.context_variables import ContextVariables
    from autogen_classic.agentchat.group.group_tool_executor import __TOOL_EXECUTOR_NAME__
    from autogen_classic.agentchat.group.on_condition import OnCondition  # noqa: F401 - importable
    from autogen_classic.agentchat.group.targets.transition_target import RandomAgentTarget
    from autogen_classic.agentchat.groupchat import GroupChat

    assert __TOOL_EXECUTOR_NAME__ == "_Group_Tool_Executor"
    alice = ConversableAgent("alice", llm_config=False)
    bob = ConversableAgent("bob", llm_config=False)
    groupchat = GroupChat(agents=[alice, bob], messages=[{"role": "user", "name": "bob", "content": "hi"}])

    # No after-work entry: the sentinel.
    assert group_utils._evaluate_after_works_conditions(alice, groupchat, None) is group_utils._NO_AFTER_WORK_MATCHED
    alice.context_variables = ContextVariables(data={"done": False})
    alice.handoffs.add_after_works([
        OnContextCondition(target=TerminateTarget(),
                           condition=ExpressionContextCondition(ContextExpression("${done}"))),
        OnContextCondition(target=AgentTarget(bob), condition=None),
    ])  # fmt: skip
    assert group_utils._evaluate_after_works_conditions(alice, groupchat, None) is bob
    alice.context_variables.set("done", True)
    assert group_utils._evaluate_after_works_conditions(alice, groupchat, None) is None  # terminate
    assert StayTarget and RevertToUserTarget  # importable together, as 0.14 code imports them

    transfer = group_utils._create_on_condition_handoff_function(AgentTarget(bob))
    assert isinstance(transfer(), AgentTarget) and transfer().agent_name == "bob"

    group_utils._validate_handoff_target(AgentTarget(bob), ["alice", "bob"], "OnCondition")
    with pytest.raises(ValueError, match="Agent in OnCondition Hand-offs must be in the agents list"):
        group_utils._validate_handoff_target(AgentTarget(bob), ["alice"], "OnCondition")
    with pytest.raises(ValueError, match="Agent 'carol' in RandomAgentTarget Hand-offs must be in the agents list"):
        group_utils._validate_handoff_target(RandomAgentTarget(agents=[bob, ConversableAgent("carol", llm_config=False)]),
                                             ["alice", "bob"], "after work")  # fmt: skip


# ------------------------------------------------------------------------------------------ the cache default
@pytest.fixture
def counting_server() -> Any:
    with ScriptedOpenAIServer(default_reply="fresh answer") as server:
        yield server


@pytest.mark.parametrize("form", ["dict", "LLMConfig"])
def test_nothing_is_cached_unless_asked(counting_server: Any, form: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)  # the legacy disk cache would live in ./.cache
    entry = {"model": "gpt-4o-mini", "base_url": counting_server.base_url, "api_key": "sk-test"}
    config: Any = {"config_list": [entry]} if form == "dict" else LLMConfig(entry)
    agent = ConversableAgent("assistant", llm_config=config)
    for _ in range(2):
        agent.generate_reply(messages=[{"role": "user", "content": "same question"}])
    assert len(counting_server.requests) == 2  # asked twice: no silent cache
    assert not (tmp_path / ".cache").exists()

    cached = ConversableAgent("cached", llm_config=({"config_list": [entry], "cache_seed": 41} if form == "dict"
                                                    else LLMConfig(entry, cache_seed=41)))  # fmt: skip
    for _ in range(2):
        cached.generate_reply(messages=[{"role": "user", "content": "another question"}])
    assert len(counting_server.requests) == 3  # asked for: cached under .cache/41
    assert (tmp_path / ".cache" / "41").exists()


def test_an_entry_of_config_list_takes_a_response_format(counting_server: Any) -> None:
    # As 0.14 notebooks write it: for config in llm_config.config_list: config.response_format = Model
    from pydantic import BaseModel

    class Verdict(BaseModel):
        approved: bool

    counting_server.default_reply = ScriptedReply('{"approved": true}')
    llm_config = LLMConfig({"model": "gpt-4o-mini", "base_url": counting_server.base_url, "api_key": "sk-test"})
    for config in llm_config.config_list:
        config.response_format = Verdict
    assert llm_config.config_list[0].response_format is Verdict
    with pytest.raises(AttributeError, match="has no field 'respons_format'"):
        llm_config.config_list[0].respons_format = Verdict
    agent = ConversableAgent("judge", llm_config=llm_config)
    reply = agent.generate_reply(messages=[{"role": "user", "content": "approve?"}])
    sent = counting_server.requests[-1]
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"]["properties"] == {"approved": {"title": "Approved", "type": "boolean"}}
    assert '"approved"' in str(reply)


def test_a_dotted_variable_is_0141s_value_error() -> None:
    from autogen_classic.agentchat.group import ContextExpression

    with pytest.raises(ValueError, match=r"^Error validating expression '\$\{user.is_premium\}': Operation type "
                                         r"Attribute is not allowed in logical expressions"):  # fmt: skip
        ContextExpression("${user.is_premium}")
    with pytest.raises(SyntaxError, match="Invalid expression syntax in '\\$\\{a\\} and'"):
        ContextExpression("${a} and")


def test_no_eligible_speaker_says_it_as_0141_does() -> None:
    from autogen_classic import GroupChat, GroupChatManager, NoEligibleSpeakerError
    from autogen_classic.eligibility import DenyListPolicy

    a, b = ConversableAgent("a", llm_config=False), ConversableAgent("b", llm_config=False)
    groupchat = GroupChat([a, b], messages=[], speaker_selection_method="round_robin",
                          eligibility_policies=[DenyListPolicy(["a", "b"])])  # fmt: skip
    with pytest.raises(NoEligibleSpeakerError, match=re.escape(
        "No eligible agents after applying eligibility policies. Checked 2 candidates: ['a', 'b']. "
        "Applied 1 policy/policies."
    )):
        groupchat.select_speaker(a, GroupChatManager(groupchat, llm_config=False))
    # The repeat rule first (a may not follow itself), then the policy removes b: the policies' message.
    solo = GroupChat([a, b], messages=[], speaker_selection_method="round_robin", allow_repeat_speaker=False,
                     eligibility_policies=[DenyListPolicy(["b"])])  # fmt: skip
    with pytest.raises(NoEligibleSpeakerError, match=re.escape("Checked 1 candidates: ['b']. Applied 1 policy")):
        solo.select_speaker(a, GroupChatManager(solo, llm_config=False))


# ------------------------------------------------------------------------ classic private methods, 0.14.1's
def test_apply_eligibility_policies_direct_and_overridden() -> None:
    from autogen_classic import GroupChat, GroupChatManager, NoEligibleSpeakerError
    from autogen_classic.eligibility import DenyListPolicy

    a, b, c = (ConversableAgent(n, llm_config=False) for n in "abc")
    groupchat = GroupChat([a, b, c], messages=[], speaker_selection_method="round_robin",
                          eligibility_policies=[DenyListPolicy(["b"])])  # fmt: skip
    assert groupchat._apply_eligibility_policies([a, b, c], last_speaker=None, round_index=0) == [a, c]
    assert GroupChat([a, b], messages=[])._apply_eligibility_policies([a, b], a, 3) == [a, b]  # no policies
    with pytest.raises(NoEligibleSpeakerError, match="No eligible agents after applying eligibility policies"):
        groupchat._apply_eligibility_policies([b], last_speaker=a, round_index=1)

    seen: list[tuple[list[str], Any, int]] = []

    class OnlyC(GroupChat):
        def _apply_eligibility_policies(self, agents: list[Any], last_speaker: Any, round_index: int) -> list[Any]:
            seen.append(([x.name for x in agents], getattr(last_speaker, "name", None), round_index))
            return [agent for agent in super()._apply_eligibility_policies(agents, last_speaker, round_index)
                    if agent.name == "c"]  # fmt: skip

    only = OnlyC([a, b, c], messages=[{"role": "user", "name": "a", "content": "go"}],
                 speaker_selection_method="round_robin", eligibility_policies=[DenyListPolicy(["b"])])  # fmt: skip
    assert only.select_speaker(a, GroupChatManager(only, llm_config=False)) is c
    assert seen == [(["a", "b", "c"], "a", 1)]


def test_process_resume_termination_is_where_resume_removes_the_string(caplog: pytest.LogCaptureFixture) -> None:
    from autogen_classic import GroupChat, GroupChatManager

    a, b = ConversableAgent("a", llm_config=False), ConversableAgent("b", llm_config=False)
    manager = GroupChatManager(GroupChat([a, b], messages=[], max_round=1), llm_config=False,
                               is_termination_msg=lambda m: "DONE" in str(m.get("content")))  # fmt: skip
    messages = [{"role": "user", "name": "a", "content": "first"}, {"role": "user", "name": "b", "content": "ok DONE"}]
    manager._process_resume_termination("DONE", messages)
    assert messages[-1]["content"] == "ok "
    manager._process_resume_termination(lambda text: text + " DONE", messages)
    assert "may terminate the chat" in caplog.text

    calls: list[Any] = []

    class Recording(GroupChatManager):
        def _process_resume_termination(self, remove_termination_string: Any, messages: list[dict[str, Any]]) -> None:
            calls.append(remove_termination_string)
            super()._process_resume_termination(remove_termination_string, messages)

    recording = Recording(GroupChat([a, b], messages=[], max_round=1), llm_config=False)
    last_agent, last_message = recording.resume([{"role": "user", "name": "a", "content": "go TERMINATE"}],
                                                remove_termination_string="TERMINATE", silent=True)  # fmt: skip
    assert calls == ["TERMINATE"]
    assert last_agent is a and last_message["content"] == "go "


def test_check_inter_agent_communication() -> None:
    from autogen_classic.agentchat.group.safeguards import SafeguardEnforcer

    enforcer = SafeguardEnforcer(policy={"inter_agent_safeguards": {"agent_transitions": [
        {"message_source": "alice", "message_destination": "bob", "check_method": "regex",
         "pattern": r"\d{3}-\d{2}-\d{4}", "violation_response": "mask"}]}})  # fmt: skip
    assert enforcer._check_inter_agent_communication("alice", "bob", "SSN 123-45-6789") == "SSN [SENSITIVE_INFO]"
    assert enforcer._check_inter_agent_communication("bob", "alice", "SSN 123-45-6789") == "SSN 123-45-6789"
    masked = enforcer._check_inter_agent_communication("alice", "bob", {"role": "user", "content": "id 123-45-6789"})
    assert masked["content"] == "id [SENSITIVE_INFO]"
    with pytest.raises(ValueError, match="Message must be a dictionary or a string"):
        enforcer._check_inter_agent_communication("alice", "bob", 42)
