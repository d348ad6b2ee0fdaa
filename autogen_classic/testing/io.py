"""A console stream driven by a script: canned input lines, recorded output.

Used by the test suite and handy in notebooks to show what a person at the
keyboard would see without anyone typing.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any, Iterable, List

__all__ = ["ScriptedIOStream"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class ScriptedIOStream:
    """Answers ``input`` from ``inputs`` in order and records everything printed.

    When the script runs out, ``input`` raises ``EOFError`` (like a closed stdin),
    unless ``default_input`` is given, which is then returned for every further prompt.
    """

    _NO_DEFAULT = object()

    def __init__(self, inputs: Iterable[str] = (), *, default_input: Any = _NO_DEFAULT, echo: bool = False) -> None:
        self._inputs = deque(inputs)
        self._default_input = default_input
        self.echo = echo
        self.prompts: List[str] = []
        self.chunks: List[str] = []
        self.events: List[Any] = []  # the events sent, in order (``send``)

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        text = sep.join(str(o) for o in objects) + end
        self.chunks.append(text)
        if self.echo:
            print(text, end="")

    def send(self, message: Any) -> None:
        """Record an event (``events``) and print it as the console would."""
        self.events.append(message)
        message.print(self.print)

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        self.prompts.append(prompt)
        self.chunks.append(prompt)
        if self._inputs:
            reply = self._inputs.popleft()
            if isinstance(reply, BaseException) or (isinstance(reply, type) and issubclass(reply, BaseException)):
                raise reply
            self.chunks.append(str(reply) + "\n")
            return str(reply)
        if self._default_input is not self._NO_DEFAULT:
            return str(self._default_input)
        raise EOFError("scripted input exhausted")

    def add_inputs(self, *lines: str) -> None:
        """Queue more input lines."""
        self._inputs.extend(lines)

    @property
    def remaining_inputs(self) -> int:
        return len(self._inputs)

    @property
    def raw_output(self) -> str:
        """Everything printed, with colour codes."""
        return "".join(self.chunks)

    @property
    def output(self) -> str:
        """Everything printed, colour codes removed."""
        return _ANSI.sub("", self.raw_output)

    def clear(self) -> None:
        self.chunks.clear()
        self.prompts.clear()
        self.events.clear()
