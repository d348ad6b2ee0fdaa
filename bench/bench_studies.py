"""Benchmark of studies: many group chats through ``run_group_chats``, one after another, at once, on Ray.

Every chat is a ``GroupChat`` of three agents ("round_robin", ``--rounds`` messages, default 6: the
opening message and five replies), each agent answering through the model: the scripted OpenAI server,
in a child process, which takes ``--latency`` seconds (default 0.1) per answer. The study runs with
``silent=True`` and ``progress=False``, and its factory builds new agents for every chat.

Rows, each in a fresh interpreter (so its peak memory is its own, and one row's heap cannot slow the next):

- ``sequential``: ``concurrency=1``, on ``--sequential-chats`` chats (default 50); its time for
  ``--chats`` is projected per chat (1,000 one after another would take about ten minutes);
- ``asyncio N``: ``concurrency=N`` for each N of ``--concurrency`` (default 10 50 200), on ``--chats`` (1,000);
- ``ray``: ``backend="ray"`` on a local Ray instance of ``--ray-workers`` workers (default 2), on
  ``--ray-chats`` chats (default: ``--sequential-chats``), projected like the sequential row (each Ray
  task runs one chat, so 2 workers run 2 chats at once);
- ``ray, batched``: the same instance with ``concurrency=--ray-concurrency`` (default 100): each task
  takes that many chats and runs them at once on asyncio in its worker, on ``--chats`` chats.
  The Ray rows' memory: the driver's peak RSS, and the peak of the driver and every process of the
  Ray instance together (raylet, GCS, workers; summed PSS).

The latency floor is the time of one chat alone (median of 3, after a warm-up chat). A row's floor is
that time for every wave of chats: ``ceil(chats / at once) x one chat``; the ratio is the row's wall
time over it (1.0x: no time spent beyond waiting on the model). Ray's overhead per chat is measured at
zero latency: Ray's worker-seconds per chat (wall time x workers / chats) minus the sequential time per chat.

Target (printed, not enforced): asyncio at 200 within 3x of the latency floor.

Usage: ``python bench/bench_studies.py [--quick] [--chats N] [--sequential-chats N] [--concurrency N ...]
[--rounds N] [--latency SECONDS] [--ray-chats N] [--ray-workers N] [--ray-concurrency N] [--no-ray] [--sdk-walk]
[--json]``

The exit code is 0 whatever the numbers, 2 when the bench cannot run (the server or a row's process fails).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

CHATS = 1000
SEQUENTIAL_CHATS = 50
CONCURRENCY = (10, 50, 200)
ROUNDS = 6
LATENCY = 0.1
RAY_WORKERS = 2
RAY_CONCURRENCY = 100
QUICK = {"chats": 100, "sequential_chats": 10, "concurrency": (10, 50)}
TARGET_CONCURRENCY = 200
TARGET_RATIO = 3.0
FLOOR_REPEAT = 3
PROJECTED_CHATS = 10_000
PROJECTED_LATENCY = 1.0
PROJECTED_NODES = (1, 4, 16)
ROW_TIMEOUT_S = 3600
REPLY = "Noted. Here is the next step of the plan."
MODEL = "scripted-model"
API_KEY = "sk-scripted-test"


class SetupError(RuntimeError):
    """The bench cannot run: the server or a row's process failed (the message says which and why)."""


# ----------------------------------------------------------------------------------- the study's chat
@dataclass(frozen=True)
class StudyChat:
    """The study's factory: a new ``GroupChat`` of three model agents on the server at ``base_url``.

    A frozen dataclass, so it pickles (Ray sends it to its workers) and repeats exactly.
    """

    base_url: str
    rounds: int = ROUNDS
    sdk_walk: bool = False

    def __call__(self) -> Any:
        from autogen_classic import ConversableAgent, GroupChat

        entry = {"model": MODEL, "base_url": self.base_url, "api_key": API_KEY}
        llm_config = {"config_list": [entry], "cache_seed": None}
        if self.sdk_walk:  # every request through the SDK's typed walk, as while a tracing tool watches it
            llm_config["sdk_fast_path"] = False
        agents = [
            ConversableAgent(name, system_message=f"You are the {name}.", llm_config=llm_config,
                             human_input_mode="NEVER")
            for name in ("planner", "coder", "critic")
        ]
        return GroupChat(agents=agents, messages=[], max_round=self.rounds, speaker_selection_method="round_robin")


def model_calls_per_chat(rounds: int) -> int:
    """Every message after the opening one is a model answer."""
    return rounds - 1


def run_study(base_url: str, rounds: int, chats: int, concurrency: int = 1, backend: str = "local",
              sdk_walk: bool = False) -> Any:
    """One study of ``chats`` chats with the bench's settings; its ``StudyResults``."""
    from autogen_classic.experiments import run_group_chats

    return run_group_chats(StudyChat(base_url, rounds, sdk_walk), chats, message="Plan the release of 2.0.",
                           seed=0, concurrency=concurrency, silent=True, progress=False, backend=backend)


# ----------------------------------------------------------------------------------- memory
def rss_mib() -> float:
    """This process's resident memory now, in MiB (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB (``ru_maxrss`` is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


class TreeMemory:
    """Samples the memory of this process and all its descendants (a local Ray instance's processes).

    The sum is of PSS (proportional set size: a page shared by k processes counts 1/k in each), so
    libraries and the object store mapped by every Ray process are not counted once per process; RSS
    where PSS cannot be read. Needs ``psutil``; without it ``peak_mib`` stays None.
    """

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peak_mib: float | None = None
        self.processes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _sample(self) -> None:
        import psutil

        me = psutil.Process()
        while True:
            total, count = 0, 0
            for process in [me, *me.children(recursive=True)]:
                try:
                    total += _pss(process)
                    count += 1
                except psutil.Error:  # it ended between the listing and the reading
                    continue
            if self.peak_mib is None or total / 2**20 > self.peak_mib:
                self.peak_mib, self.processes = total / 2**20, count
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> TreeMemory:
        if importlib.util.find_spec("psutil") is not None:
            self._thread = threading.Thread(target=self._sample, name="tree-memory", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


def _pss(process: Any) -> int:
    try:
        return int(process.memory_full_info().pss)
    except (AttributeError, OSError):  # no PSS on this system
        return int(process.memory_info().rss)


# ----------------------------------------------------------------------------------- one row (child process)
def measure_floor(base_url: str, rounds: int, repeat: int = FLOOR_REPEAT,
                  sdk_walk: bool = False) -> dict[str, Any]:
    """The time of one chat alone: the median of ``repeat`` lone studies of one chat, after a warm-up chat."""
    run_study(base_url, rounds, 1, sdk_walk=sdk_walk)  # imports, the first HTTP client and connection
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_study(base_url, rounds, 1, sdk_walk=sdk_walk)
        times.append(time.perf_counter() - start)
    return {"row": "floor", "one_chat": statistics.median(times), "times": times}


def measure_row(kind: str, base_url: str, rounds: int, chats: int, concurrency: int = 1,
                workers: int = RAY_WORKERS, sdk_walk: bool = False) -> dict[str, Any]:
    """Run one row's study (after a warm-up chat) and return its wall time, memory and completeness."""
    backend = "ray" if kind == "ray" else "local"
    at_once = workers * concurrency if kind == "ray" else concurrency
    tree = TreeMemory() if kind == "ray" else None  # its sampling thread would take CPU from the other rows
    with tree if tree is not None else contextlib.nullcontext():
        if kind == "ray":
            import ray

            # The local instance of `workers` CPUs the study then runs on; started before the clock.
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        # Warm-up: imports, HTTP clients, Ray's workers.
        run_study(base_url, rounds, min(at_once, 2), concurrency, backend, sdk_walk)
        rss_before = rss_mib()
        start, cpu_start = time.perf_counter(), time.process_time()
        records = run_study(base_url, rounds, chats, concurrency, backend, sdk_walk)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    failed = sum(1 for record in records if record.failed)
    short = sum(1 for record in records if not record.failed and len(record.messages) != rounds)
    row = {"row": kind, "chats": chats, "concurrency": concurrency, "at_once": at_once, "wall": wall, "cpu": cpu,
           "rss_before_mib": rss_before, "peak_rss_mib": peak_rss_mib(), "failed": failed, "incomplete": short,
           "errors": sorted({record.error for record in records if record.failed})[:3]}
    if tree is not None:
        row["workers"] = workers
        row["tree_peak_mib"], row["tree_processes"] = tree.peak_mib, tree.processes
    return row


def _row_main(args: argparse.Namespace) -> int:
    """Child-process mode (``--row``): measure one row and print it as one JSON line.

    The chats run with the default output stream, the console, as in a user's script (``silent=True``:
    they print nothing); the parent reads the last line.
    """
    if args.row == "floor":
        found = measure_floor(args.base_url, args.rounds, sdk_walk=args.sdk_walk)
    else:
        found = measure_row(args.row, args.base_url, args.rounds, args.chats, args.row_concurrency,
                            args.ray_workers, args.sdk_walk)
    print(json.dumps(found), flush=True)
    return 0


# ----------------------------------------------------------------------------------- the server (child process)
def serve(latency: float) -> None:
    """Child-process mode (``--serve``): the scripted server until stdin closes; then its request count."""
    from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

    with ScriptedOpenAIServer(default_reply=ScriptedReply(content=REPLY, delay=latency)) as server:
        print(server.base_url, flush=True)
        sys.stdin.read()  # the parent closes stdin when it is done
        calls = server.request_count
    print(json.dumps({"calls": calls}), flush=True)


class ServerProcess:
    """The scripted server in a child process, so its request handling competes with no row's interpreter lock."""

    def __init__(self, latency: float) -> None:
        self._process = subprocess.Popen([sys.executable, __file__, "--serve", str(latency)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        self.base_url = self._process.stdout.readline().strip()
        if not self.base_url.startswith("http"):
            self._process.kill()
            raise SetupError(f"the scripted server process did not start (it printed {self.base_url!r})")

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self._process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()


# ----------------------------------------------------------------------------------- the parent
def run_row(kind: str, base_url: str, rounds: int, chats: int = 0, concurrency: int = 1,
            workers: int = RAY_WORKERS, sdk_walk: bool = False) -> dict[str, Any]:
    """Measure one row in a fresh interpreter; its JSON result.

    Raises:
        SetupError: the row's process failed (its last lines of standard error are in the message).
    """
    command = [sys.executable, __file__, "--row", kind, "--base-url", base_url, "--rounds", str(rounds),
               "--chats", str(max(chats, 1)), "--row-concurrency", str(concurrency), "--ray-workers", str(workers)]
    command += ["--sdk-walk"] if sdk_walk else []
    done = subprocess.run(command, capture_output=True, text=True, timeout=ROW_TIMEOUT_S, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SetupError(f"the {kind} row failed (exit {done.returncode}):\n{done.stderr.strip()[-2000:]}")
    return json.loads(lines[-1])


def ray_status() -> str | None:
    """None when a Ray row can run here, else why not."""
    if importlib.util.find_spec("ray") is None:
        return 'Ray is not installed (pip install "autogen-classic[ray]")'
    if importlib.util.find_spec("autogen_classic.experiments.ray_runner") is None:
        return 'this autogen_classic has no backend="ray"'
    return None


def _ratio(row: dict[str, Any], one_chat: float) -> float:
    floor = math.ceil(row["chats"] / row["at_once"]) * one_chat
    return row["wall"] / floor if floor > 0 else float("inf")


@dataclass
class StudiesResult:
    """Everything the bench measured (JSON-ready with ``asdict``)."""

    chats: int
    rounds: int
    latency: float
    one_chat: float
    rows: list[dict[str, Any]]
    ray_note: str | None
    zero_latency: dict[str, Any] | None
    sdk_walk: bool = False
    ray_concurrency: int = RAY_CONCURRENCY


def run(chats: int = CHATS, sequential_chats: int = SEQUENTIAL_CHATS, concurrency: Sequence[int] = CONCURRENCY,
        rounds: int = ROUNDS, latency: float = LATENCY, ray_chats: int | None = None, ray_workers: int = RAY_WORKERS,
        use_ray: bool = True, sdk_walk: bool = False, ray_concurrency: int = RAY_CONCURRENCY) -> StudiesResult:
    """Measure the floor and every row (and Ray's overhead at zero latency when Ray can run).

    ``sdk_walk`` sets ``"sdk_fast_path": False`` in the agents' ``llm_config`` (the typed walk on every request).
    """
    ray_chats = sequential_chats if ray_chats is None else ray_chats
    for name, value, least in (("chats", chats, 1), ("sequential_chats", sequential_chats, 1), ("rounds", rounds, 2),
                               ("ray_chats", ray_chats, 1), ("ray_workers", ray_workers, 1),
                               ("ray_concurrency", ray_concurrency, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
    if not concurrency or any(isinstance(c, bool) or not isinstance(c, int) or c < 2 for c in concurrency):
        raise ValueError(f"concurrency must be ints >= 2 (the sequential row is always run), got {list(concurrency)!r}")
    if latency < 0:
        raise ValueError(f"latency must be >= 0 seconds, got {latency!r}")
    ray_note = ray_status() if use_ray else "left out (--no-ray)"

    def row(kind: str, base_url: str, count: int = 0, level: int = 1) -> dict[str, Any]:
        return run_row(kind, base_url, rounds, count, level, ray_workers, sdk_walk)

    with ServerProcess(latency) as server:
        one_chat = row("floor", server.base_url)["one_chat"]
        rows = [row("sequential", server.base_url, min(sequential_chats, chats))]
        rows += [row("asyncio", server.base_url, chats, level) for level in concurrency]
        zero = None
        try:  # Ray failing to start here is a finding of the table, not the end of the bench
            if ray_note is None:
                ray_rows = [row("ray", server.base_url, min(ray_chats, chats)),
                            row("ray", server.base_url, chats, ray_concurrency)]
                with ServerProcess(0.0) as instant:
                    zero = {"sequential": row("sequential", instant.base_url, ray_chats),
                            "ray": row("ray", instant.base_url, ray_chats)}
                rows += ray_rows
        except SetupError as exc:
            ray_note, zero = f"Ray failed: {str(exc).splitlines()[-1]}", None
    return StudiesResult(chats, rounds, latency, one_chat, rows, ray_note, zero, sdk_walk, ray_concurrency)


def ray_overhead(result: StudiesResult) -> float | None:
    """Seconds Ray adds per chat at zero latency: its worker-seconds per chat minus the sequential time per chat."""
    if result.zero_latency is None:
        return None
    ray, local = result.zero_latency["ray"], result.zero_latency["sequential"]
    return ray["wall"] * ray["at_once"] / ray["chats"] - local["wall"] / local["chats"]


def cluster_projection(result: StudiesResult, nodes: Sequence[int] = PROJECTED_NODES, chats: int = PROJECTED_CHATS,
                       latency: float = PROJECTED_LATENCY, cores: int = RAY_WORKERS) -> dict[str, Any] | None:
    """A projection, not a measurement: ``chats`` chats at ``latency`` seconds per answer on nodes of ``cores`` cores.

    Ray with one chat per task: a worker is busy for the whole chat, ``answers x latency`` plus its
    measured worker-seconds per chat at zero latency (the chat's own work and Ray's overhead); a node
    runs ``cores`` such tasks at once. Ray with batches: a node has ``cores x concurrency`` chats in
    flight, each taking ``answers x latency`` plus the chat's own time, capped by the rate the batched
    row reached on this machine (a node of ``cores`` cores, the model server beside it). For comparison,
    one process per node running its share on asyncio at the highest concurrency measured, capped by
    the highest rate any asyncio row reached here (those rows spend CPU, not waiting). None when Ray
    was not measured.
    """
    if result.zero_latency is None:
        return None
    zero_ray = result.zero_latency["ray"]
    answers = model_calls_per_chat(result.rounds)
    task = answers * latency + zero_ray["wall"] * zero_ray["at_once"] / zero_ray["chats"]
    found: dict[str, Any] = {"chats": chats, "latency": latency, "cores": cores, "task_seconds": task,
                             "ray": {n: math.ceil(chats / (n * cores)) * task for n in nodes}}
    one_chat = answers * latency + result.one_chat - answers * result.latency  # at the projected latency
    batched = [row for row in result.rows if row["row"] == "ray" and row["concurrency"] > 1]
    if batched:
        row = batched[0]
        cap = row["chats"] / row["wall"]
        rate = min(cores * row["concurrency"] / one_chat, cap)
        found["ray_batched"] = {"concurrency": row["concurrency"], "cap": cap, "rate": rate,
                                "seconds": {n: chats / (n * rate) for n in nodes}}
    asyncio_rows = [row for row in result.rows if row["row"] == "asyncio"]
    if asyncio_rows:
        level = max(row["concurrency"] for row in asyncio_rows)
        cap = max(row["chats"] / row["wall"] for row in asyncio_rows)
        rate = min(level / one_chat, cap)
        found["asyncio"] = {"concurrency": level, "cap": cap, "rate": rate,
                            "seconds": {n: chats / (n * rate) for n in nodes}}
    return found


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.1f} min" if seconds >= 120 else f"{seconds:.0f} s"


def _projection_lines(result: StudiesResult) -> list[str]:
    found = cluster_projection(result)
    if found is None:
        return []
    lines = [f"Projection, not measured: {found['chats']:,} chats at {found['latency']:g} s per answer on nodes of "
             f"{found['cores']} cores"]
    ray = "; ".join(f"{n} node{'s' if n > 1 else ''}: {_duration(t)}" for n, t in found["ray"].items())
    lines.append(f"  ray, one chat per task, {found['cores']} per node ({found['task_seconds']:.2f} s per task): {ray}")
    if "ray_batched" in found:
        batch = found["ray_batched"]
        times = "; ".join(f"{n} node{'s' if n > 1 else ''}: {_duration(t)}" for n, t in batch["seconds"].items())
        lines.append(f"  ray, {batch['concurrency']} chats at once per task, {found['cores']} tasks per node "
                     f"({batch['rate']:.1f} chats/s per node, capped at the {batch['cap']:.1f} measured): {times}")
    if "asyncio" in found:
        near = found["asyncio"]
        times = "; ".join(f"{n} node{'s' if n > 1 else ''}: {_duration(t)}" for n, t in near["seconds"].items())
        lines.append(f"  asyncio at {near['concurrency']} in one process per node ({near['rate']:.1f} chats/s per "
                     f"node, capped at the {near['cap']:.1f} measured): {times}")
    return lines


def _seconds(value: float) -> str:
    return f"{value:,.1f}" if value >= 10 else f"{value:.2f}"


def _label(row: dict[str, Any]) -> str:
    if row["row"] == "ray":
        workers = row.get("workers", row["at_once"])
        if row["concurrency"] > 1:
            return f"ray, {workers} workers x {row['concurrency']} at once"
        return f"ray, {workers} workers"
    return "sequential" if row["row"] == "sequential" else f"asyncio, concurrency {row['concurrency']}"


def _memory(row: dict[str, Any]) -> str:
    return f"{row['peak_rss_mib']:,.0f}" + (" +" if row["row"] == "ray" else "")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]

    def line(cells: Sequence[str]) -> str:  # first column left-aligned, numbers right-aligned
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def format_report(result: StudiesResult) -> list[str]:
    """The table of rows (projected rows marked), the memory note, Ray's overhead and the checks' counts."""
    header = ["row", "chats", "wall s", "CPU s", "chats/s", f"time for {result.chats:,} s", "peak RSS MiB",
              "floor s", "vs floor"]
    body, projected = [], False
    for row in result.rows:
        per_chat = row["wall"] / row["chats"]
        full = row["chats"] >= result.chats
        projected |= not full
        floor = math.ceil(row["chats"] / row["at_once"]) * result.one_chat
        total = row["wall"] if full else per_chat * result.chats
        body.append([_label(row), f"{row['chats']:,}", _seconds(row["wall"]), _seconds(row["cpu"]),
                     f"{row['chats'] / row['wall']:,.2f}",
                     _seconds(total) + ("" if full else " *"), _memory(row), _seconds(floor),
                     f"{_ratio(row, result.one_chat):.2f}x"])
    lines = [(f"Studies: run_group_chats of {result.chats:,} chats, {result.rounds} messages each "
              f"({model_calls_per_chat(result.rounds)} model answers), round_robin, scripted server with "
              f"{result.latency * 1000:.0f} ms per answer{', sdk_fast_path False' if result.sdk_walk else ''}; "
              f"one chat alone (the latency floor): {result.one_chat:.3f} s"),
             *_table(header, body)]
    if projected:
        lines.append(f"* projected: measured per chat on the chats shown, times {result.chats:,}")
    lines.append("floor: one chat alone x ceil(chats / chats at once); CPU and peak RSS: the row's own process "
                 "(a fresh interpreter; for Ray, the driver)")
    for row in result.rows:
        if row["row"] == "ray":
            tree = row.get("tree_peak_mib")
            whole = (f"{tree:,.0f} MiB for the driver and the local Ray instance together ({row['tree_processes']} "
                     "processes: raylet, GCS, workers...; summed PSS)") if tree else "no psutil for the Ray processes"
            lines.append(f"+ ray: peak RSS of the driver alone; {whole}")
    if result.ray_note is not None:
        lines.append(f"ray: not measured: {result.ray_note}")
    overhead = ray_overhead(result)
    if overhead is not None and result.zero_latency is not None:
        zero_ray, zero_local = result.zero_latency["ray"], result.zero_latency["sequential"]
        lines.append(
            f"Ray overhead per chat (zero latency, {zero_ray['chats']} chats): {overhead * 1000:,.0f} ms "
            f"(Ray {zero_ray['wall'] * zero_ray['at_once'] / zero_ray['chats'] * 1000:,.0f} worker-ms per chat, "
            f"sequential {zero_local['wall'] / zero_local['chats'] * 1000:,.0f} ms per chat)")
    lines += _projection_lines(result)
    bad = sum(row["failed"] + row["incomplete"] for row in result.rows)
    lines.append(f"chats failed or short of {result.rounds} messages: {bad}")
    for row in result.rows:
        if row["errors"]:
            lines.append(f"  {_label(row)}: {'; '.join(row['errors'])}")
    return lines


def checks(result: StudiesResult) -> dict[str, bool | None]:
    """The target (None when its row was not run) and the completeness of every chat."""
    target = next((row for row in result.rows if row["row"] == "asyncio" and row["concurrency"] == TARGET_CONCURRENCY),
                  None)  # the row at 200, when it was run
    return {
        f"asyncio at {TARGET_CONCURRENCY} within {TARGET_RATIO:g}x of the latency floor":
            None if target is None else _ratio(target, result.one_chat) <= TARGET_RATIO,
        "every chat complete": all(row["failed"] == 0 and row["incomplete"] == 0 for row in result.rows),
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK['chats']} chats, concurrency {' '.join(map(str, QUICK['concurrency']))}, "
                        f"{QUICK['sequential_chats']} sequential chats")
    parser.add_argument("--chats", type=int, default=None, help=f"chats of the asyncio rows (default {CHATS})")
    parser.add_argument("--sequential-chats", type=int, default=None,
                        help=f"chats run one after another, projected to --chats (default {SEQUENTIAL_CHATS})")
    parser.add_argument("--concurrency", type=int, nargs="+", default=None,
                        help=f"the asyncio rows (default {' '.join(map(str, CONCURRENCY))})")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"messages per chat (default {ROUNDS})")
    parser.add_argument("--latency", type=float, default=LATENCY, help=f"server seconds per answer (default {LATENCY})")
    parser.add_argument("--ray-chats", type=int, default=None,
                        help="chats of the Ray rows, projected to --chats (default: --sequential-chats)")
    parser.add_argument("--ray-workers", type=int, default=RAY_WORKERS,
                        help=f"CPUs of the local Ray instance (default {RAY_WORKERS})")
    parser.add_argument("--ray-concurrency", type=int, default=RAY_CONCURRENCY,
                        help=f"chats each Ray task runs at once in the batched Ray row (default {RAY_CONCURRENCY})")
    parser.add_argument("--no-ray", action="store_true", help="leave the Ray rows out")
    parser.add_argument("--sdk-walk", action="store_true",
                        help='"sdk_fast_path": False in the agents\' llm_config (every request through the SDK\'s '
                             "typed walk, the route taken while a tracing tool watches the SDK)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of the table")
    # Child-process modes: the server, and one row.
    parser.add_argument("--serve", type=float, default=None, metavar="LATENCY", help=argparse.SUPPRESS)
    parser.add_argument("--row", choices=("floor", "sequential", "asyncio", "ray"), help=argparse.SUPPRESS)
    parser.add_argument("--base-url", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--row-concurrency", type=int, default=1, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table (or JSON); 0 whatever the numbers, 2 when it cannot run."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve)
        return 0
    if args.row is not None:
        return _row_main(args)
    quick: dict[str, Any] = QUICK if args.quick else {}
    chats = args.chats if args.chats is not None else quick.get("chats", CHATS)
    sequential = args.sequential_chats if args.sequential_chats is not None else quick.get(
        "sequential_chats", SEQUENTIAL_CHATS)
    levels = args.concurrency if args.concurrency is not None else list(quick.get("concurrency", CONCURRENCY))
    try:
        result = run(chats, sequential, levels, args.rounds, args.latency, args.ray_chats, args.ray_workers,
                     not args.no_ray, args.sdk_walk, args.ray_concurrency)
    except ValueError as exc:
        parser.error(str(exc))
    except (SetupError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"setup failed: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({**asdict(result), "ray_overhead": ray_overhead(result),
                          "projection": cluster_projection(result)}))
        return 0
    print("\n".join(format_report(result)))
    print()
    for name, ok in checks(result).items():
        print(f"[{'not run' if ok is None else 'PASS' if ok else 'MISS'}] {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
