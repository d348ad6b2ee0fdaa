"""The "auto" selection chat run through the classic hooks of ``GroupChat``, for subclasses that override them.

Classic code customises "auto" selection by overriding methods the classic package calls on every
selection: ``_create_internal_agents`` (the checking agent and the speaker selection agent),
``_validate_speaker_name`` (the checking agent's judgement of each answer, which appends
``[AGENT SELECTED]name`` or ``[AGENT SELECTION FAILED]...`` to the chat), ``_process_speaker_selection_result``
(reads the finished chat's ``ChatResult`` and returns the next speaker) and ``_mentioned_agents``
(counts the names in an answer). When a group chat overrides (or a test patches) any of them, its "auto"
selections run here: the classic nested chat, turn by turn, with each hook called where the classic package
calls it. The built-in bodies of the hooks are the functions of this module; they record the attempts and the
decision in the selection trace like the usual path (:mod:`.auto`), which runs when nothing is overridden.

The shortcuts of this package that skip the model (structured answers, the addressed-by-name and role rules)
do not run on this path: the hooks see every selection, as in the classic package.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from ...agent import Agent
from ...chat import ChatResult
from ...conversable.agent_args import shown
from ...conversable_agent import ConversableAgent
from ....types import is_agent
from .auto import (
    CHECKING_AGENT_NAME,
    NO_SELECTION_MODEL,
    SELECTION_AGENT_NAME,
    NestedChatStep,
    SpeakerSelectorChat,
    effective_llm_config,
    follow_up_prompt,
    mentioned_agents,
    print_attempt,
    read_answer,
    register_custom_model_clients,
    usage_delta,
    usage_totals,
)
from .state import GroupState, overridden
from .trace import SelectionAttempt, SelectionRecord

__all__ = [
    "AGENT_SELECTED",
    "AGENT_SELECTION_FAILED",
    "create_internal_agents",
    "hooks_in_use",
    "process_speaker_selection_result",
    "selection_steps",
    "validate_speaker_name",
]

# The markers the checking agent appends to its chat, read back from the ChatResult (interface of the classic).
AGENT_SELECTED = "[AGENT SELECTED]"
AGENT_SELECTION_FAILED = "[AGENT SELECTION FAILED]"
# The hooks whose override sends "auto" selection down this path (looked up once per selection).
_HOOKS = ("_validate_speaker_name", "_process_speaker_selection_result", "_create_internal_agents",
          "_mentioned_agents")


def hooks_in_use(groupchat: GroupState) -> bool:
    """Whether ``groupchat`` overrides one of the classic hooks of the "auto" selection chat."""
    return any(overridden(groupchat, name) for name in _HOOKS)


@dataclass
class ClassicRun:
    """One "auto" selection on this path, kept on the group chat (``_selection_in_progress``) so that the
    built-in hook bodies record into it."""

    record: SelectionRecord
    agents: list[Agent]
    max_attempts: int
    prompt_role: str
    attempt: int = 0
    chosen: Agent | None = None


def _run_of(groupchat: Any) -> ClassicRun | None:
    run = getattr(groupchat, "_selection_in_progress", None)
    return run if isinstance(run, ClassicRun) else None


# ----------------------------------------------------------------- the built-in bodies of the hooks
def validate_speaker_name(
    groupchat: GroupState, messages: list[dict[str, Any]], attempts_left: int, attempt: int, agents: list[Agent]
) -> tuple[bool, str | dict[str, Any] | None]:
    """Judge the selector's last answer in ``messages`` (the checking agent's chat), as the classic checking agent.

    One agent named: ``[AGENT SELECTED]name`` is appended to ``messages`` and the chat ends. Several or none:
    the follow-up prompt is returned while ``attempts_left``, else ``[AGENT SELECTION FAILED]...`` is appended.
    Always final: ``(True, prompt or None)``.
    """
    count = getattr(groupchat, "_mentioned_agents", None)
    text, mentions, outcome = read_answer(messages, agents, count if callable(count) else mentioned_agents)
    run = _run_of(groupchat)
    if run is not None:
        run.record.attempts.append(SelectionAttempt(run.prompt_role, text, dict(mentions), outcome))  # type: ignore[arg-type]
    if groupchat.select_speaker_auto_verbose:
        print_attempt(outcome, attempt, attempt + attempts_left, mentions)
    if outcome == "selected":
        name = next(iter(mentions))
        messages.append({"role": "user", "content": f"{AGENT_SELECTED}{name}"})
        if run is not None:
            run.chosen = groupchat.agent_by_name(name)
        return True, None
    if attempts_left:
        prompt = follow_up_prompt(groupchat, outcome, agents)
        if run is not None:
            run.prompt_role = prompt["override_role"]
        return True, prompt
    why = "returned multiple names" if outcome == "multiple" else "did not include any agent names"
    messages.append({
        "role": "user",
        "content": f"{AGENT_SELECTION_FAILED}Select speaker attempt #{attempt} of {attempt + attempts_left} "
                   f"failed as it {why}.",
    })
    return True, None


def process_speaker_selection_result(
    groupchat: GroupState, result: ChatResult, last_speaker: Agent, agents: list[Agent] | None
) -> Agent | None:
    """The agent the finished selection chat names in its last message (``[AGENT SELECTED]name``); after a
    failed selection, the next of ``agents`` after ``last_speaker``. None for an empty chat."""
    history = result.chat_history or []
    if not history:
        return None
    final = history[-1].get("content")
    if isinstance(final, str) and AGENT_SELECTED in final:
        return groupchat.agent_by_name(final.replace(AGENT_SELECTED, ""))
    return groupchat.next_agent(last_speaker, agents)


def create_internal_agents(
    groupchat: GroupState,
    agents: list[Agent],
    max_attempts: int,
    messages: list[dict[str, Any]],
    validate_speaker_name: Callable[..., Any],
    selector: Any = None,
) -> tuple[ConversableAgent, ConversableAgent]:
    """A new checking agent (its only reply function ``validate_speaker_name``) and a new speaker selection agent
    whose history with it is ``messages``, on the selector's model (``select_speaker_auto_llm_config`` first).

    Raises:
        ValueError: no model is configured for the selection.
    """
    checking = ConversableAgent(CHECKING_AGENT_NAME, llm_config=False)
    # The classic value (the attempts, never sent: the reply function is always final), set without the
    # constructor's warning about a reply that is not a message.
    checking._default_auto_reply = max_attempts
    checking.register_reply([ConversableAgent, None], reply_func=validate_speaker_name, remove_other_reply_funcs=True)
    config = effective_llm_config(groupchat, selector)
    if config is None:
        raise ValueError(NO_SELECTION_MODEL)
    selecting = ConversableAgent(
        SELECTION_AGENT_NAME,
        system_message=groupchat.select_speaker_msg(agents),
        chat_messages={checking: messages},
        llm_config=config,
        human_input_mode="NEVER",
    )
    register_custom_model_clients(groupchat, selecting, config)
    return checking, selecting


# ----------------------------------------------------------------- one selection through the hooks
def _validator(groupchat: GroupState, run: ClassicRun) -> Callable[..., tuple[bool, Any]]:
    """The checking agent's reply function: counts the attempts and asks the group's ``_validate_speaker_name``."""

    def validate_speaker_name(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        run.attempt += 1
        attempts_left = run.max_attempts - run.attempt
        return groupchat._validate_speaker_name(  # type: ignore[attr-defined, no-any-return]
            recipient, messages, sender, config, attempts_left, run.attempt, run.agents
        )

    return validate_speaker_name


def _start_message(groupchat: GroupState, messages: list[dict[str, Any]], agents: list[Agent]) -> Any:
    """The first message of a chat between agents made by an overriding ``_create_internal_agents``."""
    prompt = groupchat.select_speaker_prompt(agents)
    role = groupchat.role_for_select_speaker_messages or "system"
    if prompt is not None:
        return {"content": prompt, "name": CHECKING_AGENT_NAME, "override_role": role}
    if messages:
        return messages[-1]  # the classic start: the selector's history already holds it
    return {"content": groupchat.select_speaker_msg(agents), "name": CHECKING_AGENT_NAME, "override_role": role}


def selection_steps(
    chat: SpeakerSelectorChat,
    groupchat: GroupState,
    last_speaker: Agent,
    selector: Any,
    messages: list[dict[str, Any]],
    agents: list[Agent],
    record: SelectionRecord,
) -> Generator[Any, Any, Agent]:
    """One "auto" selection through the group's classic hooks, as steps for the group chat's drivers.

    ``chat`` is the group's cached selection chat, whose two agents serve unless ``_create_internal_agents`` is
    overridden; ``messages`` (a copy owned by this call) is what the model reads.
    """
    max_attempts = 1 + groupchat.max_retries_for_selecting_speaker
    run = ClassicRun(record, agents, max_attempts, groupchat.role_for_select_speaker_messages or "system")
    previous = getattr(groupchat, "_selection_in_progress", None)
    groupchat._selection_in_progress = run
    validate = _validator(groupchat, run)
    custom = overridden(groupchat, "_create_internal_agents")
    try:
        if custom:
            pair = groupchat._create_internal_agents(  # type: ignore[attr-defined]
                agents, max_attempts, messages, validate, selector
            )
            checking, selecting = _checked_pair(groupchat, pair)
            start = _start_message(groupchat, messages, agents)
            transforms = groupchat._speaker_selection_transforms
            if transforms is not None:
                transforms.add_to_agent(selecting)
            checking._prepare_chat(selecting, False, reply_at_receive=False)
        else:
            start = chat._begin(groupchat, messages, agents, record)
            run.prompt_role = chat._session.prompt_role if chat._session is not None else run.prompt_role
            chat._turns(groupchat)
            chat._classic_judge = validate
            checking, selecting = chat.checking_agent, chat.speaker_selection_agent
        client = getattr(selecting, "client", None)
        before = usage_totals(client)
        try:
            yield NestedChatStep(checking, selecting, start, 2 * max(1, max_attempts),
                                 not groupchat.select_speaker_auto_verbose)
        finally:
            delta = usage_delta(before, usage_totals(client))
            if delta:  # the record's own empty dict otherwise
                record.usage = delta
        history = list(checking.chat_messages.get(selecting, []))
    finally:
        if not custom:
            chat._classic_judge = None
            chat._end_session()
        groupchat._selection_in_progress = previous
    last = history[-1].get("content") if history else ""
    result = ChatResult(chat_history=history, summary=last if isinstance(last, str) else "")
    chosen = groupchat._process_speaker_selection_result(result, last_speaker, agents)  # type: ignore[attr-defined]
    if not is_agent(chosen):
        raise TypeError(
            f"{type(groupchat).__name__}._process_speaker_selection_result must return the next speaker (an agent "
            f"of the group chat); got {shown(chosen)}."
        )
    record.reason = _reason(groupchat, run, chosen, last, last_speaker)
    return chosen  # type: ignore[no-any-return]


def _checked_pair(groupchat: GroupState, pair: Any) -> tuple[Any, Any]:
    """The ``(checking_agent, speaker_selection_agent)`` an overriding ``_create_internal_agents`` returned."""
    if not (
        isinstance(pair, tuple) and len(pair) == 2
        and callable(getattr(pair[0], "_prepare_chat", None)) and is_agent(pair[1])
    ):
        raise TypeError(
            f"{type(groupchat).__name__}._create_internal_agents must return (checking_agent, "
            f"speaker_selection_agent), two ConversableAgents; got {shown(pair)}."
        )
    return pair[0], pair[1]


def _reason(groupchat: GroupState, run: ClassicRun, chosen: Any, last: Any, last_speaker: Any) -> str:
    owner = type(groupchat).__name__
    if overridden(groupchat, "_process_speaker_selection_result"):
        return f"auto: {owner}._process_speaker_selection_result chose {chosen.name}"
    if run.chosen is not None and chosen is run.chosen:
        return f"auto: the model named {chosen.name} (attempt {run.attempt} of {run.max_attempts})"
    if isinstance(last, str) and AGENT_SELECTED in last:
        return f"auto: the selection chat ended with {last!r} ({owner}._validate_speaker_name)"
    return (
        f"auto: no single agent named in {run.attempt} attempt(s); "
        f"falling back to the next candidate after {getattr(last_speaker, 'name', None)}: {chosen.name}"
    )
