"""The API key never leaves the request: not in the console, logs, caches, transcripts, reprs or errors.

Chats run against the scripted server with a recognisable fake key, including endpoint answers that echo
the key back (as a real "Incorrect API key provided: sk-..." error does). Everything the package
produced is then searched for the key and for fragments of it.
"""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest

from autogen_classic import (
    AssistantAgent,
    ConversableAgent,
    GroupChat,
    GroupChatManager,
    OpenAIWrapper,
    UserProxyAgent,
    config_list_from_json,
    load_transcript,
)
from autogen_classic.cache import Cache
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

KEY = "sk-LEAKTEST-0123456789abcdefXYZ"
# The whole key and pieces of it that would betray a partial leak (e.g. "sk-LEAKTE...XYZ" masking).
FRAGMENTS = (KEY, "LEAKTEST", "0123456789abcdef", "6789abcdefXYZ")
SELECT_PROMPT = "Then select the next role"


class Evidence:
    """Every text and file the package produced during a test, searched for the key at the end."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.texts: list[tuple[str, str]] = []

    def add(self, label: str, text: Any) -> None:
        self.texts.append((label, text if isinstance(text, str) else repr(text)))

    def add_error(self, label: str, error: BaseException, *, chain: bool = False) -> None:
        """The message, repr, args and traceback of ``error``; with ``chain``, of every chained error too."""
        self.add(f"{label}: traceback", "".join(traceback.format_exception(error, chain=chain)))
        for attempt in getattr(error, "attempts", []):
            self.add(f"{label}: attempt", f"{attempt.endpoint} {attempt.reason} {attempt!r:.0}")
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            self.add(f"{label}: str({type(current).__name__})", str(current))
            self.add(f"{label}: repr({type(current).__name__})", repr(current))
            self.add(f"{label}: args", repr(current.args))
            current = (current.__cause__ or current.__context__) if chain else None

    def attempt(self, label: str, call: Callable[[], Any], *, chain: bool = False) -> BaseException | None:
        """Run ``call`` and keep everything about its error, or the repr of its result when it succeeds."""
        try:
            result = call()
        except Exception as error:  # noqa: BLE001 - any failure is evidence
            self.add_error(label, error, chain=chain)
            return error
        self.add(f"{label}: result", repr(result))
        return None

    def capture(self, label: str, call: Callable[[], Any], *, chain: bool = False) -> BaseException:
        """Run ``call``, which must fail, and keep everything about its error."""
        error = self.attempt(label, call, chain=chain)
        assert error is not None, f"{label}: expected an error"
        return error

    def leaks(self) -> list[str]:
        """Where a fragment of the key was found, with some context."""
        found: list[str] = []
        for label, text in self.texts:
            for fragment in FRAGMENTS:
                at = text.find(fragment)
                if at >= 0:
                    found.append(f"{fragment!r} in {label}: ...{text[max(0, at - 60):at + 60]!r}...")
                    break
        for path in sorted(p for p in self.root.rglob("*") if p.is_file() and "inputs" not in p.parts):
            data = path.read_bytes()
            for fragment in FRAGMENTS:
                if fragment.encode() in data or fragment.encode("utf-16-le") in data:
                    found.append(f"{fragment!r} in the file {path.relative_to(self.root)}")
                    break
        return found

    def assert_no_key(self) -> None:
        leaks = self.leaks()
        assert not leaks, "the API key leaked:\n" + "\n".join(leaks)


@pytest.fixture
def evidence(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Iterator[Evidence]:
    """Collects console output and DEBUG logs (autogen_classic, openai, httpx) into an Evidence, checked after."""
    found = Evidence(tmp_path)
    stream = ScriptedIOStream()
    handler = logging.FileHandler(tmp_path / "debug.log", encoding="utf-8")
    handler.setLevel(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    # The HTTP stack's loggers too (httpx2/httpcore2 are what this openai release uses).
    names = ("autogen_classic", "openai", "httpx", "httpcore", "httpx2", "httpcore2")
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
    caplog.set_level(logging.DEBUG)
    try:
        with IOStream.set_default(stream):
            yield found
    finally:
        for logger, level in zip(loggers, levels):
            logger.removeHandler(handler)
            logger.setLevel(level)
        handler.close()
    found.add("console", stream.raw_output)
    found.add("console prompts", "".join(stream.prompts))
    found.add("caplog text", caplog.text)
    for record in caplog.records:
        found.add(f"log record {record.name}", record.getMessage())
        found.add(f"log record {record.name} args", repr(record.args))
        if record.exc_info:
            found.add(f"log record {record.name} exc", "".join(traceback.format_exception(*record.exc_info)))
    found.assert_no_key()


def keyed_config(server: ScriptedOpenAIServer, **extra: Any) -> dict[str, Any]:
    entry = server.config_entry(api_key=KEY, max_retries=0)
    return {"config_list": [entry], "cache_seed": None, **extra}


def assert_key_was_sent(server: ScriptedOpenAIServer) -> None:
    """The key was really in play: every request carried it (where it belongs)."""
    assert server.request_headers and all(h.get("authorization") == f"Bearer {KEY}" for h in server.request_headers)


def show(evidence: Evidence, *objects: Any) -> None:
    """Print objects the way a user would inspect them (console and repr)."""
    out = IOStream.get_default()
    for obj in objects:
        out.print(obj)
        evidence.add(f"repr({type(obj).__name__})", repr(obj))
        evidence.add(f"str({type(obj).__name__})", str(obj))


# ----------------------------------------------------------------- chats that work
def test_two_agent_chat_with_disk_caches_keeps_the_key_out(
    scripted_server: ScriptedOpenAIServer, evidence: Evidence, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_server.set_responder(lambda body: f"answer {len(body['messages'])}")
    assistant = AssistantAgent("assistant", llm_config=keyed_config(scripted_server))
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, llm_config=False)
    with Cache.disk(cache_seed=7, cache_path_root=tmp_path / "cache") as cache:
        first = user.initiate_chat(assistant, message="hello", max_turns=2, cache=cache)
        again = user.initiate_chat(assistant, message="hello", max_turns=2, cache=cache)
    assert scripted_server.request_count == 2 and again.chat_history == first.chat_history  # 2nd run: cache hits
    assert any((tmp_path / "cache").rglob("*"))

    # The legacy cache_seed writes under ./.cache: run in tmp_path so those files are searched too.
    monkeypatch.chdir(tmp_path)
    legacy = AssistantAgent("legacy", llm_config=keyed_config(scripted_server, cache_seed=11))
    user.initiate_chat(legacy, message="cached by seed", max_turns=1)
    assert any((tmp_path / ".cache").rglob("*"))
    assert_key_was_sent(scripted_server)

    assistant.print_usage_summary()
    show(evidence, assistant, assistant.client, first, assistant.client._clients, assistant.get_total_usage(),
         assistant.chat_messages)


def test_group_chat_with_auto_selection_keeps_the_key_out(
    scripted_server: ScriptedOpenAIServer, evidence: Evidence, tmp_path: Path
) -> None:
    names = ["planner", "coder", "critic"]

    def respond(body: dict[str, Any]) -> str:
        last = str(body["messages"][-1].get("content"))
        if SELECT_PROMPT in last:
            spoken = sum(1 for m in body["messages"] if m.get("name") in names)
            return names[spoken % len(names)]
        return f"my turn ({len(body['messages'])} messages so far)"

    scripted_server.set_responder(respond)
    agents = [AssistantAgent(n, llm_config=keyed_config(scripted_server), description=f"the {n}") for n in names]
    transcript = tmp_path / "chat.jsonl"
    groupchat = GroupChat(agents, max_round=4, speaker_selection_method="auto", transcript_path=str(transcript))
    manager = GroupChatManager(groupchat, llm_config=keyed_config(scripted_server))
    with Cache.disk(cache_seed=3, cache_path_root=tmp_path / "cache") as cache:
        result = agents[0].initiate_chat(manager, message="plan the work", cache=cache)
    groupchat.close_transcript()
    assert [m["name"] for m in groupchat.messages] == ["planner", "coder", "critic", "planner"]
    assert load_transcript(transcript) == groupchat.messages
    assert_key_was_sent(scripted_server)
    show(evidence, manager, manager.client, groupchat, groupchat.selection_log, result)


# ----------------------------------------------------------------- failures
def echoing_error(status: int) -> ScriptedReply:
    """An error body that quotes the key back, as OpenAI's 401 does."""
    return ScriptedReply(status=status, error_message=f"Incorrect API key provided: {KEY}. Find yours at ...")


def test_the_search_finds_a_planted_key(tmp_path: Path) -> None:
    found = Evidence(tmp_path)
    assert found.leaks() == []
    found.add("console", f"key is {KEY[:12]}...")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "blob").write_bytes(b"\x00" + KEY[-16:].encode("utf-16-le"))
    (tmp_path / "inputs").mkdir()
    (tmp_path / "inputs" / "OAI_CONFIG_LIST").write_text(KEY)  # the inputs folder is not searched
    assert [leak.split(":")[0] for leak in found.leaks()] == [
        "'LEAKTEST' in console", "'6789abcdefXYZ' in the file cache/blob"]


def test_endpoint_errors_that_echo_the_key_are_scrubbed(
    scripted_server: ScriptedOpenAIServer, evidence: Evidence, caplog: pytest.LogCaptureFixture
) -> None:
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, llm_config=False)

    scripted_server.add_reply(echoing_error(401))
    assistant = AssistantAgent("assistant", llm_config=keyed_config(scripted_server))
    error = evidence.capture("401", lambda: user.initiate_chat(assistant, message="hi", max_turns=1))
    assert "401" in str(error)

    # 500 twice with one retry: the retries are exhausted.
    scripted_server.reset()
    scripted_server.add_replies(echoing_error(500), echoing_error(500))
    config = keyed_config(scripted_server)
    config["config_list"][0]["max_retries"] = 1
    retried = AssistantAgent("retried", llm_config=config)
    error = evidence.capture("500", lambda: user.initiate_chat(retried, message="hi", max_turns=1))
    assert "500" in str(error) and scripted_server.request_count == 2

    # A malformed body quoting the key.
    scripted_server.reset()
    scripted_server.add_reply(ScriptedReply(raw_body=f'{{"id": "x", "note": "{KEY}", "choices": [oops'))
    evidence.capture("malformed", lambda: user.initiate_chat(AssistantAgent("m", llm_config=keyed_config(
        scripted_server)), message="hi", max_turns=1))

    # Async too.
    import asyncio

    scripted_server.reset()
    scripted_server.add_reply(echoing_error(401))
    evidence.capture("async 401", lambda: asyncio.run(user.a_initiate_chat(
        AssistantAgent("a_assistant", llm_config=keyed_config(scripted_server)), message="hi", max_turns=1)))
    assert_key_was_sent(scripted_server)
    show(evidence, assistant, assistant.client)
    # The failures were logged (and those records are searched too), with the key masked.
    warnings = [r.getMessage() for r in caplog.records
                if r.name == "autogen_classic.oai" and "HTTP 401" in r.getMessage()]
    assert warnings and all("Incorrect API key provided: ***" in w for w in warnings)


def test_group_chat_failing_in_auto_selection_keeps_the_key_out(
    scripted_server: ScriptedOpenAIServer, evidence: Evidence, tmp_path: Path
) -> None:
    scripted_server.add_reply(echoing_error(401))  # the selector's first request
    agents = [ConversableAgent(n, llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")
              for n in ("a", "b", "c")]
    transcript = tmp_path / "chat.jsonl"
    groupchat = GroupChat(agents, max_round=3, transcript_path=str(transcript))
    manager = GroupChatManager(groupchat, llm_config=keyed_config(scripted_server))
    error = evidence.capture("group 401", lambda: agents[0].initiate_chat(manager, message="start"))
    assert "401" in str(error)
    groupchat.close_transcript()
    assert load_transcript(transcript) == groupchat.messages
    assert_key_was_sent(scripted_server)
    show(evidence, groupchat.selection_log, manager.client)


def test_bad_configurations_never_echo_the_key(evidence: Evidence, tmp_path: Path) -> None:
    bad_entries: list[dict[str, Any]] = [
        {"model": "m", "api_key": KEY, "temperature": "hot"},
        {"model": 3, "api_key": KEY},
        {"model": "m", "api_key": KEY, "base_url": 3},
        {"model": "m", "api_key": KEY, "temprature": 0.5},
        {"model": "m", "api-key": KEY, "timeout": "soon"},  # the secret under a misspelt name
        {"model": "m", "api_key": [KEY], "max_retries": -1},
    ]
    for index, entry in enumerate(bad_entries):
        refused = evidence.attempt(f"wrapper {index}", lambda entry=entry: OpenAIWrapper(config_list=[entry]))
        evidence.attempt(f"agent {index}", lambda entry=entry: ConversableAgent(
            "x", llm_config={"config_list": [entry]}))
        if "temprature" not in entry:  # a misspelt option may be accepted or refused; the rest is invalid
            assert isinstance(refused, ValueError) and "config_list[0]" in str(refused)
    evidence.capture("not a list", lambda: OpenAIWrapper(config_list={"model": "m", "api_key": KEY}))

    inputs = tmp_path / "inputs"  # files holding the key on purpose: not searched
    inputs.mkdir()
    (inputs / "OAI_CONFIG_LIST").write_text(f'[{{"model": "m", "api_key": "{KEY}",}}')  # trailing comma
    evidence.capture("json file", lambda: config_list_from_json("OAI_CONFIG_LIST", file_location=str(inputs)))
    (inputs / "OBJECT").write_text(json.dumps({"model": "m", "api_key": KEY}))
    evidence.capture("json object", lambda: config_list_from_json("OBJECT", file_location=str(inputs)))


def test_the_chained_endpoint_error_is_scrubbed_too(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    found = Evidence(tmp_path)
    scripted_server.add_reply(echoing_error(401))
    wrapper = OpenAIWrapper(**keyed_config(scripted_server))
    found.capture("401 with its chain", lambda: wrapper.create(messages=[{"role": "user", "content": "hi"}]),
                  chain=True)
    assert_key_was_sent(scripted_server)
    found.assert_no_key()


def test_scrubbing_keeps_error_arguments_of_any_sequence_type() -> None:
    # Transport errors carry named tuples (a connection key) and other sequences among their
    # arguments; scrubbing must rebuild them, or leave them as they are when they hold no key.
    from collections import namedtuple

    from autogen_classic.oai.secrets import scrub_exception

    Key = namedtuple("Key", "host port token")
    clean = Key("127.0.0.1", 8080, "no secret")
    leaky = Key("127.0.0.1", 8080, f"token {KEY}")
    error = scrub_exception(RuntimeError(clean, leaky, [KEY, 1], ("x",)), KEY)
    assert error.args[0] is clean
    assert error.args[1] == Key("127.0.0.1", 8080, "token ***") and type(error.args[1]) is Key
    assert error.args[2] == ["***", 1]
    assert KEY not in repr(error)
