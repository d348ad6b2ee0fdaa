"""The termination-condition protocol: ``StopMessage`` (why a chat stopped), ``TerminationContext`` (what the
chat tells a condition), ``TerminationCondition`` (the base class), its ``|``/``&`` combinations and
``validate_termination`` (the check for arguments that take a condition)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Optional, TypeVar, Union

from ...tools.execution import run_coroutine_sync
from .reading import shorten

__all__ = ["AndTerminationCondition", "OrTerminationCondition", "StopMessage", "TerminationCondition",
           "TerminationContext", "run_sync", "validate_termination"]

T = TypeVar("T")


def run_sync(awaitable: Awaitable[T]) -> T:
    """Wait for ``awaitable`` from sync code, also when an event loop is already running in this thread
    (a sync check called from async code): then it runs on a fresh loop in a worker thread."""

    async def wait() -> T:
        return await awaitable

    return run_coroutine_sync(wait())  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    """``value`` as plain JSON-able containers (mappings to dicts, tuples to lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class StopMessage:
    """Why a chat stopped, as data.

    Args:
        content: the reason in words, e.g. ``"Text 'TERMINATE' mentioned"``.
        source: the class name of the condition that fired, e.g. ``"TextMentionTermination"``.
        details: JSON-able facts, e.g. ``{"text": "TERMINATE", "speaker": "planner"}``; a combination lists
            the stop messages of the conditions that fired under ``"fired"``.
    """

    content: str
    source: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.content, str):
            raise TypeError(f"StopMessage content must be a str (the reason in words); got {shorten(self.content)}.")
        if not isinstance(self.source, str):
            raise TypeError(f"StopMessage source must be a str (the condition's class name); got "
                            f"{shorten(self.source)}.")
        if not isinstance(self.details, Mapping):
            raise TypeError(f"StopMessage details must be a mapping of JSON-able facts; got {shorten(self.details)}.")

    def to_dict(self) -> dict[str, Any]:
        """``{"content", "source", "details"}`` as plain, JSON-able containers (a copy)."""
        return {"content": self.content, "source": self.source, "details": _plain(self.details)}


@dataclass
class TerminationContext:
    """What the chat tells a condition besides the new messages.

    Args:
        messages: the whole chat so far (classic message dicts), the new messages included.
        speaker: the name of the agent that sent the newest message.
        round: the chat's round number.
        started_at: ``time.monotonic()`` when the chat started.
        usage: returns the tokens the chat spent so far: ``prompt_tokens``, ``completion_tokens``, ``total_tokens``.
        handoff: the name of the agent the newest message hands off to, when the chat knows it (e.g. a swarm
            function returned ``SwarmResult(agent=...)``, which leaves no trace in the message dict).
    """

    messages: Sequence[dict[str, Any]] = ()
    speaker: Optional[str] = None
    round: int = 0
    started_at: Optional[float] = None
    usage: Optional[Callable[[], Mapping[str, int]]] = None
    handoff: Optional[str] = None


def _message_batch(messages: Any, context: Any) -> list[dict[str, Any]]:
    """The new messages of a check as a list; TypeError naming the fix for anything else (or a wrong context)."""
    if context is not None and not isinstance(context, TerminationContext):
        raise TypeError(f"check() takes context=TerminationContext(messages=..., speaker=...) or None; got "
                        f"{shorten(context)} ({type(context).__name__}).")
    if isinstance(messages, Mapping):
        raise TypeError("check() takes the new messages as a list of message dicts; got one dict. Pass [message] "
                        "(or call the condition with the dict: condition(message) -> bool).")
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise TypeError(f"check() takes the new messages as a list of message dicts; got {shorten(messages)} "
                        f"({type(messages).__name__}). Wrap a text as [{{'role': 'user', 'content': text}}].")
    batch = list(messages)
    for index, message in enumerate(batch):
        if not isinstance(message, Mapping):
            raise TypeError(f"messages[{index}] must be a message dict (with 'content', 'name', ...); got "
                            f"{shorten(message)} ({type(message).__name__}).")
    return batch


class TerminationCondition(ABC):
    """A rule that decides when a chat stops, checked with the new messages after each message.

    Once fired it stays fired: ``check`` returns the same ``StopMessage`` until ``reset()``. Combine
    conditions with ``|`` (either fires) and ``&`` (all have fired). A condition also works wherever a
    classic ``is_termination_msg(message) -> bool`` is accepted: called with one message dict it returns a
    bool (each call counts as a new message).

    A new condition subclasses this and implements ``_evaluate(messages, context)`` (and ``_reset_state``
    when it keeps state; ``_a_evaluate`` when it has an async way to decide).
    """

    last_stop: Optional[StopMessage] = None
    """The stop message of the last firing (None until it fires, and after ``reset()``)."""

    def __init__(self) -> None:
        self.last_stop = None

    # ----------------------------------------------------------------- checking
    @property
    def terminated(self) -> bool:
        """Whether the condition has fired (since it was made or last reset)."""
        return self.last_stop is not None

    def check(self, messages: Sequence[dict[str, Any]], context: Optional[TerminationContext] = None
              ) -> Optional[StopMessage]:
        """Check the messages appended since the previous check.

        Args:
            messages: the new messages (classic message dicts), oldest first.
            context: what else the chat knows (the whole history, the speaker, usage, ...).

        Returns:
            The stop message when the condition fires (or has fired before), else None.
        """
        if self.last_stop is not None:
            return self.last_stop
        stop = self._evaluate(_message_batch(messages, context), context)
        if stop is not None:
            self.last_stop = stop
        return stop

    async def a_check(self, messages: Sequence[dict[str, Any]], context: Optional[TerminationContext] = None
                      ) -> Optional[StopMessage]:
        """(async) ``check``; conditions that call a model use its async client."""
        if self.last_stop is not None:
            return self.last_stop
        stop = await self._a_evaluate(_message_batch(messages, context), context)
        if stop is not None:
            self.last_stop = stop
        return stop

    @abstractmethod
    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        """Decide on the new messages (the condition has not fired yet); return a StopMessage to fire."""

    async def _a_evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]
                          ) -> Optional[StopMessage]:
        return self._evaluate(messages, context)

    def reset(self) -> None:
        """Forget the firing and any counting, so the condition can serve a new chat."""
        self.last_stop = None
        self._reset_state()

    def _reset_state(self) -> None:
        """Forget the condition's own state (counters, clocks, ...); nothing by default."""

    def __call__(self, message_or_messages: Union[dict[str, Any], Sequence[dict[str, Any]]],
                 context: Optional[TerminationContext] = None) -> Union[bool, Optional[StopMessage]]:
        """One message dict -> bool (the classic ``is_termination_msg`` form); a list of messages ->
        ``check(messages, context)``."""
        if isinstance(message_or_messages, Mapping):
            return self.check([dict(message_or_messages)], context) is not None
        if isinstance(message_or_messages, Sequence) and not isinstance(message_or_messages, (str, bytes)):
            return self.check(message_or_messages, context)
        raise TypeError(f"{self.describe()} was called with {shorten(message_or_messages)} "
                        f"({type(message_or_messages).__name__}); call it with a message dict (-> bool) or a list "
                        "of message dicts (-> StopMessage | None).")

    # ----------------------------------------------------------------- combining
    def _operand(self, other: Any, symbol: str) -> TerminationCondition:
        if isinstance(other, TerminationCondition):
            return other
        hint = ("wrap a function f(messages) -> bool in FunctionalTermination(f)" if callable(other)
                else "use a condition such as TextMentionTermination('TERMINATE') or MaxMessageTermination(10)")
        raise TypeError(f"{symbol!r} combines termination conditions, but the other operand is {shorten(other)} "
                        f"({type(other).__name__}); {hint}.")

    def __or__(self, other: Any) -> OrTerminationCondition:
        return OrTerminationCondition(self, self._operand(other, "|"))

    def __ror__(self, other: Any) -> OrTerminationCondition:
        return OrTerminationCondition(self._operand(other, "|"), self)

    def __and__(self, other: Any) -> AndTerminationCondition:
        return AndTerminationCondition(self, self._operand(other, "&"))

    def __rand__(self, other: Any) -> AndTerminationCondition:
        return AndTerminationCondition(self._operand(other, "&"), self)

    # ----------------------------------------------------------------- describing
    @property
    def usage_clients(self) -> list[Any]:
        """Model clients (``OpenAIWrapper``) whose cost belongs to the chat; none by default."""
        return []

    def _describe_args(self) -> str:
        return ""

    def describe(self) -> str:
        """A short text such as ``TextMentionTermination('TERMINATE')``."""
        return f"{type(self).__name__}({self._describe_args()})"

    def __repr__(self) -> str:
        return self.describe()


class _Combination(TerminationCondition):
    """Conditions combined by ``|`` or ``&``; nested combinations of the same kind are flattened."""

    _symbol: ClassVar[str] = ""

    def __init__(self, *conditions: TerminationCondition) -> None:
        super().__init__()
        name = type(self).__name__
        if len(conditions) == 1 and isinstance(conditions[0], (list, tuple)):
            conditions = tuple(conditions[0])
        if not conditions:
            raise ValueError(f"{name} needs at least one termination condition, e.g. {name}(TextMentionTermination("
                             "'TERMINATE'), MaxMessageTermination(10)).")
        flat: list[TerminationCondition] = []
        for index, condition in enumerate(conditions):
            if not isinstance(condition, TerminationCondition):
                hint = (" (wrap a function f(messages) -> bool in FunctionalTermination(f))" if callable(condition)
                        else "")
                raise TypeError(f"{name} argument {index} must be a TerminationCondition; got {shorten(condition)} "
                                f"({type(condition).__name__}){hint}.")
            same_kind = type(condition) is type(self)
            flat.extend(condition.conditions if same_kind else [condition])  # type: ignore[attr-defined]
        self._conditions = tuple(flat)

    @property
    def conditions(self) -> tuple[TerminationCondition, ...]:
        """The combined conditions (flattened)."""
        return self._conditions

    def _reset_state(self) -> None:
        for condition in self._conditions:
            condition.reset()

    @property
    def usage_clients(self) -> list[Any]:
        clients: list[Any] = []
        for condition in self._conditions:
            for client in condition.usage_clients:
                if not any(client is known for known in clients):
                    clients.append(client)
        return clients

    def describe(self) -> str:
        parts = [f"({c.describe()})" if isinstance(c, _Combination) else c.describe() for c in self._conditions]
        return f" {self._symbol} ".join(parts)

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        # Every condition sees every message, so counting conditions stay right whoever fires first.
        return self._combine([c.check(messages, context) for c in self._conditions])

    async def _a_evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]
                          ) -> Optional[StopMessage]:
        return self._combine([await c.a_check(messages, context) for c in self._conditions])

    @abstractmethod
    def _combine(self, stops: list[Optional[StopMessage]]) -> Optional[StopMessage]:
        """The combination's stop message from its conditions' results (None: not fired)."""


class OrTerminationCondition(_Combination):
    """Fires when any of its conditions fires (``a | b``).

    Its stop message is that of the first condition that fired (content and source), with the stop
    messages of all the conditions that fired at that check under ``details["fired"]``.
    """

    _symbol = "|"

    def _combine(self, stops: list[Optional[StopMessage]]) -> Optional[StopMessage]:
        fired = [stop for stop in stops if stop is not None]
        if not fired:
            return None
        first = fired[0]
        details = {**first.details, "fired": [stop.to_dict() for stop in fired]}
        return StopMessage(content=first.content, source=first.source, details=details)


class AndTerminationCondition(_Combination):
    """Fires once every one of its conditions has fired (``a & b``), at the same check or at different ones.

    Its content joins theirs with "; "; ``details["fired"]`` lists their stop messages.
    """

    _symbol = "&"

    def _combine(self, stops: list[Optional[StopMessage]]) -> Optional[StopMessage]:
        if any(stop is None for stop in stops):
            return None
        fired = [stop for stop in stops if stop is not None]
        return StopMessage(content="; ".join(stop.content for stop in fired), source=type(self).__name__,
                           details={"fired": [stop.to_dict() for stop in fired]})


def validate_termination(value: Any, field: str) -> Optional[TerminationCondition]:
    """``value`` when it is a termination condition (or None); TypeError naming ``field`` and the fix otherwise.

    Args:
        value: what was passed for the field.
        field: the argument's name, as the user wrote it (e.g. ``"GroupChat(termination=...)"``).
    """
    if value is None or isinstance(value, TerminationCondition):
        return value
    if isinstance(value, str):
        fix = f"to stop when the text is mentioned, pass TextMentionTermination({value!r})"
    elif isinstance(value, int) and not isinstance(value, bool):
        fix = f"to stop after a number of messages, pass MaxMessageTermination({value})"
    elif callable(value):
        fix = ("wrap a function f(messages) -> bool in FunctionalTermination(f); a classic is_termination_msg "
               "function (one message -> bool) belongs in is_termination_msg=")
    else:
        fix = "pass e.g. TextMentionTermination('TERMINATE') | MaxMessageTermination(25), or None"
    raise TypeError(f"{field} must be a TerminationCondition or None; got {shorten(value)} "
                    f"({type(value).__name__}). Fix: {fix}.")

