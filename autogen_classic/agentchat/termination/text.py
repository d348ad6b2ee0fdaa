"""Conditions on what the messages say and who sends them: ``TextMentionTermination``,
``RegexTermination`` and ``SourceMatchTermination``."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union

from .base import StopMessage, TerminationCondition, TerminationContext
from .reading import message_source, message_text, shorten

__all__ = ["RegexTermination", "SourceMatchTermination", "TextMentionTermination", "check_sources"]


def check_sources(sources: Any, owner: str, *, required: bool = False) -> Optional[tuple[str, ...]]:
    """``sources`` as a tuple of agent names (one str is one name); None stays None unless ``required``."""
    if sources is None and not required:
        return None
    if isinstance(sources, str):
        sources = [sources]
    if not isinstance(sources, (Sequence, set, frozenset)) or isinstance(sources, bytes):
        raise TypeError(f"{owner}: sources must be a list of agent names (str); got {shorten(sources)} "
                        f"({type(sources).__name__}).")
    names = tuple(sources)
    bad = [name for name in names if not isinstance(name, str) or not name]
    if bad:
        raise TypeError(f"{owner}: sources must be non-empty agent names (str); got {shorten(bad[0])}. Pass the "
                        "agents' names, e.g. sources=[planner.name].")
    if not names:
        raise ValueError(f"{owner}: sources is empty, so the condition could never fire; name at least one agent"
                         + ("" if required else " or pass sources=None (any sender)") + ".")
    return names


def _sources_arg(sources: Optional[tuple[str, ...]]) -> str:
    return "" if sources is None else f", sources={list(sources)!r}"


def _sent_by(
    messages: list[dict[str, Any]], context: Optional[TerminationContext], sources: Optional[tuple[str, ...]]
) -> Iterator[tuple[Optional[str], dict[str, Any]]]:
    """Each message sent by one of ``sources`` (None: by anyone), with its sender (the newest message's may be
    the context's speaker)."""
    for index, message in enumerate(messages):
        speaker = message_source(message, context, index == len(messages) - 1)
        if sources is None or speaker in sources:
            yield speaker, message


class TextMentionTermination(TerminationCondition):
    """Fires when a message's content mentions ``text`` (content as a str or a list of text parts).

    Args:
        text: the text to look for (case-sensitive), e.g. "TERMINATE".
        sources: only messages from these agents count (matched with the message's ``name``, else the
            context's speaker for the newest message); None: any sender.
    """

    def __init__(self, text: str, sources: Optional[Sequence[str]] = None) -> None:
        super().__init__()
        if not isinstance(text, str) or not text:
            raise TypeError(f"TextMentionTermination: text must be a non-empty str, e.g. 'TERMINATE'; got "
                            f"{shorten(text)}.")
        self.text = text
        self.sources = check_sources(sources, "TextMentionTermination")

    def _describe_args(self) -> str:
        return f"{self.text!r}{_sources_arg(self.sources)}"

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        for speaker, message in _sent_by(messages, context, self.sources):
            if self.text in message_text(message):
                return StopMessage(content=f"Text '{self.text}' mentioned", source=type(self).__name__,
                                   details={"text": self.text, "speaker": speaker})
        return None


class RegexTermination(TerminationCondition):
    """Fires when ``re.search(pattern, content)`` finds a match in a message's content.

    Args:
        pattern: a regular expression (str) or a compiled ``re.Pattern``.
        sources: only messages from these agents count; None: any sender.
        flags: ``re`` flags for a str pattern (e.g. ``re.IGNORECASE``).
    """

    def __init__(self, pattern: Union[str, re.Pattern[str]], sources: Optional[Sequence[str]] = None,
                 flags: int = 0) -> None:
        super().__init__()
        if isinstance(pattern, re.Pattern):
            if flags:
                raise ValueError("RegexTermination: flags apply to a str pattern; compile them into the re.Pattern "
                                 "instead (re.compile(text, flags)).")
            self.pattern = pattern
        elif isinstance(pattern, str) and pattern:
            try:
                self.pattern = re.compile(pattern, flags)
            except re.error as err:
                raise ValueError(f"RegexTermination: pattern {pattern!r} is not a valid regular expression "
                                 f"({err}).") from None
        else:
            raise TypeError(f"RegexTermination: pattern must be a non-empty str or a compiled re.Pattern; got "
                            f"{shorten(pattern)}.")
        if not isinstance(self.pattern.pattern, str):
            raise TypeError("RegexTermination: the pattern must match text (a str pattern), not bytes.")
        self.sources = check_sources(sources, "RegexTermination")

    def _describe_args(self) -> str:
        return f"{self.pattern.pattern!r}{_sources_arg(self.sources)}"

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        for speaker, message in _sent_by(messages, context, self.sources):
            match = self.pattern.search(message_text(message))
            if match is not None:
                return StopMessage(content=f"Pattern '{self.pattern.pattern}' matched", source=type(self).__name__,
                                   details={"pattern": self.pattern.pattern, "match": match.group(0),
                                            "speaker": speaker})
        return None


class SourceMatchTermination(TerminationCondition):
    """Fires when a message from one of ``sources`` arrives (e.g. stop once the reviewer has answered).

    Args:
        sources: the agents' names (matched with the message's ``name``, else the context's speaker for the
            newest message).
    """

    def __init__(self, sources: Sequence[str]) -> None:
        super().__init__()
        self.sources = check_sources(sources, "SourceMatchTermination", required=True)

    def _describe_args(self) -> str:
        return repr(list(self.sources or ()))

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        for speaker, _ in _sent_by(messages, context, self.sources or ()):  # the first message from a source
            return StopMessage(content=f"'{speaker}' answered", source=type(self).__name__,
                               details={"speaker": speaker})
        return None
