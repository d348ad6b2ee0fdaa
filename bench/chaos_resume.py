"""Chaos run of durable group chats: many SIGKILLs at random rounds, each resumed in a new process.

Draws ``--points`` kill points (default 56) with a seeded generator across the scenarios of
``tests/durable_scenarios.py`` (sync and async classic group chats; sync and async pattern chats with a tool's
``ReplyResult`` updating the context variables and handing off, after-work hand-offs and a context condition
ending the chat). For each point a subprocess runs the chat and SIGKILLs itself at the chosen site (a reply
function, the speaker selection or the tool) once the chat holds k messages; another subprocess resumes it
(``resume_group_chat`` / ``resume_pattern_group_chat``). The transcript, the final context variables and the
summary are compared with an uninterrupted run. Prints the seed, one row per point and the totals; exits
non-zero when a resumed chat differs.

Usage: ``python bench/chaos_resume.py [--points N] [--seed S]``
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_durable_chaos import check_point, draw_points, expected_outcomes  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=56, help="kill points to run (default 56)")
    parser.add_argument("--seed", type=int, default=None, help="the seed of the draw (default: a random one)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    points = draw_points(seed, args.points)
    print(f"seed {seed}, {len(points)} kill points")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        with contextlib.redirect_stdout(io.StringIO()):  # the uninterrupted runs print their chats
            expected = expected_outcomes(tmp)
        print(f"{'scenario':<14} {'round':>5} {'site':<7} {'killed':<6} {'lines':>5} {'same':<5} {'seconds':>7}")
        rows = []
        for number, (scenario, kill_round, site) in enumerate(points):
            row = check_point(tmp, number, scenario, kill_round, site, expected[scenario])
            rows.append(row)
            print(f"{scenario:<14} {kill_round:>5} {site:<7} {str(row['killed']):<6} "
                  f"{row['written_before_kill']:>5} {str(row['same']):<5} {row['seconds']:>7}", flush=True)
    killed = sum(row["killed"] for row in rows)
    same = sum(row["same"] for row in rows)
    print(f"{len(rows)} points, {killed} killed (the others had no turn at their site after round k and ended), "
          f"{same} resumed to the uninterrupted outcome, {time.monotonic() - started:.0f} s")
    return 0 if same == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
