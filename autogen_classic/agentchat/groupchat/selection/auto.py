"""The "auto" speaker-selection method: a model names the next speaker in a nested two-agent chat.

A ``checking_agent`` sends the selection prompt to a ``speaker_selection_agent`` (the model, whose
system message lists the roles and whose history is the group's conversation). The checking agent
counts the agent names in each answer: exactly one name selects that agent; several names or none
trigger a follow-up prompt (``select_speaker_auto_multiple_template`` /
``select_speaker_auto_none_template``), up to ``max_retries_for_selecting_speaker`` times. When no
single agent was named, the next candidate after the last speaker (in group order) speaks.

Both agents, and so the model client, are built once per group chat and reused for every
selection; they are rebuilt only when the selector's model configuration changes. When nothing can
observe the two agents, their turns run directly (:mod:`.direct_turns`): the same messages and
model requests without sending each message from one agent to the other.
"""

from __future__ import annotations

import copy
import functools
import re
import warnings
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

import openai
from termcolor import colored

from ....cache import Cache
from ....coding.utils import content_str
from ....events.chat_events import (
    SpeakerAttemptFailedMultipleAgentsEvent,
    SpeakerAttemptFailedNoAgentsEvent,
    SpeakerAttemptSuccessfulEvent,
)
from ....io.emit import emit, emit_print
from ....oai.errors import AllEndpointsFailedError
from ...agent import Agent
from ...conversable_agent import ConversableAgent
from ...conversable.tools.responses import ToolResponseScan
from ..steps import a_run_steps, run_steps
from .direct_turns import DirectTurns
from .first_turn import first_turn_agent
from .role_match import role_matched_agent
from .state import GroupState
from .structured import (
    addressed_agent,
    candidate_order,
    declares_structured_output,
    parse_structured_answer,
    selection_response_format,
    serves_embedded_model_only,
    setting_or,
    structured_prompt_messages,
)
from .trace import SelectionAttempt, SelectionRecord, shared_mentions, shared_text

__all__ = [
    "SpeakerSelectorChat",
    "effective_llm_config",
    "follow_up_prompt",
    "mentioned_agents",
    "print_attempt",
    "read_answer",
    "register_custom_model_clients",
    "selector_chat_for",
    "NO_SELECTION_MODEL",
]

CHECKING_AGENT_NAME = "checking_agent"
# What an endpoint that does not take the structured request may raise (after failover, the wrapper's error).
_STRUCTURED_FAILURES = (openai.BadRequestError, openai.UnprocessableEntityError, AllEndpointsFailedError)
SELECTION_AGENT_NAME = "speaker_selection_agent"


@dataclass
class _CreateStep:
    """A step of one selection: the structured request to the selector's model client."""

    client: Any
    request: dict[str, Any]

    def run(self) -> Any:
        return self.client.create(**self.request)

    async def a_run(self) -> Any:
        return await self.client.a_create(**self.request)


@dataclass
class NestedChatStep:
    """A step of one selection: the classic nested chat, run turn by turn (no chat result is built)."""

    checking: ConversableAgent
    selector: ConversableAgent
    start: Any
    max_turns: int
    silent: bool

    def run(self) -> Any:
        return self.checking._run_turns(self.selector, self.start, self.max_turns, self.silent)

    async def a_run(self) -> Any:
        return await self.checking._a_run_turns(self.selector, self.start, self.max_turns, self.silent)


# ----------------------------------------------------------------- name matching
@functools.lru_cache(maxsize=1024)  # built for every candidate on every selection otherwise
def _name_pattern(name: str) -> re.Pattern[str]:
    # Word boundaries are "a non-word character or the padded edge"; every variant is escaped,
    # so names with regex-special characters ("c++", "a.b") match literally.
    variants = dict.fromkeys([name, name.replace("_", " "), name.replace("_", r"\_")])
    alternatives = "|".join(re.escape(v) for v in variants)
    return re.compile(r"(?<=\W)(" + alternatives + r")(?=\W)")


@functools.lru_cache(maxsize=1024)
def _name_parts(name: str) -> tuple[str, ...]:
    return tuple(part for part in name.split("_") if part)


def mentioned_agents(message_content: str | list[Any] | dict[str, Any] | None, agents: list[Agent]) -> dict[str, int]:
    """Count how many times each agent is mentioned in a text.

    Names match case-sensitively and as whole words; an underscore in a name also matches a space
    ("Story_writer" matches "Story writer") or an escaped underscore ("Story\\_writer").

    Args:
        message_content: a string, a multimodal content list, or a message dict (its "content" is used).
        agents: the agents whose names are searched for.

    Returns:
        Dict: agent name -> number of mentions, for the agents mentioned at least once (in ``agents`` order).
    """
    if isinstance(message_content, dict):
        message_content = message_content.get("content")
    text = f" {content_str(message_content)} "  # padding lets names at the edges match
    mentions: dict[str, int] = {}
    for agent in agents:
        name = agent.name
        # Every variant of a name contains each of its underscore-separated parts: a cheap first test.
        for part in _name_parts(name):
            if part not in text:
                break
        else:
            count = len(_name_pattern(name).findall(text))
            if count > 0:
                mentions[name] = count
    return mentions


# ----------------------------------------------------------------- model configuration
def effective_llm_config(groupchat: GroupState, selector: Any | None) -> dict[str, Any] | None:
    """Return the model configuration of the "auto" selector, or None when no model is configured.

    ``select_speaker_auto_llm_config`` wins; otherwise the selector's (the manager's) ``llm_config``.
    """
    config = groupchat.select_speaker_auto_llm_config or getattr(selector, "llm_config", None)
    return config if isinstance(config, dict) and config else None


NO_SELECTION_MODEL = (
    "The group chat's internal speaker selection agent does not have an LLM configuration. Please provide "
    "a valid LLM config to the group chat's GroupChatManager or set it with the "
    "select_speaker_auto_llm_config parameter."
)
"""Raised (ValueError) when "auto" selection must ask a model and none is configured, as in AG2 Classic 0.14."""


def _register_client_from_config(groupchat: GroupState, agent: ConversableAgent, config: dict[str, Any]) -> None:
    wanted = config.get("model_client_cls")
    if not wanted:
        return
    classes = groupchat.select_speaker_auto_model_client_cls
    if not classes:
        raise ValueError(
            "A custom model was detected in the config but no 'model_client_cls' "
            "was supplied for registration in GroupChat."
        )
    if isinstance(classes, list):
        matching = list(dict.fromkeys(cls for cls in classes if cls.__name__ == wanted))
        if len(matching) > 1:
            raise RuntimeError(f"More than one unique 'model_client_cls' with __name__ '{wanted}'.")
        if not matching:
            raise ValueError(
                "No model's __name__ matches the model client class "
                f"'{wanted}' specified in select_speaker_auto_llm_config."
            )
        agent.register_model_client(matching[0])
    else:
        agent.register_model_client(classes)


def register_custom_model_clients(groupchat: GroupState, agent: ConversableAgent, config: dict[str, Any]) -> None:
    # The effective config (the group's or the manager's): either may name a custom client class.
    for entry in config.get("config_list", [config]):
        _register_client_from_config(groupchat, agent, entry)


# ----------------------------------------------------------------- one selection
@dataclass
class _Session:
    """The state of one selection, read by the checking agent's reply function."""

    groupchat: GroupState
    agents: list[Agent]
    record: SelectionRecord
    max_attempts: int
    prompt_role: str
    attempt: int = 0
    chosen: Agent | None = None
    mentions: dict[str, int] = field(default_factory=dict)


_ATTEMPT_EVENTS = {
    "selected": SpeakerAttemptSuccessfulEvent,
    "multiple": SpeakerAttemptFailedMultipleAgentsEvent,
}


def print_attempt(outcome: str, attempt: int, total: int, mentions: dict[str, int]) -> None:
    """Print the outcome of attempt ``attempt`` of ``total`` (``select_speaker_auto_verbose``)."""
    event = _ATTEMPT_EVENTS.get(outcome, SpeakerAttemptFailedNoAgentsEvent)
    emit(event, mentions=dict(mentions), attempt=attempt, attempts_left=total - attempt, verbose=True)


def read_answer(
    messages: list[dict[str, Any]], agents: list[Agent], count: Callable[..., dict[str, int]] = mentioned_agents
) -> tuple[str, dict[str, int], str]:
    """Read the selector's last answer: ``(its text, the agents it mentions, the outcome)``.

    The outcome is "selected" (one agent named), "multiple", "none" (no agent named) or "invalid" (no text);
    ``count(text, agents)`` counts the mentions.
    """
    content = messages[-1].get("content") if messages else None
    text = content_str(content).strip() if isinstance(content, (str, list)) else ""
    mentions = count(text, agents) if text else {}
    if not text:
        return text, mentions, "invalid"
    if len(mentions) == 1:
        return text, mentions, "selected"
    return text, mentions, "multiple" if mentions else "none"


def follow_up_prompt(groupchat: GroupState, outcome: str, agents: list[Agent]) -> dict[str, Any]:
    """The checking agent's next prompt after an answer that named several agents or none."""
    template = (
        groupchat.select_speaker_auto_multiple_template if outcome == "multiple"
        else groupchat.select_speaker_auto_none_template
    )
    return {
        "content": template.format(agentlist=f"{[agent.name for agent in agents]}"),
        "name": CHECKING_AGENT_NAME,
        "override_role": groupchat.role_for_select_speaker_messages or "system",
    }


class SpeakerSelectorChat:
    """The nested chat of "auto" selection: a checking agent and a model-backed speaker selection agent.

    Args:
        groupchat: the group chat it selects for.
        llm_config: the model configuration of the speaker selection agent.
    """

    # Run the nested chat's turns directly when nobody can observe its agents (see direct_turns);
    # False always runs the classic nested chat (the tests compare both).
    _direct_turns = True

    def __init__(self, groupchat: GroupState, llm_config: dict[str, Any]) -> None:
        # A deep snapshot: edits to the group's (or manager's) config, even nested ones, trigger a rebuild.
        self.llm_config_snapshot = copy.deepcopy(llm_config)
        # What the snapshot says never changes: read once, not on every selection.
        self._declares_structured = declares_structured_output(self.llm_config_snapshot)
        self._embedded_only = serves_embedded_model_only(self.llm_config_snapshot)
        self.model_client_cls = groupchat.select_speaker_auto_model_client_cls
        self.checking_agent = ConversableAgent(CHECKING_AGENT_NAME, llm_config=False, human_input_mode="NEVER")
        self.checking_agent.register_reply(
            [ConversableAgent, None], reply_func=self._validate_speaker_name, remove_other_reply_funcs=True
        )
        self.speaker_selection_agent = ConversableAgent(
            SELECTION_AGENT_NAME, system_message="", llm_config=llm_config, human_input_mode="NEVER"
        )
        register_custom_model_clients(groupchat, self.speaker_selection_agent, llm_config)
        self._transforms: Any = None
        self._session: _Session | None = None
        self._direct = DirectTurns(self.checking_agent, self.speaker_selection_agent, self._validate_speaker_name)
        self._group_scan = ToolResponseScan()
        # Set when the endpoint rejected the structured request: the classic path runs from then on.
        self.structured_rejected: str | None = None
        # While the classic hooks run a selection on this pair: the checking agent's reply function.
        self._classic_judge: Callable[..., tuple[bool, Any]] | None = None

    @property
    def client(self) -> Any:
        """The ``OpenAIWrapper`` that makes the selection calls."""
        return self.speaker_selection_agent.client

    def matches(self, groupchat: GroupState, llm_config: dict[str, Any]) -> bool:
        """Whether this chat was built for ``llm_config`` and the group's current model client classes."""
        return llm_config == self.llm_config_snapshot and (
            groupchat.select_speaker_auto_model_client_cls is self.model_client_cls
        )

    # ------------------------------------------------------------- running
    def _begin(
        self, groupchat: GroupState, messages: list[dict[str, Any]], agents: list[Agent], record: SelectionRecord
    ) -> dict[str, Any]:
        """Load the conversation into the nested chat and return its first message."""
        role = groupchat.role_for_select_speaker_messages or "system"
        prompt = groupchat.select_speaker_prompt(agents)
        if prompt is not None:
            start: dict[str, Any] = {"content": prompt, "name": CHECKING_AGENT_NAME, "override_role": role}
        elif messages:
            # Without a closing prompt the last group message opens the chat (sent once, not duplicated).
            start = messages.pop()
            role = start.get("role") or "user"
        else:
            start = {
                "content": groupchat.select_speaker_msg(agents), "name": CHECKING_AGENT_NAME, "override_role": role
            }
        selector = self.speaker_selection_agent
        selector.update_system_message(groupchat.select_speaker_msg(agents))
        selector._oai_messages.clear()
        selector._oai_messages[self.checking_agent] = messages
        selector.client_cache = Cache.get_current_cache()  # back to None in _end_session
        if self._group_scan.is_plain(groupchat.messages):
            # The copy holds no tool responses either: the selector need not read it through to know.
            selector._tool_response_scan.mark_plain(messages)
        self.checking_agent.clear_history()
        self._attach_transforms(groupchat._speaker_selection_transforms)
        self._session = _Session(groupchat, agents, record, 1 + groupchat.max_retries_for_selecting_speaker, role)
        return start

    def _attach_transforms(self, transforms: Any) -> None:
        if transforms is self._transforms:
            return
        hooks = self.speaker_selection_agent.hook_lists["process_all_messages_before_reply"]
        if self._transforms is not None:
            hooks[:] = [h for h in hooks if getattr(h, "__self__", None) is not self._transforms]
        if transforms is not None:
            transforms.add_to_agent(self.speaker_selection_agent)
        self._transforms = transforms

    def _turns(self, groupchat: GroupState) -> tuple[int, bool]:
        """The nested chat's turn limit (a prompt and an answer per attempt) and whether it prints."""
        assert self._session is not None
        self.checking_agent._prepare_chat(self.speaker_selection_agent, False, reply_at_receive=False)
        return 2 * max(1, self._session.max_attempts), not groupchat.select_speaker_auto_verbose

    def run(
        self, groupchat: GroupState, last_speaker: Agent, messages: list[dict[str, Any]], agents: list[Agent],
        record: SelectionRecord,
    ) -> Agent:
        """Run one selection: ``messages`` (a copy owned by this call) is what the model reads."""
        return run_steps(self._steps(groupchat, last_speaker, messages, agents, record))  # type: ignore[arg-type]

    async def a_run(
        self, groupchat: GroupState, last_speaker: Agent, messages: list[dict[str, Any]], agents: list[Agent],
        record: SelectionRecord,
    ) -> Agent:
        """(async) Run one selection; see :meth:`run`."""
        return await a_run_steps(self._steps(groupchat, last_speaker, messages, agents, record))  # type: ignore[arg-type]

    def _steps(
        self, groupchat: GroupState, last_speaker: Agent, messages: list[dict[str, Any]], agents: list[Agent],
        record: SelectionRecord,
    ) -> Generator[Any, Any, Agent]:
        """One selection, as the steps that wait for the model; :meth:`run` and :meth:`a_run` take them
        with the group chat's step drivers (``groupchat.steps``).

        Yields a :class:`_CreateStep` for a structured request, a :class:`NestedChatStep` for the classic
        nested chat, or a ``ReplyStep`` for one reply function of the speaker selection agent when the
        nested chat runs directly; receives each step's outcome, and returns the chosen agent.
        """
        before = usage_totals(self.client)
        try:
            structured = self._structured(groupchat)
            ruled = self._rule_choice(groupchat, agents, record, structured)
            if ruled is not None:
                return ruled
            if structured:
                request = self._structured_request(groupchat, messages, agents)
                try:
                    response = yield _CreateStep(self.client, request)
                except _STRUCTURED_FAILURES as err:
                    self._structured_refused(groupchat, err)
                    response = None  # the classic free-text path below decides
                chosen = self._structured_outcome(groupchat, response, agents, record)
                if chosen is not None:
                    return chosen
            start = self._begin(groupchat, messages, agents, record)
            try:
                # The selector uses the cache of an enclosing ``with Cache...:`` block (set in _begin), as the
                # classic nested chat started without a cache does; outside one, selections are never cached.
                max_turns, silent = self._turns(groupchat)
                if self._direct_turns and self._direct.possible(
                    groupchat.select_speaker_auto_verbose, self._transforms
                ):
                    yield from self._direct.turns(start, max_turns)
                else:
                    # The classic nested chat, run turn by turn: its result is never read, so none is built.
                    yield NestedChatStep(self.checking_agent, self.speaker_selection_agent, start, max_turns, silent)
            except BaseException:
                self._end_session()
                raise
        finally:
            delta = usage_delta(before, usage_totals(self.client))
            if delta:  # the record's own empty dict otherwise
                record.usage = delta
        return self._finish(groupchat, last_speaker)

    # ------------------------------------------------------------- structured selection
    def _structured(self, groupchat: GroupState) -> bool:
        return self.structured_rejected is None and setting_or(
            groupchat.select_speaker_structured_output, self._declares_structured
        )

    def _rule_choice(
        self, groupchat: GroupState, agents: list[Agent], record: SelectionRecord, structured: bool
    ) -> Agent | None:
        """The candidate a rule settles without a model call: addressed by name, then asked for by role."""
        last = groupchat.messages[-1] if groupchat.messages else None
        wanted = groupchat.select_speaker_auto_addressed
        chosen = None
        if wanted is True or (wanted is None and structured):
            chosen = addressed_agent(last, agents)
            reason, note = "addresses {name} by name", "addresses {name}"
        if chosen is None and setting_or(groupchat.select_speaker_auto_role_match, self._embedded_only):
            # On a new task, a description that says who engages first settles it before any word is weighed.
            chosen = first_turn_agent(last, agents, groupchat.messages)
            reason, note = "opens a new task, which {name} takes first (first-turn rule)", "opens a task {name} takes first"
            if chosen is None:
                chosen = role_matched_agent(last, agents, first_turn=False)
                reason, note = "asks for what {name} does (role match)", "asks for {name}'s role"
        if chosen is None:
            return None
        record.reason = f"auto: the last message {reason.format(name=chosen.name)} (no model call)"
        if groupchat.select_speaker_auto_verbose:
            text = f">>>>>>>> The last message {note.format(name=chosen.name)}; no model call needed."
            emit_print(colored(text, "green"))
        return chosen

    def _structured_request(
        self, groupchat: GroupState, messages: list[dict[str, Any]], agents: list[Agent]
    ) -> dict[str, Any]:
        transforms = groupchat._speaker_selection_transforms
        seen = transforms._transform_messages(messages) if transforms is not None and messages else messages
        # The schema lists the names in the prompt's order, so both show the model the same list.
        ordered = candidate_order(seen[-1] if seen else None, agents)
        return {
            "messages": structured_prompt_messages(groupchat, seen, ordered),
            "response_format": selection_response_format(ordered),
            "cache": Cache.get_current_cache(),  # only an enclosing ``with Cache...:`` block's, as for the nested chat
        }

    def _structured_refused(self, groupchat: GroupState, err: Exception) -> None:
        """Turn structured selection off when the endpoint refused the request format; re-raise other failures."""
        errors = [a.error for a in err.attempts] if isinstance(err, AllEndpointsFailedError) else [err]
        if not errors or not all(isinstance(e, (openai.BadRequestError, openai.UnprocessableEntityError)) for e in errors):
            raise err
        self.structured_rejected = str(err).splitlines()[-1].strip()
        warnings.warn(
            "The speaker selection endpoint refused the structured request "
            f"({self.structured_rejected}); 'auto' selection uses the classic free-text prompt from now on. "
            "Set 'structured_output': False in its config_list entry (or select_speaker_structured_output=False) "
            "to skip the attempt.",
            UserWarning,
            stacklevel=7,  # past the selection steps, their driver and the group chat: at the caller
        )

    def _structured_outcome(
        self, groupchat: GroupState, response: Any, agents: list[Agent], record: SelectionRecord
    ) -> Agent | None:
        """Record the structured answer; return the chosen agent, or None to continue on the classic path."""
        if response is None:
            return None
        texts = self.client.extract_text_or_completion_object(response)
        text = texts[0] if texts and isinstance(texts[0], str) else ""
        chosen = parse_structured_answer(text, agents)
        outcome = "selected" if chosen is not None else "invalid"
        mentions = {chosen.name: 1} if chosen is not None else {}
        record.attempts.append(SelectionAttempt("structured", text, mentions, outcome))  # type: ignore[arg-type]
        if groupchat.select_speaker_auto_verbose:
            if chosen is not None:
                emit_print(colored(f">>>>>>>> Structured speaker selection chose: {chosen.name}", "green"))
            else:
                emit_print(colored(">>>>>>>> Structured speaker selection named no candidate; asking again in "
                                   "free text.", "red"))
        if chosen is not None:
            record.reason = f"auto: the model chose {chosen.name} (structured answer, one call)"
        return chosen

    def _end_session(self) -> _Session | None:
        session, self._session = self._session, None
        # Drop the nested conversation so it does not pin the group's history until the next selection.
        self.speaker_selection_agent._oai_messages.clear()
        self.speaker_selection_agent.client_cache = None
        self.checking_agent.clear_history()
        return session

    def _finish(self, groupchat: GroupState, last_speaker: Agent) -> Agent:
        session = self._end_session()
        assert session is not None
        record = session.record
        if session.chosen is not None:
            record.reason = shared_text(
                f"auto: the model named {session.chosen.name} (attempt {session.attempt} of {session.max_attempts})"
            )
            return session.chosen
        fallback = groupchat.next_agent(last_speaker, session.agents)
        record.reason = (
            f"auto: no single agent named in {session.attempt} attempt(s); "
            f"falling back to the next candidate after {getattr(last_speaker, 'name', None)}: {fallback.name}"
        )
        return fallback

    def _validate_speaker_name(
        self, recipient: ConversableAgent, messages: list[dict[str, Any]], sender: Any, config: Any
    ) -> tuple[bool, str | dict[str, Any] | None]:
        """Reply function of the checking agent: judge the model's last answer."""
        session = self._session
        if session is None:  # not inside a selection: say nothing, which ends the nested chat
            return True, None
        if self._classic_judge is not None:  # the classic hooks judge (see classic_chat)
            return self._classic_judge(recipient, messages, sender, config)
        groupchat = session.groupchat
        session.attempt += 1
        attempts_left = session.max_attempts - session.attempt
        text, mentions, outcome = read_answer(messages, session.agents)
        attempt = SelectionAttempt(session.prompt_role, text, shared_mentions(mentions), outcome)  # type: ignore[arg-type]
        session.record.attempts.append(attempt)
        if groupchat.select_speaker_auto_verbose:
            print_attempt(outcome, session.attempt, session.max_attempts, mentions)

        if outcome == "selected":
            session.chosen = groupchat.agent_by_name(next(iter(mentions)))
            return True, None
        if attempts_left <= 0:
            return True, None
        prompt = follow_up_prompt(groupchat, outcome, session.agents)
        session.prompt_role = prompt["override_role"]
        return True, prompt


def selector_chat_for(groupchat: GroupState, selector: Any | None) -> SpeakerSelectorChat | None:
    """Return the group's nested selector chat for the current model configuration (None without a model).

    The chat is cached on the group chat and rebuilt only when the configuration changes.
    """
    config = effective_llm_config(groupchat, selector)
    if config is None:
        return None
    cached = groupchat._selector_chat
    if cached is None or not cached.matches(groupchat, config):
        cached = SpeakerSelectorChat(groupchat, config)
        groupchat._selector_chat = cached
    return cached


# ----------------------------------------------------------------- usage of the selection calls
_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens", "cost")


def usage_totals(client: Any) -> tuple[float, float, float, float]:
    """The client's total usage so far, summed over its models, in ``_USAGE_KEYS`` order."""
    summary = getattr(client, "total_usage_summary", None)
    prompt = completion = total = cost = 0.0
    if summary:
        for model, entry in summary.items():
            if model == "total_cost" or not isinstance(entry, dict):
                continue
            prompt += entry.get("prompt_tokens", 0) or 0
            completion += entry.get("completion_tokens", 0) or 0
            total += entry.get("total_tokens", 0) or 0
            cost += entry.get("cost", 0) or 0
    return prompt, completion, total, cost


def usage_delta(before: tuple[float, ...], after: tuple[float, ...]) -> dict[str, Any]:
    if after == before:
        return {}
    delta: dict[str, Any] = {key: a - b for key, a, b in zip(_USAGE_KEYS, after, before)}
    if not any(delta.values()):
        return {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        delta[key] = int(delta[key])
    return delta
