"""Adapters for selection functions written for AutoGen 0.4's ``SelectorGroupChat``.

0.4 lets a team override model selection with two functions of the message history:

- ``selector_func(messages) -> str | None``: the name of the next speaker, or None to let the model choose.
  :func:`selector_func_method` turns it into a ``GroupChat(speaker_selection_method=...)`` callable.
- ``candidate_func(messages) -> list[str]``: the names the next speaker is chosen from.
  :func:`candidate_func_policy` turns it into an eligibility policy (``GroupChat(eligibility_policies=[...])``),
  applied before any method (round robin, random, manual, auto) chooses.

Both functions read the chat as 0.4 messages: each classic message dict is wrapped in a read-only
:class:`MessageView` with ``source``, ``content``, ``type``, ``models_usage``, ``metadata`` and ``to_text()``
(and dict access, ``m["content"]``). Used together, a ``selector_func`` that names an agent wins, and one that
returns None hands over to the fallback method among the agents ``candidate_func`` kept::

    GroupChat(
        agents=[planner, searcher, analyst],
        messages=[],
        speaker_selection_method=selector_func_method(selector_func),  # None -> "auto"
        eligibility_policies=[candidate_func_policy(candidate_func)],
    )

A ``candidate_func`` cannot be given as a ``speaker_selection_method``: a selection function returns one agent
or a method name, it cannot narrow the candidates a method chooses from. The policy does that.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, Optional, Union

from ....coding.utils import content_str
from ...agent import Agent
from .state import SPEAKER_SELECTION_METHODS

__all__ = [
    "CandidateFuncPolicy",
    "MessageView",
    "SelectorFuncMethod",
    "candidate_func_policy",
    "message_views",
    "selector_func_method",
]

MessageType = Literal["TextMessage", "ToolCallRequestEvent", "ToolCallExecutionEvent"]
_SCALARS = (str, int, float, bool, type(None))


def _detached(value: Any) -> Any:
    """``value``, or a deep copy of it when it could be changed in place: the view never lets the chat change."""
    return value if isinstance(value, _SCALARS) else copy.deepcopy(value)


def _function_name(fn: Any) -> str:
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


class MessageView(Mapping[str, Any]):
    """A read-only view of one classic message dict, shaped like a 0.4 chat message.

    Attribute access follows 0.4 (``m.source``, ``m.content``, ``m.type``, ``m.models_usage``, ``m.metadata``,
    ``m.to_text()``) and dict access follows the classic message (``m["content"]``, ``m.get("name")``, ``"tool_calls"
    in m``). Values that could be changed in place (lists, dicts) are handed out as copies, so nothing done with a
    view changes the group chat's messages.

    Args:
        message: the message dict (``role``, ``content``, ``name``, ``tool_calls``, ...).
    """

    __slots__ = ("_message",)

    def __init__(self, message: Mapping[str, Any]) -> None:
        if not isinstance(message, Mapping):
            raise TypeError(f"MessageView needs a message dict; got {type(message).__name__} {message!r:.60}.")
        object.__setattr__(self, "_message", message)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MessageView is read-only: cannot set {name!r}. Copy it with dict(view) to change it.")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"MessageView is read-only: cannot delete {name!r}.")

    # ----- the classic dict
    def __getitem__(self, key: str) -> Any:
        return _detached(self._message[key])

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._message))

    def __len__(self) -> int:
        return len(self._message)

    # ----- the 0.4 message
    @property
    def source(self) -> Optional[str]:
        """The speaker's name (the message's ``name``); None when the message has none."""
        name = self._message.get("name")
        return name if isinstance(name, str) else None

    @property
    def content(self) -> Any:
        """The message's ``content`` (None for a message that only calls tools)."""
        return _detached(self._message.get("content"))

    @property
    def type(self) -> MessageType:
        """"ToolCallRequestEvent" (it calls tools or a function), "ToolCallExecutionEvent" (it carries their
        results) or "TextMessage"."""
        message = self._message
        if message.get("tool_calls") or message.get("function_call"):
            return "ToolCallRequestEvent"
        if message.get("role") in ("tool", "function") or "tool_responses" in message:
            return "ToolCallExecutionEvent"
        return "TextMessage"

    @property
    def models_usage(self) -> None:
        """Always None: classic messages do not record the tokens spent on them."""
        return None

    @property
    def metadata(self) -> dict[str, str]:
        """Always empty: classic messages carry no metadata (a fresh dict each time)."""
        return {}

    def to_text(self) -> str:
        """The message as plain text: its content, the calls it makes (``name(arguments)``) or the results it carries."""
        message = self._message
        kind = self.type
        if kind == "ToolCallRequestEvent":
            calls = [c.get("function", c) for c in message.get("tool_calls") or [] if isinstance(c, Mapping)]
            if message.get("function_call"):
                calls.append(message["function_call"])
            return "\n".join(f"{c.get('name')}({c.get('arguments', '')})" for c in calls if isinstance(c, Mapping))
        if kind == "ToolCallExecutionEvent" and isinstance(message.get("tool_responses"), list):
            return "\n".join(_text(r.get("content")) for r in message["tool_responses"] if isinstance(r, Mapping))
        return _text(message.get("content"))

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the message dict."""
        return copy.deepcopy(dict(self._message))

    def __repr__(self) -> str:
        return f"MessageView(source={self.source!r}, type={self.type!r}, content={self._message.get('content')!r:.80})"


def _text(content: Any) -> str:
    try:
        return content_str(content)
    except (TypeError, ValueError):  # a content no model would accept: still give the function something to read
        return str(content)


def message_views(messages: Iterable[Mapping[str, Any]]) -> list[MessageView]:
    """Wrap each message dict of ``messages`` (oldest first) in a :class:`MessageView`; a new list each call."""
    return [MessageView(message) for message in messages]


# ---------------------------------------------------------------------------------------------- selector_func
class SelectorFuncMethod:
    """A ``speaker_selection_method`` callable running a 0.4 ``selector_func``; see :func:`selector_func_method`.

    After each call, ``last_reason`` says what the function decided (the selection trace shows it).
    """

    def __init__(self, selector_func: Callable[[Sequence[MessageView]], Optional[str]], fallback: str = "auto") -> None:
        if not callable(selector_func):
            raise TypeError(
                f"selector_func must be a function selector_func(messages) -> str | None; "
                f"got {type(selector_func).__name__} {selector_func!r:.60}."
            )
        if not isinstance(fallback, str) or fallback.lower() not in SPEAKER_SELECTION_METHODS:
            raise ValueError(
                f"fallback must be one of {SPEAKER_SELECTION_METHODS} (the method that chooses when selector_func "
                f"returns None); got {fallback!r}."
            )
        self.selector_func = selector_func
        self.fallback = fallback.lower()
        self.last_reason = ""

    def __call__(self, last_speaker: Agent, groupchat: Any) -> Union[Agent, str]:
        """Return the agent ``selector_func`` names, or the fallback method name when it returns None.

        Raises:
            ValueError: the name is not the name of an agent of the group chat.
            TypeError: the function returned something else than a str or None.
        """
        fn = _function_name(self.selector_func)
        self.last_reason = ""
        result = self.selector_func(message_views(groupchat.messages))
        if result is None:
            self.last_reason = f"selector_func {fn} returned None: {self.fallback} selection chooses"
            return self.fallback
        agents = list(groupchat.agents)
        if isinstance(result, Agent) and result in agents:  # an agent instead of its name: accepted as it is
            self.last_reason = f"selector_func {fn} chose {result.name}"
            return result
        if not isinstance(result, str):
            raise TypeError(
                f"selector_func {fn} must return an agent's name (str) or None; got {type(result).__name__} "
                f"{result!r:.60}."
            )
        chosen = next((agent for agent in agents if agent.name == result), None)
        if chosen is None:
            names = ", ".join(repr(agent.name) for agent in agents)
            raise ValueError(
                f"selector_func {fn} returned {result!r}, which is not the name of an agent of the group chat "
                f"({names}). Return one of these names, or None to let {self.fallback} selection choose."
            )
        self.last_reason = f"selector_func {fn} chose {result}"
        return chosen

    def __repr__(self) -> str:
        return f"SelectorFuncMethod({_function_name(self.selector_func)}, fallback={self.fallback!r})"


def selector_func_method(
    selector_func: Callable[[Sequence[MessageView]], Optional[str]], fallback: str = "auto"
) -> SelectorFuncMethod:
    """Turn a 0.4 ``selector_func`` into a ``GroupChat(speaker_selection_method=...)`` callable.

    ``selector_func(messages)`` reads the group chat's messages as :class:`MessageView` objects (oldest first)
    and returns the name of the next speaker, who then speaks (no candidate rule or policy applies, as in 0.4),
    or None: then ``fallback`` chooses, after the candidate rules and eligibility policies.

    Args:
        selector_func: the function; it is called once per selection.
        fallback: the method used when it returns None: "auto" (default, the model, as in 0.4),
            "round_robin", "random" or "manual".

    Raises:
        TypeError: ``selector_func`` is not callable.
        ValueError: ``fallback`` is not a method name.
    """
    return SelectorFuncMethod(selector_func, fallback)


# --------------------------------------------------------------------------------------------- candidate_func
class CandidateFuncPolicy:
    """An eligibility policy keeping the agents a 0.4 ``candidate_func`` names; see :func:`candidate_func_policy`."""

    def __init__(self, candidate_func: Callable[[Sequence[MessageView]], Sequence[str]], name: Optional[str] = None) -> None:
        if not callable(candidate_func):
            raise TypeError(
                f"candidate_func must be a function candidate_func(messages) -> list[str]; "
                f"got {type(candidate_func).__name__} {candidate_func!r:.60}."
            )
        if name is not None and (not isinstance(name, str) or not name):
            raise ValueError(f"name must be a non-empty str (the policy's label in selection traces); got {name!r}.")
        self.candidate_func = candidate_func
        self.name = name or f"candidate_func({_function_name(candidate_func)})"
        # (weak reference to the selection context, the names for it): one call per selection, not per agent.
        self._cache: Optional[tuple[Callable[[], Any], frozenset[str]]] = None

    def candidates(self, ctx: Any) -> frozenset[str]:
        """The names ``candidate_func`` returns for the selection ``ctx`` (computed once per context)."""
        cached = self._cache
        if cached is not None and cached[0]() is ctx:
            return cached[1]
        names = self._call(ctx)
        try:
            ref: Callable[[], Any] = weakref.ref(ctx)
        except TypeError:  # a context without weak references: hold it until the next selection
            ref = lambda: ctx  # noqa: E731
        self._cache = (ref, names)
        return names

    def is_eligible(self, agent: Any, ctx: Any) -> bool:
        """True if ``candidate_func`` named ``agent`` for this selection."""
        return agent.name in self.candidates(ctx)

    def _call(self, ctx: Any) -> frozenset[str]:
        fn = _function_name(self.candidate_func)
        result = self.candidate_func(message_views(ctx.messages))
        if isinstance(result, str) or not isinstance(result, Iterable):
            hint = f" Return a list: [{result!r}]." if isinstance(result, str) else ""
            raise TypeError(
                f"candidate_func {fn} must return a list of agent names; got {type(result).__name__} {result!r:.60}."
                f"{hint} Return [] when no one may speak (the chat ends)."
            )
        names = [item.name if isinstance(item, Agent) else item for item in result]
        bad = [item for item in names if not isinstance(item, str)]
        if bad:
            raise TypeError(f"candidate_func {fn} must return agent names (str); got {bad[0]!r:.60} in {names!r:.120}.")
        # participants are names in a group chat's context; a hand-built context may hold agents.
        known = [p if isinstance(p, str) else getattr(p, "name", None) for p in ctx.participants]
        unknown = [name for name in names if name not in known]
        if unknown:
            raise ValueError(
                f"candidate_func {fn} returned {', '.join(map(repr, unknown))}, not the name of an agent of the group "
                f"chat ({', '.join(map(repr, known))}). Return names of these agents only."
            )
        return frozenset(names)

    def __repr__(self) -> str:
        return f"CandidateFuncPolicy({_function_name(self.candidate_func)})"


def candidate_func_policy(
    candidate_func: Callable[[Sequence[MessageView]], Sequence[str]], name: Optional[str] = None
) -> CandidateFuncPolicy:
    """Turn a 0.4 ``candidate_func`` into an eligibility policy (``GroupChat(eligibility_policies=[...])``).

    ``candidate_func(messages)`` reads the group chat's messages as :class:`MessageView` objects (oldest first)
    and returns the names of the agents the next speaker may be chosen from; it is called once per selection.
    The agents it names stay candidates (if the earlier rules, e.g. ``allow_repeat_speaker``, kept them), then the
    selection method chooses among them ("auto": the model reads only their roles). An empty list leaves no one
    eligible: the chat ends with ``NoEligibleSpeaker`` naming this policy (0.4 raised an error instead).

    Args:
        candidate_func: the function.
        name: the policy's label in selection traces (default ``candidate_func(<function name>)``).

    Raises:
        TypeError: ``candidate_func`` is not callable. When selecting: it returned something else than a list of
            names (e.g. None or a bare str).
        ValueError: when selecting: it returned a name that is not the name of an agent of the group chat.
    """
    return CandidateFuncPolicy(candidate_func, name)
