"""The studies benchmark (bench/bench_studies.py) at tiny sizes: the rows of its table and sane numbers.

No timing is asserted here; the timings belong to the benchmark's own output.
"""

from __future__ import annotations

import json
import pickle
import re
from types import ModuleType

import pytest
from bench_scripts import load_bench_script

TINY = ["--chats", "6", "--sequential-chats", "3", "--concurrency", "2", "3", "--rounds", "2", "--latency", "0.01",
        "--ray-concurrency", "2"]


@pytest.fixture(scope="module")
def studies() -> ModuleType:
    return load_bench_script("bench_studies", "bench_studies")


def _rows(out: str) -> dict[str, list[str]]:
    """The table's rows by label: the cells after the label, split on runs of two or more spaces."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("row "))
    rows = {}
    for line in lines[start + 2:]:
        if not line.strip() or line.startswith("*"):
            break
        label, *cells = re.split(r"\s{2,}", line.strip())
        rows[label] = cells
    return rows


def _number(cell: str) -> float:
    return float(cell.split()[0].replace(",", "").rstrip("x"))


def test_the_table_has_every_row_with_sane_numbers(studies: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with_ray = studies.ray_status() is None
    assert studies.main(TINY + ([] if with_ray else ["--no-ray"])) == 0
    out = capsys.readouterr().out
    assert out.startswith("Studies: run_group_chats of 6 chats, 2 messages each (1 model answers), round_robin")
    one_chat = float(re.search(r"one chat alone \(the latency floor\): ([\d.]+) s", out).group(1))
    assert one_chat >= 0.01  # at least the server's latency
    rows = _rows(out)
    expected = ["sequential", "asyncio, concurrency 2", "asyncio, concurrency 3"]
    expected += ["ray, 2 workers", "ray, 2 workers x 2 at once"] if with_ray else []
    assert list(rows) == expected
    for label, (chats, wall, cpu, rate, total, memory, floor, ratio) in rows.items():
        assert int(chats) == (6 if label.startswith("asyncio") or label.endswith("at once") else 3)
        assert _number(wall) > 0 and _number(cpu) >= 0 and _number(floor) > 0
        assert _number(memory) > 10  # an interpreter with the package
        # Cells are rounded: the rate agrees with chats / wall for a wall anywhere in its rounding interval.
        digits = wall.split()[0]
        half_step = 0.5 * 10 ** -len(digits.split(".")[1]) if "." in digits else 0.5
        low, high = int(chats) / (_number(wall) + half_step), int(chats) / max(_number(wall) - half_step, 1e-9)
        assert low * 0.9 <= _number(rate) <= high * 1.1
        assert total.endswith("*") == (int(chats) < 6)  # the projected rows are marked
        assert _number(ratio) > 0.5  # a row cannot beat the server's latency by much
    if with_ray:
        assert rows["ray, 2 workers"][5].endswith("+")  # the driver's memory, the whole instance's below
        assert rows["ray, 2 workers x 2 at once"][5].endswith("+")
        assert re.search(r"ray, 2 chats at once per task, 2 tasks per node \([\d.]+ chats/s per node", out)
        assert re.search(r"\+ ray: peak RSS of the driver alone; [\d,]+ MiB for the driver and the local Ray", out)
        assert re.search(r"Ray overhead per chat \(zero latency, 3 chats\): -?[\d,]+ ms", out)
    else:
        assert "ray: not measured: left out (--no-ray)" in out
    assert "* projected: measured per chat on the chats shown, times 6" in out
    assert "chats failed or short of 2 messages: 0" in out
    assert "[PASS] every chat complete" in out
    assert "[not run] asyncio at 200 within 3x of the latency floor" in out  # no row at 200 here


def test_json_output_holds_every_measurement(studies: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert studies.main(["--chats", "4", "--sequential-chats", "2", "--concurrency", "200", "--rounds", "3",
                         "--latency", "0", "--no-ray", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["chats"], found["rounds"], found["latency"]) == (4, 3, 0.0)
    assert [(row["row"], row["chats"], row["at_once"]) for row in found["rows"]] == [("sequential", 2, 1),
                                                                                      ("asyncio", 4, 200)]
    for row in found["rows"]:
        assert row["wall"] > 0 and row["cpu"] > 0 and row["peak_rss_mib"] >= row["rss_before_mib"] > 0
        assert (row["failed"], row["incomplete"], row["errors"]) == (0, 0, [])
    assert found["one_chat"] > 0
    assert found["zero_latency"] is None and found["ray_overhead"] is None
    assert found["ray_note"] == "left out (--no-ray)"


def test_the_factory_builds_a_fresh_round_robin_chat_and_pickles(studies: ModuleType) -> None:
    factory = studies.StudyChat("http://127.0.0.1:9/v1", rounds=4)
    first, second = factory(), pickle.loads(pickle.dumps(factory))()
    assert [agent.name for agent in first.agents] == ["planner", "coder", "critic"]
    assert (first.max_round, first.speaker_selection_method) == (4, "round_robin")
    assert all(a is not b for a, b in zip(first.agents, second.agents))  # new agents for every chat
    assert all(agent.llm_config["config_list"][0]["base_url"] == "http://127.0.0.1:9/v1" for agent in first.agents)


def test_a_row_that_cannot_run_is_a_setup_failure(studies: ModuleType, dead_base_url: str) -> None:
    # Nothing listens there: the lone chat of the floor raises in the row's process.
    with pytest.raises(studies.SetupError, match="the floor row failed"):
        studies.run_row("floor", dead_base_url, 2)


def test_bad_sizes_are_refused(studies: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        studies.main(["--chats", "-1"])
    assert exit_info.value.code == 2
    assert "chats must be an int >= 1, got -1" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"concurrency must be ints >= 2"):
        studies.run(chats=2, concurrency=[1])
    with pytest.raises(ValueError, match="rounds must be an int >= 2, got 1"):
        studies.run(chats=2, rounds=1)


def test_the_suite_runs_the_section_with_its_quick_option() -> None:
    suite = load_bench_script("bench_run", "run")
    assert "studies" in suite.SECTIONS
    assert suite.section_script("studies").name == "bench_studies.py" and suite.section_script("studies").is_file()
    assert suite.section_argv("studies", quick=True, compare=None) == ["--quick"]
    assert suite.section_argv("studies", quick=False, compare=None) == []
