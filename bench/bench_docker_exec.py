"""Benchmark of code execution in Docker against local execution, per code block.

For each code block of ``BLOCKS`` the median wall time of running it (``--repeat`` times) with:

- ``local``: ``LocalCommandLineCodeExecutor`` (a new process on this machine);
- ``docker``: ``DockerCommandLineCodeExecutor`` (a new process in the executor's running container);
- ``use_docker``: the classic ``execute_code(..., use_docker=IMAGE)`` that agents with
  ``code_execution_config={"use_docker": IMAGE}`` use (a new container per block, committed after
  the run); measured on ``--legacy-repeat`` runs because it is slower.

Then the one-off costs: starting and stopping a ``DockerCommandLineCodeExecutor`` (its container).
Every result is checked (exit code 0 and the expected output), so the times are of correct runs.

Usage: ``python bench/bench_docker_exec.py [--image IMAGE] [--repeat N] [--legacy-repeat N] [--quick]``

The image defaults to ``autogen-classic-test:bookworm`` (built by ``bash .ci/docker_engine.sh``).
The exit code is 0 when every run gave the expected output, 1 otherwise, 2 when Docker cannot be used.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from autogen_classic.coding import CodeBlock, LocalCommandLineCodeExecutor

DEFAULT_IMAGE = "autogen-classic-test:bookworm"


@dataclass(frozen=True)
class Block:
    """A code block and the output it must give."""

    name: str
    language: str
    code: str
    expected: str


BLOCKS = [
    Block("python print", "python", "print('hello')", "hello\n"),
    Block("python compute", "python", "print(sum(i * i for i in range(200_000)))", "2666646666700000\n"),
    Block("python imports", "python", "import json, re, decimal\nprint(json.dumps({'ok': True}))", '{"ok": true}\n'),
    Block("sh echo", "sh", "echo shell-ok", "shell-ok\n"),
    Block("bash loop", "bash", "for i in 1 2 3; do echo $i; done", "1\n2\n3\n"),
    Block("python writes a file", "python", "open('out.txt', 'w').write('x' * 100_000)\nprint('written')", "written\n"),
]


def _median_ms(run: Callable[[], str], expected: str, repeat: int) -> tuple[float, int]:
    """Median milliseconds of ``run`` over ``repeat`` runs, and the number of wrong outputs."""
    times: list[float] = []
    wrong = 0
    for _ in range(repeat):
        start = time.perf_counter()
        output = run()
        times.append((time.perf_counter() - start) * 1000)
        wrong += output != expected
    return statistics.median(times), wrong


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables; return the exit code."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--image", default=DEFAULT_IMAGE, help="the image to run the code in")
    parser.add_argument("--repeat", type=int, default=10, help="runs per block with each executor")
    parser.add_argument("--legacy-repeat", type=int, default=3, help="runs per block with use_docker")
    parser.add_argument("--quick", action="store_true", help="3 runs per block, 1 with use_docker")
    args = parser.parse_args(argv)
    repeat, legacy_repeat = (3, 1) if args.quick else (args.repeat, args.legacy_repeat)

    try:
        from autogen_classic.coding.docker_commandline_code_executor import DockerCommandLineCodeExecutor
        from autogen_classic.coding.containers.per_block import run_file_in_docker

        start = time.perf_counter()
        work = Path(tempfile.mkdtemp(prefix="bench-docker-"))
        docker_executor = DockerCommandLineCodeExecutor(image=args.image, work_dir=work / "docker", timeout=60)
        start_ms = (time.perf_counter() - start) * 1000
    except Exception as err:  # noqa: BLE001 - any reason Docker cannot be used ends the run the same way
        print(f"Docker cannot be used: {type(err).__name__}: {err}", file=sys.stderr)
        return 2

    local_executor = LocalCommandLineCodeExecutor(work_dir=work / "local", timeout=60)
    legacy_dir = work / "legacy"
    legacy_dir.mkdir()
    committed: set[str] = set()

    def legacy(block: Block) -> str:
        # What execute_code(use_docker=IMAGE) does outside a container, called directly so that the
        # classic "inside a container runs locally" rule does not apply when this machine is one.
        filename = f"bench_{abs(hash(block.code))}.{'py' if block.language == 'python' else block.language}"
        (legacy_dir / filename).write_text(block.code)
        code, logs, image = run_file_in_docker(filename, legacy_dir, block.language, 60, args.image, generated=False)
        if image:
            committed.add(image)
        return logs if code == 0 else f"exit {code}: {logs}"

    rows = []
    failures = 0
    try:
        for block in BLOCKS:
            blocks = [CodeBlock(language=block.language, code=block.code)]
            local_ms, bad_local = _median_ms(lambda: local_executor.execute_code_blocks(blocks).output, block.expected,
                                             repeat)
            docker_ms, bad_docker = _median_ms(lambda: docker_executor.execute_code_blocks(blocks).output,
                                               block.expected, repeat)
            legacy_ms, bad_legacy = _median_ms(lambda: legacy(block), block.expected, legacy_repeat)
            failures += bad_local + bad_docker + bad_legacy
            rows.append((block.name, local_ms, docker_ms, legacy_ms, bad_local + bad_docker + bad_legacy))
    finally:
        start = time.perf_counter()
        docker_executor.stop()
        stop_ms = (time.perf_counter() - start) * 1000
        _remove_images(committed)

    print(f"Code execution per block: median ms of {repeat} runs ({legacy_repeat} for use_docker), image {args.image}")
    header = f"{'block':<22} {'local':>9} {'docker':>9} {'docker/local':>13} {'use_docker':>11} {'wrong':>6}"
    print(header)
    print("-" * len(header))
    for name, local_ms, docker_ms, legacy_ms, wrong in rows:
        ratio = docker_ms / local_ms
        print(f"{name:<22} {local_ms:>9.1f} {docker_ms:>9.1f} {ratio:>12.1f}x {legacy_ms:>11.1f} {wrong:>6}")
    print()
    print(f"DockerCommandLineCodeExecutor start (container created, running): {start_ms:.0f} ms; "
          f"stop: {stop_ms:.0f} ms")
    return 0 if failures == 0 else 1


def _remove_images(tags: set[str]) -> None:
    """Remove the images committed by the use_docker runs."""
    if not tags:
        return
    from autogen_classic.coding.containers.engine import connect, import_docker

    client = connect()
    for tag in tags:
        try:
            client.images.remove(tag, force=True)
        except import_docker().errors.APIError:
            pass


if __name__ == "__main__":
    sys.exit(main())
