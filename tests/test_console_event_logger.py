"""The console prints through the ``ag2.event.processor`` logger once someone configures it (AG2 Classic 0.14's
way to capture, format or silence what a chat prints); unconfigured, it prints to standard output."""

from __future__ import annotations

import io
import logging
from typing import Iterator

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.io import IOConsole, IOStream
from console_masks import mask_run_ids

LOGGER = "ag2.event.processor"


@pytest.fixture
def event_logger() -> Iterator[logging.Logger]:
    logger = logging.getLogger(LOGGER)
    saved = (logger.handlers[:], logger.filters[:], logger.level, logger.propagate, logger.disabled)
    yield logger
    logger.handlers, logger.filters, logger.level, logger.propagate, logger.disabled = saved


def _chat() -> None:
    a = ConversableAgent("a", llm_config=False, default_auto_reply="hi", human_input_mode="NEVER")
    b = ConversableAgent("b", llm_config=False, default_auto_reply="yo", human_input_mode="NEVER")
    with IOStream.set_default(IOConsole()):
        a.initiate_chat(b, message="Hello!", max_turns=1)


EXPECTED = (
    "a (to b):\n\nHello!\n\n" + "-" * 80 + "\nb (to a):\n\nyo\n\n" + "-" * 80 + "\n"
    "\n>>>>>>>> TERMINATING RUN (ID): Maximum turns (1) reached\n"
)


def test_unconfigured_the_console_prints_to_stdout(event_logger: logging.Logger,
                                                   capsys: pytest.CaptureFixture) -> None:
    event_logger.handlers, event_logger.filters, event_logger.level = [], [], logging.NOTSET
    _chat()
    assert mask_run_ids(capsys.readouterr().out) == EXPECTED


def test_a_handler_of_the_users_takes_every_line(event_logger: logging.Logger,
                                                 capsys: pytest.CaptureFixture) -> None:
    captured = io.StringIO()
    handler = logging.StreamHandler(captured)
    handler.setFormatter(logging.Formatter("LOGGED: %(message)s"))
    event_logger.handlers = [handler]
    event_logger.setLevel(logging.INFO)
    event_logger.propagate = False
    _chat()
    assert capsys.readouterr().out == ""
    lines = mask_run_ids(captured.getvalue()).splitlines()
    assert lines[0] == "LOGGED: a (to b):"
    assert lines[-1] == ">>>>>>>> TERMINATING RUN (ID): Maximum turns (1) reached"
    assert sum(line.startswith("LOGGED: ") for line in lines) == 7  # one record per printed piece


def test_a_filter_and_a_level_are_honoured(event_logger: logging.Logger, capsys: pytest.CaptureFixture) -> None:
    captured = io.StringIO()
    event_logger.handlers = [logging.StreamHandler(captured)]
    event_logger.setLevel(logging.INFO)
    event_logger.addFilter(lambda record: "TERMINATING" not in record.getMessage())
    _chat()
    assert "a (to b):" in captured.getvalue() and "TERMINATING" not in captured.getvalue()

    event_logger.handlers, event_logger.filters = [], []
    event_logger.setLevel(logging.WARNING)  # silences the console, as in AG2 Classic 0.14
    _chat()
    assert capsys.readouterr().out == ""
