"""Reading scales linearly and stays bounded (not a test: results go in README.md).

Each case runs `rlconf explain FILE --from verl` in a fresh process and reports its wall time and peak memory
(ru_maxrss of the child, from getrusage):
(a) generated launch scripts of 10k, 100k and 1M lines (short assignments and commands, then the verl command), and
    of 16k, 50k and 200k lines of which a quarter are decided `if` lines (each adds a note), to show time and memory
    grow with the size, not faster;
(b) YAML configs with 10, 50 and 100 aliases of one small list (as real configs alias), and a nested-alias bomb of
    300 aliases (each level aliases the previous one twice: about 2**150 values expanded), which must be refused
    quickly (exit 2) rather than expanded;
(c) the shell doubling X=$X$X 39 times, refused (exit 2) at the value limit.

Run: python bench/bench_reading.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMMAND = (
    "python3 -m verl.trainer.main_ppo data.train_batch_size=64 actor_rollout_ref.rollout.n=4 "
    "trainer.n_gpus_per_node=8 trainer.nnodes=1\n"
)


def write_script(path: Path, lines: int, decided_ifs: bool = False) -> None:
    """A script of ``lines`` lines, written line by line (this process stays small: a child's peak memory counts its
    parent's at the fork). Short lines (about 4.5 bytes) keep 1M lines under the 5 MB input limit; with
    ``decided_ifs`` every fourth line is a decided condition, each adding a note."""
    short = ("a=1", "b=$a", "c=2", ": $b")
    with path.open("w") as stream:
        stream.write("X=1\n")
        for i in range(lines - 2):
            stream.write(('if [ "$X" = 1 ]; then Y=$a; fi' if decided_ifs and i % 4 == 3 else short[i % 4]) + "\n")
        stream.write(COMMAND)


def flat_aliases(count: int) -> str:
    """``count`` aliases of one small list: real-config style, a few hundred values."""
    return "data:\n  train_batch_size: 64\nbase: &b [1, 2, 3]\n" + "".join(f"k{i}: *b\n" for i in range(count))


def nested_aliases(count: int) -> str:
    """Each level aliases the previous one twice: ``count`` aliases, about 2**(count/2) values expanded."""
    lines = ["data:", "  train_batch_size: 64", "l0: &l0 [a, b]"]
    lines += [f"l{k}: &l{k} [*l{k - 1}, *l{k - 1}]" for k in range(1, count // 2 + 1)]
    return "\n".join(lines) + "\n"


def run(path: Path) -> tuple[int, float, float, str]:
    """Exit code, wall seconds, peak MB (this child's own ru_maxrss, from wait4) of `rlconf explain` on ``path``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile("w+") as errors:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "translator", "explain", str(path), "--from", "verl"],
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env=env,
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        message = (errors.read().strip().splitlines() or [""])[-1][:110]
    return child.returncode, wall, usage.ru_maxrss / 1024, message


def main() -> None:
    cases: list[tuple[str, str, Any]] = [
        (f"script {n:,} lines", f"s{n}.sh", lambda path, n=n: write_script(path, n))
        for n in (10_000, 100_000, 1_000_000)
    ]
    cases += [
        (f"script {n:,} lines, 1/4 decided ifs", f"i{n}.sh", lambda path, n=n: write_script(path, n, True))
        for n in (16_000, 50_000, 200_000)
    ]
    cases += [(f"YAML {n} aliases of a flat list", f"a{n}.yaml", flat_aliases(n)) for n in (10, 50, 100)]
    cases += [
        ("YAML 300 nested aliases (bomb)", "bomb.yaml", nested_aliases(300)),
        ("shell X=$X$X × 39", "double.sh", "X=abcdefghij\n" + "X=$X$X\n" * 39 + COMMAND),
    ]
    print(f"{'case':36} {'bytes':>10} {'exit':>4} {'seconds':>8} {'peak MB':>8}  message")
    with tempfile.TemporaryDirectory() as folder:
        for label, name, content in cases:
            path = Path(folder) / name
            if callable(content):
                content(path)
            else:
                path.write_text(content)
            code, wall, peak, message = run(path)
            print(
                f"{label:36} {path.stat().st_size:>10,} {code:>4} {wall:>8.2f} {peak:>8.0f}  "
                f"{message.replace(folder + '/', '') if code else ''}"
            )


if __name__ == "__main__":
    main()
