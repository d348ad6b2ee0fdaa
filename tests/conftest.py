"""Shared fixtures: a scripted OpenAI server, a scripted console and the embedded model server."""

from __future__ import annotations

import socket
from typing import Iterator

import pytest

from autogen_classic.io.base import IOStream
from autogen_classic.local import EmbeddedServer, start_server, stop_server
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


@pytest.fixture(scope="session")
def _scripted_server_session() -> Iterator[ScriptedOpenAIServer]:
    # One real HTTP server per session keeps tests fast; each test gets it freshly reset.
    with ScriptedOpenAIServer() as server:
        yield server


@pytest.fixture
def scripted_server(_scripted_server_session: ScriptedOpenAIServer) -> Iterator[ScriptedOpenAIServer]:
    """The session's scripted OpenAI server with an empty queue, no responder and no recorded requests."""
    _scripted_server_session.reset()
    yield _scripted_server_session
    _scripted_server_session.reset()


@pytest.fixture
def dead_base_url() -> str:
    """``http://127.0.0.1:PORT/v1`` for a port that was free a moment ago: nothing listens there."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.fixture
def console() -> Iterator[ScriptedIOStream]:
    """A fresh ``ScriptedIOStream`` installed as the default IOStream for the test."""
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        yield stream


@pytest.fixture(autouse=True)
def _fresh_colour_decision() -> Iterator[None]:
    """termcolor caches whether to colour; tests that set FORCE_COLOR/NO_COLOR need a fresh decision."""
    from termcolor.termcolor import can_colorize

    can_colorize.cache_clear()
    yield
    can_colorize.cache_clear()


@pytest.fixture(scope="session")
def embedded_server() -> Iterator[EmbeddedServer]:
    """This process's embedded SmolLM2 server (``autogen_classic.local.start_server()``), shared by the session."""
    yield start_server()
    stop_server()


@pytest.fixture(autouse=True)
def _restore_package_log_levels() -> Iterator[None]:
    """The benchmarks quiet the package's loggers when run; tests calling them must not leak that."""
    import logging

    names = ("autogen_classic", "autogen_classic.agentchat.groupchat")
    levels = {name: logging.getLogger(name).level for name in names}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
