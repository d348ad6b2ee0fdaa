"""AG2 Classic 0.14 style: the defaults and module internals 0.14 code relies on, printed key by key.

Nothing cached unless asked; fast_depends overrides; a fake answer built from oai_models; a dotted context
variable; the eligibility policies' error; auto selection without a model; the group helpers; optional imports.
"""

import json
import re
from typing import Annotated

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, LLMConfig
from autogen_classic.agentchat.group import AgentTarget, ContextExpression
from autogen_classic.agentchat.group import group_utils
from autogen_classic.agentchat.group.group_tool_executor import __TOOL_EXECUTOR_NAME__
from autogen_classic.events.agent_events import EventRole
from autogen_classic.events.client_events import _change_usage_summary_format
from autogen_classic.fast_depends import Depends, dependency_provider, inject
from autogen_classic.fast_depends.utils import is_coroutine_callable
from autogen_classic.import_utils import get_missing_imports
from autogen_classic.oai.oai_models import ChatCompletion, ChatCompletionMessage, Choice, CompletionUsage

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST")


def show(key, value):
    print(f"{key}:", json.dumps(value))


# Nothing is cached unless asked: the same question twice reaches the model twice.
assistant = ConversableAgent("assistant", llm_config=llm_config)
answers = [assistant.generate_reply(messages=[{"role": "user", "content": "Same question?"}]) for _ in range(2)]
show("ASKED_TWICE", [a if isinstance(a, str) else a.get("content") for a in answers])

# An entry of the config list takes a new field.
for config in llm_config.config_list:
    config.temperature = 0.25
show("ENTRY_FIELD", llm_config.config_list[0].temperature)


def database() -> str:
    return "production"


@inject
def lookup(order_id: int, db: Annotated[str, Depends(database)]) -> str:
    return f"{order_id} from {db}"


with dependency_provider.scope(database, lambda: "memory"):
    overridden = lookup(7)
show("INJECTED", [lookup(7), overridden, is_coroutine_callable(lookup)])

fake = ChatCompletion(
    id="x", created=0, model="m", object="chat.completion",
    choices=[Choice(index=0, finish_reason="stop", message=ChatCompletionMessage(role="assistant", content="hi"))],
    usage=CompletionUsage(prompt_tokens=1, completion_tokens=1, total_tokens=2), cost=0.5,
)
show("FAKE_ANSWER", [fake.choices[0].message.content, fake.cost, fake.usage.total_tokens])
show("EVENT_ROLES", sorted(EventRole.__args__))
show("USAGE_FORMAT", _change_usage_summary_format({"total_cost": 1.0, "m": {"cost": 1.0}}, None))

try:
    ContextExpression("${user.is_premium}")
except Exception as error:  # noqa: BLE001 - the type and the start of the message are compared
    show("DOTTED_VARIABLE", [type(error).__name__, str(error)[:100]])


class NoOne:
    def is_eligible(self, agent, ctx) -> bool:
        return False


a, b = ConversableAgent("a", llm_config=False), ConversableAgent("b", llm_config=False)
policed = GroupChat([a, b], messages=[], speaker_selection_method="round_robin", eligibility_policies=[NoOne()])
try:
    policed.select_speaker(a, GroupChatManager(policed, llm_config=False))
except autogen.NoEligibleSpeakerError as error:
    show("NO_ELIGIBLE", str(error).split(" Applied")[0])
show("POLICIES_DIRECT", [x.name for x in GroupChat([a, b], messages=[])._apply_eligibility_policies([a, b], a, 2)])

auto = GroupChat([a, b, ConversableAgent("c", llm_config=False)], messages=[{"role": "user", "name": "a", "content": "x"}])
try:
    auto.select_speaker(a, GroupChatManager(auto, llm_config=False))
except ValueError as error:
    show("AUTO_WITHOUT_MODEL", str(error))

show("TOOL_EXECUTOR", __TOOL_EXECUTOR_NAME__)
show("NO_AFTER_WORK", group_utils._evaluate_after_works_conditions(a, auto, None) is group_utils._NO_AFTER_WORK_MATCHED)
show("HANDOFF_FUNCTION", group_utils._create_on_condition_handoff_function(AgentTarget(b))().agent_name)
try:
    group_utils._validate_handoff_target(AgentTarget(b), ["a"], "OnCondition")
except ValueError as error:
    show("HANDOFF_TARGET", str(error))
show("MISSING_IMPORTS", get_missing_imports(["json", "no_such_module_xyz"]))
