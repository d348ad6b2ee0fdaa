"""Benchmark of many group chats at once: 50 chats through ``a_initiate_chat`` and ``asyncio.gather``.

Each chat is a ``GroupChat`` of three agents ("round_robin"): a ``user`` agent with a fixed reply
and two model agents, ``writer`` and ``critic``, backed by the scripted OpenAI server on 127.0.0.1
that takes ``--latency`` seconds (default 0.1) per answer. A chat has ``--rounds`` messages (default
5: user, writer, critic, user, writer, so three model calls).

The agents are built before the clock starts. One chat is timed alone, then all chats at once:
first with new agents ("cold": each model agent's first request also builds its ``openai`` client,
and new connections are opened), then ``--repeat`` times with the same agents ("warm"), one chat alone right before all at
once each time. As the time goes into waiting on the server, the warm concurrent run should take
little more than one chat: the target is a median ratio of at most 1.5x. The median is used because
single runs on a small shared machine vary by a third or more. The same requests sent with the
bare ``openai`` SDK (one client per chat) are timed the same way, as the floor any framework can
reach on this machine: once on the SDK's default httpx client, once on its aiohttp client (which
the package uses for async requests).

The server runs in a child process (``--in-process``: a thread of this one), so its work does
not compete with the chats for the interpreter lock.

Every chat carries its own tag (``[chat-7]``) in its first message and its user's replies. The
server answers each request with the tag found in it and records any request mixing two tags;
afterwards every transcript (the group's messages and each agent's history) must hold its own tag
only. Any message seen in the wrong chat is reported as a leak.

Usage: ``python bench/bench_scale.py [--chats N] [--latency SECONDS] [--rounds N] [--repeat N] [--in-process]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any

import openai

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

CHATS = 50
LATENCY = 0.1
ROUNDS = 5
REPEAT = 5
TARGET_RATIO = 1.5
_TAG = re.compile(r"\[chat-(\d+)\]")


def tag(chat: int) -> str:
    """The marker carried by every message of chat number ``chat``."""
    return f"[chat-{chat}]"


def tags_in(texts: Iterable[Any]) -> set[int]:
    """The chat numbers tagged in ``texts`` (non-strings are skipped)."""
    return {int(number) for text in texts if isinstance(text, str) for number in _TAG.findall(text)}


class TaggingResponder:
    """Scripted-server responder: echoes the request's chat tag after ``latency`` seconds.

    A request whose messages carry more than one tag (or none) is recorded in ``mixed``.
    """

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.mixed: list[set[int]] = []
        self.calls: dict[int, int] = {}
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> ScriptedReply:
        found = tags_in(message.get("content") for message in body.get("messages", []))
        with self._lock:  # the server answers each connection in its own thread
            if len(found) != 1:
                self.mixed.append(found)
            chat = min(found) if found else -1
            self.calls[chat] = self.calls.get(chat, 0) + 1
            number = self.calls[chat]
        return ScriptedReply(content=f"{tag(chat)} model answer {number}.", delay=self.latency)


@dataclass
class ChatRun:
    """One finished chat: its number, transcript and the tags found in every history it touched."""

    chat: int
    messages: list[dict[str, Any]]
    foreign_tags: set[int] = field(default_factory=set)

    @property
    def leaked(self) -> bool:
        return bool(self.foreign_tags)


@dataclass
class Timing:
    """Wall times of one chat alone and of all chats at once, measured one right after the other."""

    one: float
    many: float

    @property
    def ratio(self) -> float:
        return self.many / self.one if self.one > 0 else float("inf")


def median_timing(timings: Sequence[Timing]) -> tuple[float, float, float]:
    """Median one-chat time, median all-at-once time and median ratio of ``timings``."""
    return (statistics.median(t.one for t in timings), statistics.median(t.many for t in timings),
            statistics.median(t.ratio for t in timings))


@dataclass
class ScaleResult:
    """Timings of one chat and of ``chats`` chats at once, with new agents ("cold": each agent's
    first request also builds its async HTTP client) and with the same agents again, once per
    repeat ("warm"), and of the same calls with the bare SDK on its default httpx client ("raw") and
    on its aiohttp client ("raw_aiohttp"); every finished chat (``runs``) and the leak checks."""

    chats: int
    rounds: int
    latency: float
    cold: Timing
    warm: list[Timing]
    raw: list[Timing]
    raw_aiohttp: list[Timing]
    runs: list[ChatRun]
    mixed_requests: list[set[int]]
    model_calls: int

    @property
    def ratio_cold(self) -> float:
        return self.cold.ratio

    @property
    def ratio_raw(self) -> float:
        """Median ratio of the bare SDK's runs."""
        return median_timing(self.raw)[2]

    @property
    def ratio(self) -> float:
        """Median, over the repeats, of all chats' wall time over one chat's, with warm agents."""
        return median_timing(self.warm)[2]

    @property
    def leaks(self) -> list[int]:
        """Numbers of the chats in which a message of another chat was found."""
        return [run.chat for run in self.runs if run.leaked]

    @property
    def complete(self) -> bool:
        """Every chat ran its full number of rounds."""
        return all(len(run.messages) == self.rounds for run in self.runs)


def build_chat(chat: int, llm_config: dict[str, Any], rounds: int) -> tuple[ConversableAgent, GroupChatManager]:
    """The user agent and the manager of chat number ``chat``."""
    user = ConversableAgent(
        "user", llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{tag(chat)} Please go on.",
    )
    writer = ConversableAgent("writer", system_message="You write short drafts.", llm_config=llm_config,
                              human_input_mode="NEVER")
    critic = ConversableAgent("critic", system_message="You review drafts.", llm_config=llm_config,
                              human_input_mode="NEVER")
    groupchat = GroupChat(agents=[user, writer, critic], messages=[], max_round=rounds,
                          speaker_selection_method="round_robin")
    return user, GroupChatManager(groupchat=groupchat, llm_config=False, human_input_mode="NEVER")


def _check(chat: int, manager: GroupChatManager) -> ChatRun:
    groupchat = manager.groupchat
    histories = [groupchat.messages, *manager.chat_messages.values()]
    histories += [history for agent in groupchat.agents for history in agent.chat_messages.values()]
    found = tags_in(message.get("content") for history in histories for message in history)
    return ChatRun(chat, list(groupchat.messages), found - {chat})


async def _timed_gather(chats: dict[int, tuple[ConversableAgent, GroupChatManager]]) -> float:
    """Run the prepared chats at once; return the wall time of the gather alone."""
    start = time.perf_counter()
    await asyncio.gather(*(
        user.a_initiate_chat(manager, message=f"{tag(chat)} Draft a haiku about the sea.")
        for chat, (user, manager) in chats.items()
    ))
    return time.perf_counter() - start


def model_calls_per_chat(rounds: int) -> int:
    """Replies by ``writer`` or ``critic`` in a chat of ``rounds`` messages (round robin after ``user``)."""
    return sum(1 for index in range(1, rounds) if index % 3)


async def _raw_chat(client: openai.AsyncOpenAI, model: str, chat: int, calls: int) -> None:
    messages = [{"role": "system", "content": "You write short drafts."},
                {"role": "user", "content": f"{tag(chat)} Draft a haiku about the sea."}]
    for _ in range(calls):
        response = await client.chat.completions.create(model=model, messages=messages)  # type: ignore[arg-type]
        messages.append({"role": "user", "content": response.choices[0].message.content or ""})


async def _raw_gather(clients: dict[int, openai.AsyncOpenAI], model: str, calls: int) -> float:
    start = time.perf_counter()
    await asyncio.gather(*(_raw_chat(client, model, chat, calls) for chat, client in clients.items()))
    return time.perf_counter() - start


async def _raw_baseline(chats: int, llm_config: dict[str, Any], rounds: int, repeat: int,
                        http: str, offset: int) -> list[Timing]:
    """The same requests with the bare ``openai`` SDK (one warm client per chat): the floor for any framework.

    ``http`` is ``httpx`` (the SDK's default client) or ``aiohttp`` (``openai.DefaultAioHttpClient``,
    what the package uses for async requests); ``offset`` keeps the tags apart from other chats'.
    """
    entry = llm_config["config_list"][0]

    def make() -> openai.AsyncOpenAI:
        http_client = openai.DefaultAioHttpClient() if http == "aiohttp" else None
        return openai.AsyncOpenAI(api_key=entry["api_key"], base_url=entry["base_url"], http_client=http_client)

    clients = {offset + number: make() for number in range(chats + 1)}
    try:
        calls = model_calls_per_chat(rounds)
        await _raw_gather(clients, entry["model"], 1)  # connect every client first
        first = next(iter(clients))
        others = {k: v for k, v in clients.items() if k != first}
        timings = []
        for _ in range(repeat):
            single = await _raw_gather({first: clients[first]}, entry["model"], calls)
            timings.append(Timing(single, await _raw_gather(others, entry["model"], calls)))
        return timings
    finally:
        await asyncio.gather(*(client.close() for client in clients.values()))


async def _bench(chats: int, llm_config: dict[str, Any], rounds: int, repeat: int) -> dict[str, Any]:
    # Agents are built before the clock starts: the measurement is the chats, not their construction.
    warm_up = {0: build_chat(0, llm_config, rounds)}
    single = {1: build_chat(1, llm_config, rounds)}
    many = {number: build_chat(number, llm_config, rounds) for number in range(2, chats + 2)}
    await _timed_gather(warm_up)  # imports and lazy module set-up
    cold = Timing(await _timed_gather(single), await _timed_gather(many))
    runs = [_check(number, manager) for group in (warm_up, single, many) for number, (_, manager) in group.items()]
    # The same chats again: each agent now has its HTTP client, so only the chat itself is timed.
    warm = []
    for _ in range(repeat):
        warm.append(Timing(await _timed_gather(single), await _timed_gather(many)))
        runs += [_check(number, manager) for group in (single, many) for number, (_, manager) in group.items()]
    raw = await _raw_baseline(chats, llm_config, rounds, repeat, "httpx", offset=2 * chats + 10)
    raw_aiohttp = await _raw_baseline(chats, llm_config, rounds, repeat, "aiohttp", offset=3 * chats + 20)
    return {"cold": cold, "warm": warm, "raw": raw, "raw_aiohttp": raw_aiohttp, "runs": runs}


class ServerProcess:
    """The scripted server with a ``TaggingResponder`` in a child process (``--serve LATENCY``).

    A separate process keeps the server's request handling off the interpreter lock of the chats
    being measured, as with any real model server.
    """

    def __init__(self, latency: float) -> None:
        self._process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(latency)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        assert self._process.stdout is not None
        self.base_url = self._process.stdout.readline().strip()
        if not self.base_url.startswith("http"):
            self._process.kill()
            raise RuntimeError(f"the scripted server process did not start (it printed {self.base_url!r})")

    def llm_config(self) -> dict[str, Any]:
        """An ``llm_config`` for the child's server, caching off."""
        entry = {"model": "scripted-model", "base_url": self.base_url, "api_key": "sk-scripted-test"}
        return {"config_list": [entry], "cache_seed": None}

    def finish(self) -> dict[str, Any]:
        """Stop the child; return its ``{"mixed": [...], "calls": N}``."""
        out, _ = self._process.communicate(timeout=30)
        report = json.loads(out.strip().splitlines()[-1])
        report["mixed"] = [set(found) for found in report["mixed"]]
        return report


def serve(latency: float) -> None:
    """Child-process mode: serve until stdin closes, then print the responder's findings as JSON."""
    # The stdlib default accept backlog (5) drops connections when 50 chats connect at once; this
    # process serves nothing else, so raising it for the class here touches no other code.
    ThreadingHTTPServer.request_queue_size = 256
    responder = TaggingResponder(latency)
    with ScriptedOpenAIServer() as server:
        server.set_responder(responder)
        print(server.base_url, flush=True)
        sys.stdin.read()  # the parent closes stdin when it is done
        calls = server.request_count
    print(json.dumps({"mixed": [sorted(found) for found in responder.mixed], "calls": calls}), flush=True)


@contextlib.contextmanager
def _server(latency: float, in_process: bool) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Yield (llm_config, findings); findings gets "mixed" and "calls" when the server stops."""
    findings: dict[str, Any] = {}
    if in_process:
        responder = TaggingResponder(latency)
        with ScriptedOpenAIServer() as server:
            server.set_responder(responder)
            yield server.llm_config(), findings
            findings.update(mixed=responder.mixed, calls=server.request_count)
    else:
        child = ServerProcess(latency)
        try:
            yield child.llm_config(), findings
        finally:
            findings.update(child.finish())


def run(chats: int = CHATS, latency: float = LATENCY, rounds: int = ROUNDS, in_process: bool = False,
        repeat: int = REPEAT) -> ScaleResult:
    """Run one chat alone and ``chats`` chats at once, first with new agents, then ``repeat`` times with
    the same agents (and ``repeat`` times with the bare SDK).

    The server takes ``latency`` seconds per answer; each chat has ``rounds`` messages. The server
    runs in a child process unless ``in_process`` is True (a thread of this process: quicker to
    start, but its work then competes with the chats for the interpreter lock).
    """
    if not isinstance(chats, int) or chats < 1:
        raise ValueError(f"chats must be a positive int, got {chats!r}")
    if not isinstance(rounds, int) or rounds < 2:
        raise ValueError(f"rounds must be an int >= 2 (the first message plus at least one reply), got {rounds!r}")
    if latency < 0:
        raise ValueError(f"latency must be >= 0 seconds, got {latency!r}")
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive int, got {repeat!r}")
    with _server(latency, in_process) as (llm_config, findings), IOStream.set_default(ScriptedIOStream()):
        found = asyncio.run(_bench(chats, llm_config, rounds, repeat))
    return ScaleResult(chats, rounds, latency, found["cold"], found["warm"], found["raw"], found["raw_aiohttp"],
                       found["runs"], findings["mixed"], findings["calls"])


def format_report(result: ScaleResult) -> list[str]:
    """The timing table (medians over the repeats, with the range of the ratio) and the counts behind the checks."""
    per_chat = sum(len(run.messages) for run in result.runs) // len(result.runs)
    rows = [("new agents (cold)", result.cold.one, result.cold.many, result.cold.ratio, "")]
    for name, timings in (("same agents again (warm)", result.warm), ("bare openai SDK (httpx)", result.raw),
                          ("bare openai SDK (aiohttp)", result.raw_aiohttp)):
        one, many, ratio = median_timing(timings)
        ratios = [timing.ratio for timing in timings]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}x" if len(ratios) > 1 else ""
        rows.append((name, one, many, ratio, spread))
    columns = (f"{'run':<27}", f"{'one chat':>9}", f"{f'{result.chats} at once':>10}", f"{'ratio':>6}",
               f"{f'range ({len(result.warm)} runs)':<17}")
    lines = [
        (f"Group chats at scale: {result.chats} chats at once via a_initiate_chat + asyncio.gather, "
        f"{per_chat} messages each, scripted server with {result.latency * 1000:.0f} ms per answer"),
        "  ".join(columns).rstrip(),
        "  ".join("-" * len(column) for column in columns),
        *(f"{name:<27}  {one:>7.3f} s  {many:>8.3f} s  {ratio:>5.2f}x  {spread}".rstrip()
          for name, one, many, ratio, spread in rows),
        "(warm and bare-SDK rows: medians over the runs; each run times one chat, then all at once)",
        "",
        (f"model calls: {result.model_calls}; chats run: {len(result.runs)}, complete: {result.complete}; "
        f"chats with a foreign message: {len(result.leaks)}; requests mixing chats: {len(result.mixed_requests)}"),
    ]
    return lines


def checks(result: ScaleResult) -> dict[str, bool]:
    """The targets: timing within 1.5x of one chat, full transcripts and no cross-chat leakage."""
    return {
        f"{result.chats} chats within {TARGET_RATIO}x of one chat (warm, median)": result.ratio <= TARGET_RATIO,
        "every chat complete": result.complete,
        "no message in another chat": not result.leaks and not result.mixed_requests,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit code 0 when every check passes, else 1."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--chats", type=int, default=CHATS, help=f"chats run at once (default {CHATS})")
    parser.add_argument("--latency", type=float, default=LATENCY,
                        help=f"server seconds per answer (default {LATENCY})")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"messages per chat (default {ROUNDS})")
    parser.add_argument("--repeat", type=int, default=REPEAT,
                        help=f"warm runs (and bare-SDK runs) whose median is reported (default {REPEAT})")
    parser.add_argument("--in-process", action="store_true", help="run the server in a thread of this process")
    parser.add_argument("--serve", type=float, default=None, metavar="LATENCY", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve)
        return 0
    try:
        result = run(args.chats, args.latency, args.rounds, args.in_process, args.repeat)
    except ValueError as exc:
        parser.error(str(exc))
    print("\n".join(format_report(result)))
    print()
    for name, ok in checks(result).items():
        print(f"[{'PASS' if ok else 'MISS'}] {name}")
    return 0 if all(checks(result).values()) else 1


if __name__ == "__main__":
    sys.exit(main())
