"""A filtered view of the chat for one participant: ``MessageFilterConfig`` and ``MessageFilterAgent``.

A participant of a group chat usually replies from the whole conversation. With a filter it replies
from a chosen part of it: per source (the speaker's name), all of its messages or only its first or
last N. Two ways to use it:

- ``MessageFilterConfig(...).add_to_agent(agent)``: a capability (a ``process_all_messages_before_reply``
  hook, like ``TransformMessages``) that filters what ``agent`` is asked to reply to.
- ``MessageFilterAgent(name, wrapped_agent, filter)``: a group chat participant that replies as
  ``wrapped_agent`` would, from the filtered view, and leaves ``wrapped_agent`` untouched.

Example::

    planner_view = MessageFilterAgent(
        "planner",
        wrapped_agent=planner,
        filter=MessageFilterConfig(per_source=[
            PerSourceFilter(source="user", position="first", count=1),
            PerSourceFilter(source="critic", position="last", count=1),
        ]),
    )
    GroupChat(agents=[user, planner_view, critic], messages=[])
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Optional, Union

from ..agent import Agent
from ..conversable_agent import ConversableAgent
from .capabilities.agent_capability import AgentCapability

__all__ = ["MessageFilterAgent", "MessageFilterConfig", "PerSourceFilter", "filter_messages"]

_POSITIONS = ("first", "last")


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r:.60}"


@dataclass(frozen=True)
class PerSourceFilter:
    """Which messages of one source (the speaker's ``name``) stay in view.

    Args:
        source: the name of the speaker whose messages this filter selects.
        position: "first" or "last" to keep only the first / last ``count`` messages of the source;
            None (default) keeps every message of the source.
        count: how many messages to keep from ``position``: an int >= 1, required when ``position``
            is given and not allowed without it.

    Raises:
        ValueError: a field has the wrong type or value (as pydantic's ``ValidationError`` would); the message
            names the field and the fix.
    """

    source: str
    position: Optional[Literal["first", "last"]] = None
    count: Optional[int] = None

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or not self.source:
            raise ValueError(
                f"PerSourceFilter.source must be the non-empty name of a speaker (e.g. 'user'); got {_shown(self.source)}."
            )
        if self.position is not None and self.position not in _POSITIONS:
            raise ValueError(
                f"PerSourceFilter.position must be 'first', 'last' or None (all messages of {self.source!r}); "
                f"got {_shown(self.position)}."
            )
        if self.position is None:
            if self.count is not None:
                raise ValueError(
                    f"PerSourceFilter.count={self.count!r} needs a position: set position='first' or 'last' to keep "
                    f"that many messages of {self.source!r}, or drop count to keep all of them."
                )
            return
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ValueError(
                f"PerSourceFilter.count must be an int >= 1 when position={self.position!r} (how many of the "
                f"{self.position} messages of {self.source!r} to keep); got {_shown(self.count)}. "
                "Use position=None to keep all of them."
            )

    def select(self, indices: Sequence[int]) -> Sequence[int]:
        """Return the part of ``indices`` (the positions of this source's messages, oldest first) to keep."""
        if self.position == "first":
            return indices[: self.count]
        if self.position == "last":
            return indices[-self.count :]  # type: ignore[operator] - count is an int >= 1 with a position
        return indices


def _as_filter(item: Any, index: int) -> PerSourceFilter:
    if isinstance(item, PerSourceFilter):
        return item
    if isinstance(item, Mapping):  # e.g. loaded from JSON: {"source": "user", "position": "first", "count": 1}
        unknown = set(item) - {"source", "position", "count"}
        if unknown:
            raise ValueError(
                f"MessageFilterConfig.per_source[{index}] has unknown keys {sorted(unknown)}; "
                "the keys are 'source', 'position' and 'count'."
            )
        if "source" not in item:
            raise ValueError(f"MessageFilterConfig.per_source[{index}] needs a 'source' (the speaker's name).")
        return PerSourceFilter(**item)
    raise TypeError(
        f"MessageFilterConfig.per_source[{index}] must be a PerSourceFilter (or a dict of its fields); "
        f"got {_shown(item)}."
    )


@dataclass(eq=False)
class MessageFilterConfig(AgentCapability):
    """The filtered view: which messages of which sources a participant replies from.

    The source of a message is its ``name``: in a group chat every message the manager forwards carries
    the speaker's name, and an agent's own messages carry its name too, except the calls it made
    (assistant messages without a name), whose source is the agent itself. The rules:

    - A message whose source no filter names is dropped (as are messages without a known source),
      except system messages, which are always kept.
    - Several filters may name the same source: a message stays when any of them selects it (e.g. the
      first and the last message of "user").
    - The kept messages stay in chat order (not grouped by source), so the model reads the
      conversation as it happened.
    - A tool or function call and its results are kept together or dropped together: the API
      refuses a result whose call is missing and a call whose results are missing. A call still
      awaiting its results (nothing answered it yet) is kept when its source is. A legacy function
      result (role "function") is named after the function, not the speaker: it has no source of
      its own and is kept exactly when its call is.

    Args:
        per_source: the filters, at least one (``PerSourceFilter`` objects, or dicts of their fields).

    Raises:
        TypeError / ValueError: ``per_source`` is not a non-empty list of filters; the message names the item.
    """

    per_source: list[PerSourceFilter]

    def __post_init__(self) -> None:
        items = self.per_source
        if isinstance(items, (str, bytes, Mapping, PerSourceFilter)) or not isinstance(items, Sequence):
            raise TypeError(
                "MessageFilterConfig.per_source must be a list of PerSourceFilter, e.g. "
                f"[PerSourceFilter(source='user', position='first', count=1)]; got {_shown(items)}."
            )
        if not items:
            raise ValueError(
                "MessageFilterConfig.per_source is empty: the view would hold no message but system messages. "
                "Add a PerSourceFilter for each speaker whose messages should stay in view."
            )
        self.per_source = [_as_filter(item, index) for index, item in enumerate(items)]

    @property
    def sources(self) -> list[str]:
        """The names the filters select from, in order, each once."""
        return list(dict.fromkeys(f.source for f in self.per_source))

    def apply(self, messages: Sequence[Mapping[str, Any]], own_name: Optional[str] = None) -> list[dict[str, Any]]:
        """Return the filtered view of ``messages``: copies of the kept messages, in chat order.

        Args:
            messages: the conversation, oldest first.
            own_name: the name of the agent whose conversation it is (the source of its nameless
                assistant messages); None: such messages have no source.
        """
        return filter_messages(messages, self, own_name=own_name)

    def add_to_agent(self, agent: ConversableAgent) -> None:  # type: ignore[override]
        """Make ``agent`` reply from the filtered view of its conversations.

        Registers the filter as the agent's ``process_all_messages_before_reply`` hook. The agent's
        stored conversations stay whole: each reply reads a filtered copy. Every reply function sees the
        view, so an agent that executes tool calls needs a filter keeping the caller's last message.
        A reply whose view holds no message (system messages aside) raises ``ValueError`` naming the
        filter to add: the reply functions answer the last message and there would be none.

        Raises:
            TypeError: ``agent`` has no ``register_hook`` (it is not a ConversableAgent).
            InvalidArgumentError: this filter is already registered on ``agent``.
        """
        if not callable(getattr(agent, "register_hook", None)):
            raise TypeError(
                f"add_to_agent needs a ConversableAgent (an agent with register_hook); got {_shown(agent)}."
            )
        agent.register_hook(
            hookable_method="process_all_messages_before_reply", hook=_FilterHook(self, getattr(agent, "name", None))
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(per_source={self.per_source!r})"


class _FilterHook:
    """The hook ``add_to_agent`` registers: the filter, knowing whose conversation it reads.

    Equal for the same filter and agent, so registering it twice is refused by ``register_hook``.
    """

    def __init__(self, config: MessageFilterConfig, own_name: Optional[str]) -> None:
        self.config = config
        self.own_name = own_name

    def __call__(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        view = filter_messages(messages, self.config, own_name=self.own_name)
        if messages and all(m.get("role") == "system" for m in view):
            # The reply functions answer the last message: with none, they would fail without saying why.
            raise ValueError(self._nothing_left(messages))
        return view

    def _nothing_left(self, messages: list[dict[str, Any]]) -> str:
        opener = next((_source(m, self.own_name) for m in messages if m.get("role") != "system"), None)
        example = f"PerSourceFilter(source={opener!r}, position='first', count=1)" if opener else "a PerSourceFilter"
        return (
            f"The message filter of {self.own_name!r} left no message to reply to: none of the {len(messages)} "
            f"messages is kept for the sources {self.config.sources} (a tool call and its results are kept only "
            f"together). Add {example} so that the first message of the chat stays in view."
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _FilterHook) and other.config is self.config and other.own_name == self.own_name

    def __hash__(self) -> int:
        return hash((id(self.config), self.own_name))

    def __repr__(self) -> str:
        return f"{self.config!r} (for {self.own_name!r})"


def _source(message: Mapping[str, Any], own_name: Optional[str]) -> Optional[str]:
    name = message.get("name")
    if isinstance(name, str):
        return name
    # An agent stores the calls it made without a name (as the classic package does): they are its own.
    return own_name if message.get("role") == "assistant" else None


def _result_ids(message: Mapping[str, Any]) -> list[Any]:
    """The ``tool_call_id`` of each tool result a message carries."""
    responses = message.get("tool_responses")
    if isinstance(responses, list):
        return [r.get("tool_call_id") for r in responses if isinstance(r, Mapping)]
    return [message.get("tool_call_id")]


def _call_groups(messages: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """``[call index, result indices...]`` for each call that has results in ``messages``."""
    caller_of: dict[Any, int] = {}  # tool_call_id -> index of the message that made the call
    groups: dict[int, list[int]] = {}
    function_caller: Optional[int] = None  # the legacy function call still waiting for its result
    for index, message in enumerate(messages):
        for call in message.get("tool_calls") or []:
            if isinstance(call, Mapping) and call.get("id") is not None:
                caller_of[call["id"]] = index
        if message.get("function_call"):
            function_caller = index
        role = message.get("role")
        if role == "tool" or "tool_responses" in message:
            for caller in {caller_of[i] for i in _result_ids(message) if i in caller_of}:
                groups.setdefault(caller, [caller]).append(index)
        elif role == "function" and function_caller is not None:
            groups.setdefault(function_caller, [function_caller]).append(index)
            function_caller = None
    return list(groups.values())


def _keep_exchanges_whole(messages: Sequence[Mapping[str, Any]], kept: set[int], function_results: list[int]) -> None:
    """Drop from ``kept`` every call exchange it holds only in part; bring function results along with their call."""
    groups = _call_groups(messages)
    answered = {index for group in groups for index in group[1:]}
    # Function results have no source: they come with their call (an unanswerable one never does).
    kept.update(index for index in function_results if index in answered)
    for group in groups:
        if not all(index in kept for index in group):
            kept.difference_update(group)


def filter_messages(
    messages: Sequence[Mapping[str, Any]],
    config: Union[MessageFilterConfig, Sequence[PerSourceFilter]],
    *,
    own_name: Optional[str] = None,
) -> list[dict[str, Any]]:
    """Return copies of the messages ``config`` keeps, in chat order (see :class:`MessageFilterConfig`).

    Args:
        messages: the conversation, oldest first (message dicts with a ``name``).
        config: the filter, or its list of ``PerSourceFilter``.
        own_name: the name of the agent whose conversation it is: the source of its nameless
            assistant messages (the calls it made).
    """
    if not isinstance(config, MessageFilterConfig):
        config = MessageFilterConfig(per_source=list(config))
    by_source: dict[Optional[str], list[int]] = {}
    kept: set[int] = set()
    function_results: list[int] = []
    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "system":
            kept.add(index)
        elif role == "function":
            function_results.append(index)
        else:
            by_source.setdefault(_source(message, own_name), []).append(index)
    for source_filter in config.per_source:
        kept.update(source_filter.select(by_source.get(source_filter.source, [])))
    _keep_exchanges_whole(messages, kept, function_results)
    # Copies: whatever reads the view (hooks, reply functions) cannot change the stored conversation.
    return [copy.deepcopy(dict(messages[index])) for index in sorted(kept)]


class MessageFilterAgent(ConversableAgent):
    """A participant that replies as ``wrapped_agent`` would, but from a filtered view of the chat.

    Useful when an agent should read only part of a long group chat, e.g. the task and the last
    message of the agent it reviews. This agent stores the whole conversation, as any participant
    does; when asked to reply, it hands the filtered copy (see :class:`MessageFilterConfig`) to
    ``wrapped_agent``'s reply functions (model, tools, code, termination and human input, in
    its order) with the same sender, and sends the reply under its own ``name``.

    ``wrapped_agent``'s stored conversations are never read or written: it may take part in other
    chats too. ``reset()`` resets this agent only. Its own reply state (e.g. its consecutive
    auto-reply count per sender) moves as it would if it replied directly. A reply whose filtered
    view holds no message raises ``ValueError`` naming the filter to add. Functions and tools are
    the wrapped agent's (register them there): this participant executes the calls it can.

    Args:
        name: the name of this participant (the source other filters and the group chat see).
        wrapped_agent: the agent whose replies to give (a ConversableAgent or any agent with
            ``generate_reply`` / ``a_generate_reply``).
        filter: which messages ``wrapped_agent`` reads.
        description: how others (e.g. "auto" speaker selection) see this agent; default:
            ``wrapped_agent.description``.

    Raises:
        TypeError: ``wrapped_agent`` cannot reply, or ``filter`` is not a ``MessageFilterConfig``.
    """

    def __init__(
        self,
        name: str,
        wrapped_agent: Agent,
        filter: MessageFilterConfig,  # noqa: A002 - the name of the 0.4 argument
        *,
        description: Optional[str] = None,
    ) -> None:
        if not callable(getattr(wrapped_agent, "generate_reply", None)):
            raise TypeError(
                f"MessageFilterAgent wrapped_agent must be an agent that replies (e.g. a ConversableAgent or "
                f"AssistantAgent); got {_shown(wrapped_agent)}."
            )
        if not isinstance(filter, MessageFilterConfig):
            hint = " Wrap the list: MessageFilterConfig(per_source=[...])." if isinstance(filter, (list, tuple)) else ""
            raise TypeError(
                f"MessageFilterAgent filter must be a MessageFilterConfig; got {_shown(filter)}.{hint}"
            )
        system_message = getattr(wrapped_agent, "system_message", None)
        super().__init__(
            name,
            system_message=system_message if isinstance(system_message, (str, list)) else "",
            llm_config=False,
            human_input_mode="NEVER",
            code_execution_config=False,
            description=description if description is not None else getattr(wrapped_agent, "description", None),
        )
        self._wrapped_agent = wrapped_agent
        self._filter = filter
        filter.add_to_agent(self)
        # The wrapped agent's pipeline does everything (termination, human input, tools, model): these replace ours.
        self.register_reply([Agent, None], MessageFilterAgent._reply_as_wrapped, remove_other_reply_funcs=True)
        self.register_reply(
            [Agent, None], MessageFilterAgent._a_reply_as_wrapped, ignore_async_in_sync_chat=True
        )

    @property
    def wrapped_agent(self) -> Agent:
        """The agent whose replies this participant gives."""
        return self._wrapped_agent

    @property
    def filter(self) -> MessageFilterConfig:
        """The filter deciding what the wrapped agent reads."""
        return self._filter

    @property
    def function_map(self) -> dict[str, Any]:
        """The wrapped agent's functions: the group chat picks this participant to execute them."""
        return dict(getattr(self._wrapped_agent, "function_map", None) or {})

    @property  # type: ignore[override]
    def client_cache(self) -> Any:
        """The wrapped agent's model cache: a cache lent to this participant (by a group chat or
        ``initiate_chat(cache=...)``) serves the wrapped agent's model calls."""
        wrapped = self.__dict__.get("_wrapped_agent")
        return self.__dict__.get("_client_cache") if wrapped is None else getattr(wrapped, "client_cache", None)

    @client_cache.setter
    def client_cache(self, cache: Any) -> None:
        wrapped = self.__dict__.get("_wrapped_agent")
        if wrapped is None:  # set to None by ConversableAgent.__init__, before the wrapped agent is known
            self.__dict__["_client_cache"] = cache
        else:
            wrapped.client_cache = cache

    def can_execute_function(self, name: Union[list[str], str]) -> bool:
        """Whether the wrapped agent can execute the function(s) ``name``."""
        check = getattr(self._wrapped_agent, "can_execute_function", None)
        return bool(check(name)) if callable(check) else False

    def _reply_as_wrapped(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, config: Any = None
    ) -> tuple[bool, Union[str, dict[str, Any], None]]:
        # ``messages`` is already the filtered copy (the hook ran in generate_reply).
        return True, self._wrapped_agent.generate_reply(messages=list(messages or []), sender=sender)

    async def _a_reply_as_wrapped(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, config: Any = None
    ) -> tuple[bool, Union[str, dict[str, Any], None]]:
        reply_async = getattr(self._wrapped_agent, "a_generate_reply", None)
        if not callable(reply_async):
            return True, self._wrapped_agent.generate_reply(messages=list(messages or []), sender=sender)
        return True, await reply_async(messages=list(messages or []), sender=sender)

    def __repr__(self) -> str:
        wrapped = getattr(self._wrapped_agent, "name", self._wrapped_agent)
        return f"{type(self).__name__}(name={self.name!r}, wrapped_agent={wrapped!r})"
