"""``GroupChat``: the participants, the shared message list and the speaker-selection settings.

Classic code imports it from :mod:`autogen_classic.agentchat.groupchat`.

The dataclass holds the settings and the simple helpers (names, lookup, round robin, prompt
texts). Choosing the next speaker is delegated to the :mod:`.selection` package: its pipeline
narrows the candidates (function-call filter, repeat rule, transition graph, eligibility policies)
and runs the method (``auto``: the model-driven nested chat); every decision is recorded in
``selection_log`` (see :mod:`.selection.trace`). The classic hooks that subclasses override
(``_prepare_and_select_agents``, ``_validate_speaker_name``, ...) come from :mod:`.selection.hooks`.
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from ...coding.utils import content_str
from ...eligibility import validate_eligibility_policies
from ...exception_utils import (
    AgentNameConflict,
    InvalidArgumentTypeError,
    InvalidAttributeTypeError,
    NotAnAgentError,
    UndefinedNextAgent,
)
from ...graph_utils import (
    check_graph_validity,
    conditional_fingerprint,
    invert_disallowed_to_allowed,
    plain_transitions,
    transition_conditions,
)
from ..agent import Agent
from ..conversable.agent_args import shown, warn_argument
from ..contrib.capabilities.transform_messages import TransformMessages
from ..conversable_agent import ConversableAgent
from .selection import pipeline
from .selection.auto import SpeakerSelectorChat
from .selection.hooks import ClassicSelectionHooks
from .selection.manual import ask_console_for_speaker
from .selection.state import SPEAKER_SELECTION_METHODS, check_speaker_selection_method
from .selection.trace import SelectionRecord
from ..termination import TerminationCondition, validate_termination
from .prompts import SELECT_SPEAKER_PROMPT_TEMPLATE, check_template_fields, participant_roles, selection_text
from .transcript import TranscriptWriter, open_transcript

__all__ = ["GroupChat"]

# The classic module name: logging configured for it applies here.
logger = logging.getLogger("autogen_classic.agentchat.groupchat")

SpeakerSelectionMethod = Literal["auto", "manual", "random", "round_robin"] | Callable[..., Any]


def _check_switch(name: str, value: Any, none_means: str) -> None:
    """A TypeError unless ``value`` is None (``none_means``: what the chat then decides), True or False."""
    if not (value is None or isinstance(value, bool)):
        raise TypeError(f"{name} must be None ({none_means}), True or False, got {type(value).__name__}.")


@dataclass
class GroupChat(ClassicSelectionHooks):
    """(In preview) A group chat: participating agents, their shared messages and how the next speaker is chosen.

    Args:
        agents: the participating agents.
        messages: the messages of the group chat (default: a new empty list).
        max_round: the maximum number of rounds (0 or less: a chat records nothing and ends at once; a value
            that is not an int is refused with TypeError when a chat starts).
        admin_name: the name of the admin agent; a KeyboardInterrupt makes the admin take over.
        func_call_filter: when the last message suggests a function or tool call, choose the next speaker
            among the agents whose ``function_map`` holds that function.
        speaker_selection_method: "auto" (a model chooses), "manual" (the person at the console chooses),
            "random", "round_robin" (any letter case), or a function ``f(last_speaker, groupchat)`` returning
            an agent of the group, one of these method names, or None to end the chat gracefully.
            Any other value is kept (with a warning) and refused when a speaker is selected.
            In "manual" mode, empty input, ``q``, closed input (EOF), Ctrl-C or three failed tries fall back to
            "auto" selection when a model is configured, else to round robin among the candidates.
            In "auto" mode without any model configured, a warning is given once and round robin is used.
        max_retries_for_selecting_speaker: how many times "auto" asks the model again when its answer names
            several agents or none.
        allow_repeat_speaker: True (anyone may speak twice in a row), False (no one may) or a list of the
            agents that may; exclusive with ``allowed_or_disallowed_speaker_transitions``.
        allowed_or_disallowed_speaker_transitions: a graph ``{agent: [agents]}`` of the allowed (or
            disallowed) transitions between speakers; an item may be a ``ConditionalEdge(target, condition,
            label)`` whose ``condition(groupchat)`` is asked at selection time (allowed only while True in an
            "allowed" graph, blocked only while True in a "disallowed" one).
        speaker_transitions_type: "allowed" or "disallowed"; required with a transition graph.
        enable_clear_history: let a human clear the agents' histories with "clear history".
        send_introductions: start with a round of introductions so the agents know each other.
        select_speaker_message_template: the first message the "auto" selector sees; ``{roles}`` becomes the
            agents and their descriptions, ``{agentlist}`` the list of names.
        select_speaker_prompt_template: the last message the "auto" selector sees (``{agentlist}``);
            None to omit it.
        select_speaker_auto_multiple_template: the follow-up prompt when the answer names several agents.
        select_speaker_auto_none_template: the follow-up prompt when the answer names no agent
            (``{agentlist}``).
        select_speaker_transform_messages: a ``TransformMessages`` applied to what the "auto" selector sees.
        select_speaker_auto_verbose: print every attempt of the "auto" selection.
        select_speaker_auto_model_client_cls: custom model client class(es) for the "auto" selector.
        select_speaker_auto_llm_config: the model configuration of the "auto" selector (default: the
            manager's ``llm_config``).
        role_for_select_speaker_messages: the role of the selector prompts, usually "system" or "user".
        eligibility_policies: objects with ``is_eligible(agent, ctx)`` (``AgentEligibilityPolicy``); an agent
            is a candidate only if all accept it. ``ctx`` is a ``SelectionContext``: ``round`` the number of
            messages so far, ``last_speaker`` and ``participants`` names. Not applied when a custom selection
            function returns an agent directly.
        select_speaker_structured_output: whether "auto" asks the model for a JSON answer constrained to the
            eligible names (one call, no requery): None (default) when every endpoint of the selector's
            ``config_list`` declares ``structured_output``, True always, False never (the classic prompt).
        select_speaker_auto_addressed: whether "auto" takes, without asking the model, the one candidate the
            last message addresses by name ("Coder, please ...", "@coder"): None (default) together with
            structured selection, True always, False never.
        transcript_path: a JSON-lines file to which every appended message is written at once (flushed and
            fsync-ed), for crash-safe resumption with ``load_transcript`` and ``GroupChatManager.resume``;
            locked against a second writer until ``close_transcript()`` or garbage collection. None: no file.
        select_speaker_auto_role_match: whether "auto" takes, without asking the model, the one candidate
            whose name and description the last message clearly asks for by their words ("the script needs
            to be executed" for an agent that "executes the code"): None (default) when every endpoint of
            the selector serves the embedded model, True always, False never.
        termination: a termination condition (``TextMentionTermination("TERMINATE") | MaxMessageTermination(25)``,
            ...) checked on every message appended; when it fires the chat ends, ``is_complete`` is set and
            the manager's ``stop_message`` and the chat result's ``termination`` say which condition fired.
        manual_selection_view: how "manual" selection asks: "classic" (default: the classic numbered list and
            prompt) or "rich" (the list followed by the candidates' descriptions, who may not speak and why, and
            the suggestion of the rules that need no model call). Both take numbers, names, ``?``, ``h`` and ``x``.
    """

    agents: list[Agent]
    messages: list[dict[str, Any]] = field(default_factory=list)
    max_round: int = 10
    admin_name: str = "Admin"
    func_call_filter: bool = True
    speaker_selection_method: SpeakerSelectionMethod = "auto"
    max_retries_for_selecting_speaker: int = 2
    allow_repeat_speaker: bool | list[Agent] | None = None
    allowed_or_disallowed_speaker_transitions: dict[Any, Any] | None = None
    speaker_transitions_type: Literal["allowed", "disallowed"] | None = None
    enable_clear_history: bool = False
    send_introductions: bool = False
    select_speaker_message_template: str = """You are in a role play game. The following roles are available:
                {roles}.
                Read the following conversation.
                Then select the next role from {agentlist} to play. Only return the role."""
    select_speaker_prompt_template: str | None = SELECT_SPEAKER_PROMPT_TEMPLATE
    select_speaker_auto_multiple_template: str = """You provided more than one name in your text, please return just the name of the next speaker. To determine the speaker use these prioritised rules:
    1. If the context refers to themselves as a speaker e.g. "As the..." , choose that speaker's name
    2. If it refers to the "next" speaker name, choose that name
    3. Otherwise, choose the first provided speaker's name in the context
    The names are case-sensitive and should not be abbreviated or changed.
    Respond with ONLY the name of the speaker and DO NOT provide a reason."""
    select_speaker_auto_none_template: str = """You didn't choose a speaker. As a reminder, to determine the speaker use these prioritised rules:
    1. If the context refers to themselves as a speaker e.g. "As the..." , choose that speaker's name
    2. If it refers to the "next" speaker name, choose that name
    3. Otherwise, choose the first provided speaker's name in the context
    The names are case-sensitive and should not be abbreviated or changed.
    The only names that are accepted are {agentlist}.
    Respond with ONLY the name of the speaker and DO NOT provide a reason."""
    select_speaker_transform_messages: TransformMessages | None = None
    select_speaker_auto_verbose: bool | None = False
    select_speaker_auto_model_client_cls: type | list[type] | None = None
    select_speaker_auto_llm_config: dict[str, Any] | Literal[False] | None = None
    role_for_select_speaker_messages: str | None = "system"
    # Keyword-only: in the signature it follows every positional field (eligibility_policies, position 21 as in
    # AG2 0.14, then this package's own), so positional calls of the classic and the earlier fields are unchanged.
    manual_selection_view: Literal["classic", "rich"] = field(default="classic", kw_only=True)
    # Position 21, as in AG2 0.14 (the fields of this package follow).
    eligibility_policies: list[Any] = field(default_factory=list)
    select_speaker_structured_output: bool | None = None
    select_speaker_auto_addressed: bool | None = None
    transcript_path: str | os.PathLike[str] | None = None
    select_speaker_auto_role_match: bool | None = None
    termination: TerminationCondition | None = None

    _VALID_SPEAKER_SELECTION_METHODS: ClassVar[list[str]] = list(SPEAKER_SELECTION_METHODS)
    _VALID_SPEAKER_TRANSITIONS_TYPE: ClassVar[list[str | None]] = ["allowed", "disallowed", None]

    DEFAULT_INTRO_MSG = (
        "Hello everyone. We have assembled a great team today to answer questions and solve tasks. In attendance are:"
    )

    allowed_speaker_transitions_dict: dict[Any, list[Any]] = field(init=False)
    selection_log: list[SelectionRecord] = field(init=False, default_factory=list, repr=False, compare=False)
    is_complete: bool = field(init=False, default=False, repr=False, compare=False)
    """True once a termination condition (or ``is_termination_msg``) ended the chat; ``reset()`` clears it.
    Reaching ``max_round`` does not set it."""
    # Inter-agent checks of a safeguard policy (apply_safeguard_policy puts its enforcer here): each message
    # forwarded to a participant passes their check_and_act (see guardrail_turns.py).
    _inter_agent_guardrails: list[Any] = field(init=False, default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check_agents()
        self._warn_about_run_settings()
        if self.allow_repeat_speaker is not None and not isinstance(self.allow_repeat_speaker, (bool, list)):
            raise ValueError("GroupChat allow_repeat_speaker should be a bool or a list of Agents.")
        if isinstance(self.speaker_transitions_type, str):
            self.speaker_transitions_type = self.speaker_transitions_type.lower()  # type: ignore[assignment]
        if self.speaker_transitions_type not in self._VALID_SPEAKER_TRANSITIONS_TYPE:
            raise ValueError(
                f"GroupChat speaker_transitions_type is set to '{self.speaker_transitions_type}'. "
                f"It should be one of {self._VALID_SPEAKER_TRANSITIONS_TYPE} (case insensitive). "
            )
        # Without a graph, repeats are allowed unless said otherwise (the classic default).
        if self.allowed_or_disallowed_speaker_transitions is None and self.allow_repeat_speaker is None:
            self.allow_repeat_speaker = True
        self._graph_signature: tuple[Any, ...] | None = None
        self.transition_conditions: dict[tuple[Any, Any], tuple[Any, str]] = {}
        self.allowed_speaker_transitions_dict = self._build_transition_graph()

        self._check_templates()
        if self.select_speaker_transform_messages is not None and not isinstance(
            self.select_speaker_transform_messages, TransformMessages
        ):
            raise ValueError("select_speaker_transform_messages must be None or MessageTransforms.")
        if not isinstance(self.select_speaker_auto_verbose, bool):
            # The classic error type.
            raise ValueError("select_speaker_auto_verbose cannot be None or non-bool")  # noqa: TRY004
        if self.select_speaker_auto_llm_config not in (None, False) and not isinstance(
            self.select_speaker_auto_llm_config, dict
        ):
            raise TypeError(
                "select_speaker_auto_llm_config must be None, False or an llm_config dict (with a 'config_list'), "
                f"got {type(self.select_speaker_auto_llm_config).__name__}."
            )
        _check_switch("select_speaker_structured_output", self.select_speaker_structured_output,
                      "use it when every endpoint declares 'structured_output'")
        _check_switch("select_speaker_auto_addressed", self.select_speaker_auto_addressed,
                      "on together with structured selection")
        _check_switch("select_speaker_auto_role_match", self.select_speaker_auto_role_match,
                      "on for the embedded model")
        self.eligibility_policies = validate_eligibility_policies(self.eligibility_policies)
        self.termination = validate_termination(self.termination, "GroupChat termination")
        if self.manual_selection_view not in ("classic", "rich"):
            raise ValueError(
                f"GroupChat manual_selection_view must be 'classic' (the classic prompt) or 'rich' (descriptions "
                f"and a suggestion shown up front), got {shown(self.manual_selection_view)}."
            )

        # Built on the first "auto" selection and reused afterwards (one model client per group chat).
        self._selector_chat: SpeakerSelectorChat | None = None
        # The generator of "random" selection: None draws from the `random` module (the classic way);
        # a study running chats at once gives each chat its own, so a seed repeats per chat.
        self.random_source: random.Random | None = None
        # Opened last, so that invalid settings above do not leave a locked file behind.
        self._transcript: TranscriptWriter | None = open_transcript(self.transcript_path)

    # ----------------------------------------------------------------- validation helpers
    def _check_agents(self) -> None:
        """Refuse what the classic package refused when building the transition graph; warn about the rest."""
        agents = self.agents
        try:
            iterator = iter(agents)
        except TypeError:
            raise InvalidArgumentTypeError(
                f"'{type(agents).__name__}' object is not iterable: GroupChat agents must be a list of agents, "
                f"got {shown(agents)}."
            ) from None
        if isinstance(agents, (str, bytes)) or iterator is agents:
            # A str gives characters, an iterator is consumed by the graph: neither are agents.
            raise NotAnAgentError(
                "allowed_speaker_transitions_dict has values that are not lists of Agents: "
                f"GroupChat agents must be a list of agents, got {shown(agents)}."
            )
        for index, agent in enumerate(agents):
            if not hasattr(agent, "name"):
                raise NotAnAgentError(
                    "allowed_speaker_transitions_dict has values that are not lists of Agents: "
                    f"GroupChat agents[{index}] must be an agent (e.g. a ConversableAgent), got {shown(agent)}."
                )
        names = [agent.name for agent in agents]
        duplicates = {name for name in names if names.count(name) > 1}
        if duplicates:
            # autogen 0.14 refuses them (ag2 0.7.3 let the later agent shadow the earlier one in every lookup).
            raise ValueError(
                "GroupChat agents must have unique names. Duplicate agent names found: "
                f"{duplicates}. Give each agent its own name (the name is how speakers are chosen and addressed)."
            )
        if not isinstance(agents, (list, tuple)):
            warn_argument(
                f"GroupChat agents should be a list of agents; got {type(agents).__name__}. It is kept as given; "
                "selecting a speaker by position (round robin) fails on it."
            )

    def _warn_about_run_settings(self) -> None:
        """Warn about settings that the classic package accepted here but that fail or do nothing in a chat."""
        max_round = self.max_round
        expected = "GroupChat max_round should be an int >= 1"
        if isinstance(max_round, bool) or not isinstance(max_round, int):
            effect = (
                f"counts as {int(max_round)}" if isinstance(max_round, bool)
                else "starting a chat with this group chat raises TypeError"
            )
            warn_argument(f"{expected}; got {shown(max_round)}. It is kept as given: {effect}.")
        elif max_round < 1:
            warn_argument(
                f"{expected}; got {max_round}. It is kept as given: a chat with this group chat records no "
                "message and ends at once."
            )
        if not isinstance(self.messages, list):
            warn_argument(
                f"GroupChat messages should be a list of message dicts (default: a new empty list); got "
                f"{shown(self.messages)}. It is kept as given, and a chat with this group chat raises AttributeError."
            )
        try:
            check_speaker_selection_method(self.speaker_selection_method, self._VALID_SPEAKER_SELECTION_METHODS)
        except (ValueError, AttributeError) as e:
            kind = "AttributeError" if isinstance(e, AttributeError) else "ValueError"
            warn_argument(f"{e} It is kept as given, and selecting the next speaker raises {kind}.")

    @classmethod
    def _check_speaker_selection_method(cls, method: Any) -> None:
        """Raise as selecting a speaker would for ``method``: ValueError (unknown name) or AttributeError."""
        check_speaker_selection_method(method, cls._VALID_SPEAKER_SELECTION_METHODS)

    def _check_templates(self) -> None:
        if not self.select_speaker_message_template:
            raise ValueError("select_speaker_message_template cannot be empty or None.")
        if self.select_speaker_prompt_template is not None and len(self.select_speaker_prompt_template) == 0:
            self.select_speaker_prompt_template = None
        if not self.role_for_select_speaker_messages:
            raise ValueError("role_for_select_speaker_messages cannot be empty or None.")
        if not self.select_speaker_auto_multiple_template:
            raise ValueError("select_speaker_auto_multiple_template cannot be empty or None.")
        if not self.select_speaker_auto_none_template:
            raise ValueError("select_speaker_auto_none_template cannot be empty or None.")
        check_template_fields(self.select_speaker_message_template, "select_speaker_message_template")
        check_template_fields(self.select_speaker_prompt_template, "select_speaker_prompt_template")
        retries = self.max_retries_for_selecting_speaker
        if not isinstance(retries, int):
            raise ValueError("max_retries_for_selecting_speaker cannot be None or non-int")
        if retries < 0:
            raise ValueError("max_retries_for_selecting_speaker must be greater than or equal to zero")

    def _current_graph_signature(self) -> tuple[Any, ...]:
        repeat = self.allow_repeat_speaker
        transitions = self.allowed_or_disallowed_speaker_transitions
        return (
            tuple(map(id, self.agents)),
            id(transitions),
            self.speaker_transitions_type,
            tuple(map(id, repeat)) if isinstance(repeat, list) else repeat,
            # A graph with conditional edges is copied into its plain view, so changes made in place count.
            None if transitions is None else conditional_fingerprint(transitions),
        )

    def _build_transition_graph(self) -> dict[Any, list[Any]]:
        """Derive the allowed-transitions graph from the settings, and check it.

        A graph may hold ``graph_utils.ConditionalEdge`` items: the returned (plain) graph lists their
        targets as plain targets, and ``transition_conditions`` maps ``(source, target)`` to
        ``(edge, "allow_if")`` for an "allowed" graph or ``(edge, "block_if")`` for a "disallowed" one.
        """
        transitions = self.allowed_or_disallowed_speaker_transitions
        if transitions is not None and self.allow_repeat_speaker is not None:
            raise ValueError(
                "Don't provide both allowed_or_disallowed_speaker_transitions and allow_repeat_speaker in group chat. "
                "Please set one of them to None."
            )
        if transitions is not None and self.speaker_transitions_type is None:
            raise ValueError(
                "GroupChat allowed_or_disallowed_speaker_transitions is not None, but speaker_transitions_type is "
                "None. Please set speaker_transitions_type to either 'allowed' or 'disallowed'."
            )
        if transitions is None:
            repeat = self.allow_repeat_speaker
            graph = {a: [b for b in self.agents if b is not a] for a in self.agents}
            for agent in self.agents:
                if repeat is True or (isinstance(repeat, list) and agent in repeat):
                    graph[agent].append(agent)
        elif self.speaker_transitions_type == "allowed":
            graph = transitions
        else:
            graph = invert_disallowed_to_allowed(transitions, self.agents)
        # Checked with its conditional edges (the errors name them); selection reads the plain view.
        check_graph_validity(allowed_speaker_transitions_dict=graph, agents=self.agents)
        self.transition_conditions = transition_conditions(transitions, self.speaker_transitions_type)
        self._graph_signature = self._current_graph_signature()
        return plain_transitions(graph)

    def transition_graph(self) -> dict[Any, list[Any]]:
        """Return the allowed-transitions graph, rebuilt if the agents or graph settings changed since last built."""
        if self._current_graph_signature() != self._graph_signature:
            self.allowed_speaker_transitions_dict = self._build_transition_graph()
        return self.allowed_speaker_transitions_dict

    # ----------------------------------------------------------------- simple helpers
    @property
    def agent_names(self) -> list[str]:
        """Return the names of the agents in the group chat."""
        return [agent.name for agent in self.agents]

    @property
    def selection_client(self) -> Any:
        """The model client (``OpenAIWrapper``) used by "auto" selection, or None before one was needed."""
        return None if self._selector_chat is None else self._selector_chat.client

    def reset(self) -> None:
        """Reset the group chat: forget the messages and the selection log, clear ``is_complete`` and reset the
        ``termination`` condition."""
        if not callable(getattr(self.messages, "clear", None)):
            raise InvalidAttributeTypeError(
                f"'{type(self.messages).__name__}' object has no attribute 'clear': GroupChat messages must be a "
                f"list of message dicts (or left out: a new empty list); got {shown(self.messages)}."
            )
        self.messages.clear()
        self.selection_log.clear()
        self.is_complete = False
        termination = getattr(self, "termination", None)
        if termination is not None:
            termination.reset()
        transcript = getattr(self, "_transcript", None)  # getattr: subclasses may skip __post_init__
        if transcript is not None:
            transcript.cancel_replay()  # the file is append-only; a new chat is simply added to it

    def close_transcript(self) -> None:
        """Close the ``transcript_path`` file and release its lock; appending afterwards raises ValueError."""
        transcript = getattr(self, "_transcript", None)
        if transcript is not None:
            transcript.close()

    def append(self, message: dict[str, Any], speaker: Agent) -> None:
        """Append a message to the group chat.

        The content is cast to str so that a text-based model can read it; the message's ``name``
        becomes the speaker's name unless the role is "function". With ``transcript_path``, the message is
        written to the file first.
        """
        if message["role"] != "function":
            message["name"] = speaker.name
        if not isinstance(message["content"], (str, list)):
            message["content"] = str(message["content"])
        message["content"] = content_str(message["content"])
        transcript = getattr(self, "_transcript", None)
        if transcript is not None:
            # Written before it joins the chat: the file never lags behind the messages.
            transcript.record(message)
        self.messages.append(message)

    def agent_by_name(
        self, name: str, recursive: bool = False, raise_on_name_conflict: bool = False
    ) -> Agent | None:
        """Return the agent with a given name (None if absent). If recursive is True, search nested teams too.

        Raises:
            AgentNameConflict: if ``raise_on_name_conflict`` and several agents have the name.
        """
        agents = self.nested_agents() if recursive else self.agents
        found = [agent for agent in agents if agent.name == name]
        if raise_on_name_conflict and len(found) > 1:
            raise AgentNameConflict()
        return found[0] if found else None

    def nested_agents(self) -> list[Agent]:
        """Return all agents of the group chat, including those of nested group chat managers."""
        agents = list(self.agents)
        for agent in self.agents:
            nested = getattr(agent, "groupchat", None)
            if isinstance(nested, GroupChat) and nested is not self:
                agents.extend(nested.nested_agents())
        return agents

    def next_agent(self, agent: Agent, agents: list[Agent] | None = None) -> Agent:
        """Return the agent after ``agent`` in group order, restricted to ``agents`` when given.

        Raises:
            UndefinedNextAgent: if ``agents`` holds an agent outside the group or none of the group's agents.
        """
        if agents is None:
            agents = self.agents
        if any(a not in self.agents for a in agents):
            raise UndefinedNextAgent()
        names = self.agent_names
        index = names.index(agent.name) if agent is not None and agent.name in names else -1
        if agents == self.agents:
            return agents[(index + 1) % len(agents)]
        count = len(self.agents)
        for step in range(1, count + 1):
            candidate = self.agents[(index + step) % count]
            if candidate in agents:
                return candidate
        raise UndefinedNextAgent()

    def _participant_roles(self, agents: list[Agent] | None = None) -> str:
        return participant_roles(self, self.agents if agents is None else agents)

    def select_speaker_msg(self, agents: list[Agent] | None = None) -> str:
        """Return the system message for selecting the next speaker.

        This is always the *first* message in the context. Besides the classic ``{roles}`` and
        ``{agentlist}``, the template may use ``{participants}`` and ``{history}`` (see ``prompts``).
        """
        if agents is None:
            agents = self.agents
        roles = participant_roles(self, agents)  # first: it warns about empty descriptions every time
        return selection_text(self, "_select_msg_text", self.select_speaker_message_template, agents, roles)

    def select_speaker_prompt(self, agents: list[Agent] | None = None) -> str | None:
        """Return the floating prompt selecting the next speaker. This is always the *last* message in the context.

        Returns None if ``select_speaker_prompt_template`` is None.
        """
        if self.select_speaker_prompt_template is None:
            return None
        template = self.select_speaker_prompt_template
        return selection_text(self, "_select_prompt_text", template, self.agents if agents is None else agents)

    def introductions_msg(self, agents: list[Agent] | None = None) -> str:
        """Return the introduction message: ``DEFAULT_INTRO_MSG`` followed by every agent and its description."""
        if agents is None:
            agents = self.agents
        return f"{self.DEFAULT_INTRO_MSG}\n\n{self._participant_roles(agents)}"

    # ----------------------------------------------------------------- selection
    def manual_select_speaker(self, agents: list[Agent] | None = None) -> Agent | None:
        """Ask the person at the console to choose the next speaker from a numbered list.

        Returns the chosen agent, or None when the input was empty, ``q``, closed (EOF), interrupted
        (Ctrl-C) or invalid three times: the caller then chooses automatically.
        """
        return ask_console_for_speaker(self, self.agents if agents is None else agents, record=None)

    def random_select_speaker(self, agents: list[Agent] | None = None) -> Agent | None:
        """Randomly select the next speaker."""
        if agents is None:
            agents = self.agents
        return (getattr(self, "random_source", None) or random).choice(agents)

    def select_speaker(self, last_speaker: Agent, selector: ConversableAgent) -> Agent:
        """Select the next speaker (with requery in "auto" mode).

        Appends one record to ``selection_log``.

        Raises:
            NoEligibleSpeaker: when no agent may speak next (the chat should end); the message says why.
        """
        return pipeline.select_speaker(self, last_speaker, selector)

    async def a_select_speaker(self, last_speaker: Agent, selector: ConversableAgent) -> Agent:
        """Select the next speaker (with requery in "auto" mode), asynchronously; see ``select_speaker``."""
        return await pipeline.a_select_speaker(self, last_speaker, selector)

    def _auto_select_speaker(
        self,
        last_speaker: Agent,
        selector: ConversableAgent,
        messages: list[dict[str, Any]] | None,
        agents: list[Agent] | None,
    ) -> Agent:
        """Select the next speaker with the "auto" method only (the model chooses, with requery)."""
        return pipeline.auto_select_speaker(self, last_speaker, selector, messages, agents)

    async def a_auto_select_speaker(
        self,
        last_speaker: Agent,
        selector: ConversableAgent,
        messages: list[dict[str, Any]] | None,
        agents: list[Agent] | None,
    ) -> Agent:
        """(async) Select the next speaker with the "auto" method only: a model reads ``messages`` and names one
        of ``agents``, asked again (up to ``max_retries_for_selecting_speaker`` times) when its answer names
        several agents or none; then the next of ``agents`` after ``last_speaker`` is taken. Without a model,
        that next agent is taken at once.

        Args:
            last_speaker: the agent that spoke last.
            selector: the selecting agent (the group chat manager); its ``llm_config`` is the default model.
            messages: what the model reads (None: the group chat's messages).
            agents: the candidates (None: every agent of the group).

        Returns:
            Agent: the selected agent (the decision is recorded in ``selection_log``).
        """
        return await pipeline.a_auto_select_speaker(self, last_speaker, selector, messages, agents)
