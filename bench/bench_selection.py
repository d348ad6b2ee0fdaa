"""Benchmark of "auto" speaker selection on a labeled set of short team conversations.

Every case of ``bench/selection_cases.json`` is a conversation of 1-6 messages with exactly one correct
next speaker (a single message is the opening task of a chat). For each case a ``GroupChat`` (speaker_selection_method="auto") is built from the case's
team and messages, ``groupchat.select_speaker(last_speaker, manager)`` is called once, and the decision
is read from ``groupchat.selection_log[-1]``: the chosen agent, the model calls (``attempts``) and the
prompt tokens they used. Per method it reports accuracy, model calls, prompt tokens and seconds per
selection, the accuracy per team and per cue ("name": the next speaker is addressed by name; "role":
only the role or the content says who is next) and every miss.

When no answer names exactly one agent, "auto" selection falls back to the next agent after the last
speaker in group order. Such a fallback can land on the right speaker by luck, so the report also
counts the selections the model itself got right ("by model") and the fallbacks, and prints what the
fallback alone would score. The member order of each team in the data set deliberately differs from
the usual hand-off order to keep that baseline low (two-agent teams excepted: there the fallback is
always the other agent).

A case may also carry a ``kind``, reported in a table of its own: "first_turn" (a new task: the
opening message, or a new request mid-chat; a description says who engages first) or "negation"
(the last message mentions a role's work under a negation: "no plan yet", "hasn't been reviewed").

Methods (only the model configuration differs):

- ``classic``: the config entries without the ``structured_output`` key and the role-match rule off: the
  model answers in free text and the agent names in its answer are counted (the reference's method).
- ``structured``: the entries with ``"structured_output": "json_object"`` and the group's defaults, so
  the rules that settle a selection without a model call apply (addressed by name; on the embedded model
  also the role match). "by rule" counts those selections.

``bench/selection_cases_heldout.json`` (``--data``) is a second set, written after the rules and prompt
were settled on the first and never used to tune them: its score is the one to expect on new teams.
``bench/selection_cases_heldout2.json`` is a third, written before the negation and first-turn rules
(see ``selection/role_match.py`` and ``selection/first_turn.py``) and never used to tune them.

Repeat speakers: by default ``allow_repeat_speaker=True`` (the classic behaviour), so the model chooses
among the whole team and naming the last speaker counts as a miss (the expected speaker is never the
last one). ``--no-repeat`` removes the last speaker from the candidates; two-agent cases are then
decided without a model call.

Model: the embedded model (``autogen_classic.local.llm_config()``) unless ``--base-url`` names a
running OpenAI-compatible server (e.g. ``python -m llama_cpp.server --model <gguf> --port 8931``).

Usage: ``python bench/bench_selection.py [--method classic|structured|both] [--limit N]
[--base-url URL] [--no-repeat] [--data cases.json] [--json out.json]``

The exit code is 0 whatever the scores; it is 2 when the setup fails (bad data file, no model, or no
server answering at the model's URL).
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream

DATA_FILE = Path(__file__).with_name("selection_cases.json")
MODEL_NAME = "smollm2-135m-instruct"
METHODS = ("classic", "structured")
CUES = ("name", "role")
KINDS = ("first_turn", "negation")
STRUCTURED_KEY = "structured_output"
TARGET_LINE = "target (structured, embedded model): >= 90% correct, <= 1.2 calls, <= 400 prompt tokens"
TARGET_ACCURACY, TARGET_CALLS, TARGET_PROMPT_TOKENS = 90.0, 1.2, 400.0


class SetupError(RuntimeError):
    """The benchmark cannot run: the data file is invalid or no model is reachable."""


# ----------------------------------------------------------------- the data set
def check_dataset(data: Any) -> list[str]:
    """Return the problems of a loaded data set ([] when it is valid).

    Args:
        data: the parsed JSON: ``{"cases": [...], "teams": {team: [{"name", "description"}, ...]}}``.
    """
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list) or not isinstance(data.get("teams"), dict):
        return ['the data must be an object with a "cases" list and a "teams" object']
    problems: list[str] = []
    members: dict[str, set[str]] = {}
    for team, agents in data["teams"].items():
        names = [a.get("name") for a in agents if isinstance(a, dict)]
        if len(names) != len(agents) or len(names) < 2 or len(set(names)) != len(names):
            problems.append(f"team {team}: needs at least 2 members with unique names")
        if any(not isinstance(a.get("description"), str) or not a["description"].strip() for a in agents):
            problems.append(f"team {team}: every member needs a non-empty description")
        if any(not isinstance(n, str) or not n.isidentifier() for n in names):
            problems.append(f"team {team}: member names must be identifiers, got {names}")
        members[team] = {n for n in names if isinstance(n, str)}
    seen: set[str] = set()
    for index, case in enumerate(data["cases"]):
        cid = case.get("id", f"#{index}") if isinstance(case, dict) else f"#{index}"
        if not isinstance(case, dict):
            problems.append(f"case {cid}: must be an object")
            continue
        if cid in seen:
            problems.append(f"case {cid}: duplicate id")
        seen.add(cid)
        team = case.get("team")
        if team not in members:
            problems.append(f"case {cid}: unknown team {team!r}")
            continue
        messages = case.get("messages")
        if not isinstance(messages, list) or not 1 <= len(messages) <= 6:
            problems.append(f"case {cid}: needs 1-6 messages")
            continue
        for message in messages:
            if message.get("name") not in members[team]:
                problems.append(f"case {cid}: message author {message.get('name')!r} is not in team {team}")
            if not isinstance(message.get("content"), str) or not message["content"].strip():
                problems.append(f"case {cid}: every message needs text content")
        expected = case.get("expected")
        if expected not in members[team]:
            problems.append(f"case {cid}: expected {expected!r} is not in team {team}")
        elif expected == messages[-1].get("name"):
            problems.append(f"case {cid}: the expected speaker {expected} is also the last speaker")
        if case.get("cue") not in CUES:
            problems.append(f"case {cid}: cue must be one of {list(CUES)}, got {case.get('cue')!r}")
        if "kind" in case and case["kind"] not in KINDS:
            problems.append(f"case {cid}: kind must be one of {list(KINDS)} (or left out), got {case['kind']!r}")
    unused = set(members) - {c.get("team") for c in data["cases"] if isinstance(c, dict)}
    if unused:
        problems.append(f"teams without cases: {sorted(unused)}")
    return problems


def load_dataset(path: Path = DATA_FILE) -> dict[str, Any]:
    """Read and check the data set at ``path``.

    Raises:
        SetupError: if the file is missing, is not JSON, or fails :func:`check_dataset`.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SetupError(f"cannot read the data set {path}: {exc}") from exc
    problems = check_dataset(data)
    if problems:
        raise SetupError(f"the data set {path} is invalid:\n  " + "\n  ".join(problems))
    return data


# ----------------------------------------------------------------- model configuration
def base_url_config(base_url: str) -> dict[str, Any]:
    """The ``llm_config`` for a running OpenAI-compatible server (e.g. llama_cpp.server) at ``base_url``."""
    entry = {"model": MODEL_NAME, "base_url": base_url, "api_key": "x", "price": [0, 0]}
    return {"config_list": [entry], "cache_seed": None, "temperature": 0}


def resolve_llm_config(base_url: str | None) -> tuple[dict[str, Any], str]:
    """Return ``(llm_config, label)``: the server at ``base_url`` when given, else the embedded model.

    Raises:
        SetupError: when no base_url is given and the embedded model cannot be started.
    """
    if base_url:
        return base_url_config(base_url), f"server at {base_url}"
    try:
        from autogen_classic.local import llm_config
    except ImportError as exc:
        raise SetupError(
            f"the embedded model is not available ({exc}); start an OpenAI-compatible server and pass --base-url URL"
        ) from exc
    try:
        config = llm_config()
    except Exception as exc:  # the embedded server's own error names the fix
        raise SetupError(f"the embedded model could not be started: {exc}") from exc
    urls = [entry.get("base_url") for entry in config.get("config_list", [])]
    return config, f"embedded model at {', '.join(str(u) for u in urls)}"


def check_endpoint(llm_config: dict[str, Any]) -> None:
    """Make sure every ``base_url`` of ``llm_config`` answers ``GET /models``.

    Raises:
        SetupError: naming the first URL where no OpenAI-compatible server answers.
    """
    import openai

    for entry in llm_config.get("config_list", []):
        url = entry.get("base_url")
        if not url:
            continue
        client = openai.OpenAI(base_url=url, api_key=entry.get("api_key") or "x", timeout=10, max_retries=0)
        try:
            client.models.list()
        except openai.OpenAIError as exc:
            raise SetupError(
                f"no OpenAI-compatible server answers at {url} ({type(exc).__name__}: {exc}); "
                "start one or fix --base-url"
            ) from exc
        finally:
            client.close()


def method_config(llm_config: dict[str, Any], method: str) -> dict[str, Any]:
    """Return a copy of ``llm_config`` set up for ``method``.

    Args:
        llm_config: a classic ``llm_config`` with a ``config_list``.
        method: "classic" (every entry without "structured_output") or "structured" (every entry with
            ``"structured_output": "json_object"``).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    config = copy.deepcopy(llm_config)
    for entry in config.get("config_list", []):
        entry.pop(STRUCTURED_KEY, None)
        if method == "structured":
            entry[STRUCTURED_KEY] = "json_object"
    return config


# ----------------------------------------------------------------- one case
@dataclass
class CaseResult:
    """The outcome of one selection.

    Args:
        id: the case id.
        team: the team of the case.
        cue: "name" or "role".
        method: "classic" or "structured".
        expected: the correct next speaker.
        chosen: the selected speaker (None when the selection failed).
        calls: the model calls made (attempts in the selection record).
        prompt_tokens: the prompt tokens of those calls.
        seconds: wall time of ``select_speaker``.
        answers: the raw answers of the model, one per call.
        outcomes: the outcome of each call ("selected", "multiple", "none" or "invalid").
        reason: the reason recorded by the selection.
        error: the error when the selection raised, else None.
        kind: the case's ``kind`` ("first_turn", "negation"), "" for an ordinary case.
    """

    id: str
    team: str
    cue: str
    method: str
    expected: str
    chosen: str | None
    calls: int
    prompt_tokens: int
    seconds: float
    answers: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    reason: str = ""
    error: str | None = None
    kind: str = ""

    @property
    def correct(self) -> bool:
        """Whether the expected speaker was chosen."""
        return self.chosen == self.expected

    @property
    def named_by_model(self) -> bool:
        """Whether a model answer named exactly one agent (the choice was the model's)."""
        return "selected" in self.outcomes

    @property
    def by_rule(self) -> bool:
        """Whether a rule settled the selection without a model call (addressed by name, role match)."""
        return self.calls == 0 and "no model call" in self.reason

    @property
    def fallback(self) -> bool:
        """Whether the model was asked but named no single agent, so the round-robin fallback chose."""
        return self.calls > 0 and not self.named_by_model and self.error is None

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (with ``correct``, ``named_by_model`` and ``fallback``)."""
        return {**asdict(self), "correct": self.correct, "named_by_model": self.named_by_model,
                "fallback": self.fallback}


def build_group(
    case: dict[str, Any], members: Sequence[dict[str, str]], allow_repeat: bool = True
) -> tuple[GroupChat, ConversableAgent]:
    """Build the group chat of a case and return it with its last speaker.

    Args:
        case: one case of the data set.
        members: the team's ``{"name", "description"}`` list.
        allow_repeat: the group's ``allow_repeat_speaker``.
    """
    agents = [
        ConversableAgent(m["name"], description=m["description"], llm_config=False, human_input_mode="NEVER")
        for m in members
    ]
    messages = [{"content": m["content"], "name": m["name"], "role": "user"} for m in case["messages"]]
    groupchat = GroupChat(
        agents=agents,
        messages=messages,
        speaker_selection_method="auto",
        allow_repeat_speaker=allow_repeat,
        max_round=len(messages) + 2,
    )
    last = next(a for a in agents if a.name == case["messages"][-1]["name"])
    return groupchat, last


def run_case(
    case: dict[str, Any], members: Sequence[dict[str, str]], llm_config: dict[str, Any], method: str = "classic",
    allow_repeat: bool = True,
) -> CaseResult:
    """Run one selection for ``case`` and return its result (a failing selection becomes ``error``).

    Args:
        case: one case of the data set.
        members: the team's ``{"name", "description"}`` list.
        llm_config: the manager's ``llm_config`` (already set up for ``method``, see :func:`method_config`).
        method: the label stored in the result.
        allow_repeat: the group's ``allow_repeat_speaker``.
    """
    groupchat, last = build_group(case, members, allow_repeat)
    if method == "classic":
        groupchat.select_speaker_auto_role_match = False
    manager = GroupChatManager(groupchat, llm_config=llm_config)
    error: str | None = None
    start = time.perf_counter()
    try:
        groupchat.select_speaker(last, manager)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports failures instead of stopping
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
    record = groupchat.selection_log[-1] if groupchat.selection_log else None
    return CaseResult(
        id=case["id"],
        team=case["team"],
        cue=case.get("cue", ""),
        method=method,
        expected=case["expected"],
        chosen=record.chosen if record else None,
        calls=len(record.attempts) if record else 0,
        prompt_tokens=int(record.usage.get("prompt_tokens", 0)) if record else 0,
        seconds=seconds,
        answers=[a.answer for a in record.attempts] if record else [],
        outcomes=[a.outcome for a in record.attempts] if record else [],
        reason=record.reason if record else "",
        error=error,
        kind=case.get("kind", ""),
    )


# ----------------------------------------------------------------- summaries
@dataclass
class Summary:
    """Aggregates of a list of results.

    Args:
        cases: the number of results.
        correct: how many chose the expected speaker.
        model_correct: how many chose it because the model named it (not by the fallback).
        fallbacks: how many were decided by the round-robin fallback.
        errors: how many selections raised.
        calls: model calls per selection.
        prompt_tokens: prompt tokens per selection.
        seconds: seconds per selection.
        by_rule: how many a rule settled without a model call.
        rule_correct: how many of those were right.
    """

    cases: int
    correct: int
    model_correct: int
    fallbacks: int
    errors: int
    calls: float
    prompt_tokens: float
    seconds: float
    by_rule: int = 0
    rule_correct: int = 0

    @property
    def accuracy(self) -> float:
        """The percentage of correct selections (0 without cases)."""
        return 100.0 * self.correct / self.cases if self.cases else 0.0

    @property
    def model_accuracy(self) -> float:
        """The percentage of selections the model itself got right (0 without cases)."""
        return 100.0 * self.model_correct / self.cases if self.cases else 0.0


def summarize(results: Sequence[CaseResult]) -> Summary:
    """Aggregate ``results``: counts, accuracy and the means per selection."""
    count = len(results)

    def mean(values: list[float]) -> float:
        return sum(values) / count if count else 0.0

    return Summary(
        cases=count,
        correct=sum(r.correct for r in results),
        model_correct=sum(r.correct and r.named_by_model for r in results),
        fallbacks=sum(r.fallback for r in results),
        errors=sum(r.error is not None for r in results),
        calls=mean([r.calls for r in results]),
        prompt_tokens=mean([r.prompt_tokens for r in results]),
        seconds=mean([r.seconds for r in results]),
        by_rule=sum(r.by_rule for r in results),
        rule_correct=sum(r.by_rule and r.correct for r in results),
    )


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], text_columns: int = 1) -> list[str]:
    """Align columns: the first ``text_columns`` left-aligned, the (numeric) others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [c.ljust(w) if i < text_columns else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        return "  ".join(cells).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())  # one line per row
    return text if len(text) <= width else text[: width - 3] + "..."


def _groups(results: Sequence[CaseResult], key: str) -> dict[str, list[CaseResult]]:
    groups: dict[str, list[CaseResult]] = {}
    for result in results:
        groups.setdefault(getattr(result, key), []).append(result)
    return groups


def round_robin_choice(case: dict[str, Any], members: Sequence[dict[str, str]]) -> str:
    """The speaker the round-robin fallback picks for ``case``: the member after the last speaker."""
    names = [m["name"] for m in members]
    return names[(names.index(case["messages"][-1]["name"]) + 1) % len(names)]


def round_robin_baseline(data: dict[str, Any], limit: int | None = None) -> tuple[int, int]:
    """Return ``(correct, cases)`` of choosing by the fallback alone, over the first ``limit`` cases."""
    cases = data["cases"][:limit] if limit is not None else data["cases"]
    hits = sum(round_robin_choice(c, data["teams"][c["team"]]) == c["expected"] for c in cases)
    return hits, len(cases)


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def format_report(method: str, results: Sequence[CaseResult], label: str = "") -> str:
    """Render the tables of one method: totals, accuracy per team and per cue, and the misses."""
    total = summarize(results)
    lines = [f"== method: {method}" + (f" ({label})" if label else "")]
    lines += _table(
        ["cases", "correct", "accuracy", "by model", "by rule (right)", "fallbacks", "calls/sel", "prompt tok/sel",
         "s/sel", "errors"],
        [[str(total.cases), str(total.correct), f"{total.accuracy:.1f}%", f"{total.model_accuracy:.1f}%",
          f"{total.by_rule} ({total.rule_correct})", str(total.fallbacks), f"{total.calls:.2f}", f"{total.prompt_tokens:.0f}", f"{total.seconds:.2f}",
          str(total.errors)]],
        text_columns=0,
    )
    # The kind table only when the data set labels kinds (unlabelled cases are "ordinary").
    keys = ("team", "cue", "kind") if any(r.kind for r in results) else ("team", "cue")
    for key in keys:
        rows = []
        for name, group in _groups(results, key).items():
            name = name or "ordinary"
            part = summarize(group)
            rows.append([name, str(part.cases), str(part.correct), f"{part.accuracy:.1f}%",
                         f"{part.model_accuracy:.1f}%", str(part.fallbacks), f"{part.calls:.2f}"])
        lines += ["", *_table([key, "cases", "correct", "accuracy", "by model", "fallbacks", "calls/sel"], rows)]
    misses = [r for r in results if not r.correct]
    lines += ["", f"misses ({len(misses)}):"]
    if misses:
        rows = [
            [r.id, r.expected, str(r.chosen),
             _short(r.error, 110) if r.error else " | ".join(repr(_short(a, 40)) for a in r.answers)]
            for r in misses
        ]
        lines += _table(["id", "expected", "chosen", "answers (one per model call) or error"], rows, text_columns=4)
    return "\n".join(lines)


def target_lines(summaries: dict[str, Summary], embedded: bool) -> list[str]:
    """The target line, with the structured run's check when there is one."""
    lines = [TARGET_LINE]
    structured = summaries.get("structured")
    if structured is not None:
        met = (
            structured.accuracy >= TARGET_ACCURACY
            and structured.calls <= TARGET_CALLS
            and structured.prompt_tokens <= TARGET_PROMPT_TOKENS
        )
        where = "" if embedded else " (model at --base-url, not the embedded default)"
        lines.append(
            f"structured: {structured.accuracy:.1f}% correct, {structured.calls:.2f} calls, "
            f"{structured.prompt_tokens:.0f} prompt tokens -> {'MET' if met else 'NOT MET'}{where}"
        )
    return lines


# ----------------------------------------------------------------- command line
def run_method(
    data: dict[str, Any], llm_config: dict[str, Any], method: str, limit: int | None = None,
    allow_repeat: bool = True, progress: Any = None,
) -> list[CaseResult]:
    """Run the first ``limit`` cases (all when None) with ``method``; ``progress`` gets one line per case."""
    config = method_config(llm_config, method)
    cases = data["cases"][:limit] if limit is not None else data["cases"]
    results = []
    for number, case in enumerate(cases, 1):
        result = run_case(case, data["teams"][case["team"]], config, method, allow_repeat)
        results.append(result)
        if progress is not None:
            mark = "ok  " if result.correct else "MISS"
            print(f"[{method} {number}/{len(cases)}] {mark} {result.id}: expected {result.expected}, chose "
                  f"{result.chosen} ({result.calls} calls, {result.seconds:.1f} s)", file=progress, flush=True)
    return results


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--method", choices=[*METHODS, "both"], default="both", help="selection method(s) to run")
    parser.add_argument("--limit", type=int, default=None, help="run only the first N cases")
    parser.add_argument("--base-url", default=None, help="an OpenAI-compatible server instead of the embedded model")
    parser.add_argument("--no-repeat", action="store_true", help="allow_repeat_speaker=False (default: True)")
    parser.add_argument("--json", dest="json_path", default=None, help="write the per-case results to this file")
    parser.add_argument("--data", default=str(DATA_FILE), help="the data set (default: bench/selection_cases.json)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit code (0, or 2 when the setup fails)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be a positive number of cases, got {args.limit}")
    methods = list(METHODS) if args.method == "both" else [args.method]
    # Two-agent teams with repeats allowed log an "underpopulated" warning per case; it is expected here.
    logging.getLogger("autogen_classic.agentchat.groupchat").setLevel(logging.ERROR)
    try:
        data = load_dataset(Path(args.data))
        llm_config, label = resolve_llm_config(args.base_url)
        check_endpoint(llm_config)
    except SetupError as exc:
        print(f"setup failed: {exc}", file=sys.stderr)
        return 2
    allow_repeat = not args.no_repeat
    all_results: dict[str, list[CaseResult]] = {}
    # Keep agent console output out of the report.
    with IOStream.set_default(ScriptedIOStream()):
        for method in methods:
            all_results[method] = run_method(data, llm_config, method, args.limit, allow_repeat, progress=sys.stderr)
    label = f"{label}, allow_repeat_speaker={allow_repeat}"
    for method, results in all_results.items():
        print(format_report(method, results, label))
        print()
    summaries = {method: summarize(results) for method, results in all_results.items()}
    hits, count = round_robin_baseline(data, args.limit)
    print(f"round-robin fallback alone: {_pct(hits, count)} correct ({hits} of {count} cases)")
    for line in target_lines(summaries, embedded=args.base_url is None):
        print(line)
    if args.json_path:
        payload = {
            "model": label,
            "allow_repeat_speaker": allow_repeat,
            "summary": {
                m: {**asdict(s), "accuracy": s.accuracy, "model_accuracy": s.model_accuracy}
                for m, s in summaries.items()
            },
            "round_robin_baseline": {"correct": hits, "cases": count},
            "results": [r.to_dict() for results in all_results.values() for r in results],
        }
        Path(args.json_path).write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
