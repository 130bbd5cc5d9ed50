"""Mutation testing of rlconf: no input may cause an internal error.

Mutates the repository's fixtures (numbers to 0, -1, huge, fractions, words; keys dropped, duplicated and
misspelled; flags swapped; lines truncated, swapped and indented; random unicode; ...) N times with a fixed seed,
and runs each through explain, check and translate to every target in this one process via the library. What
the CLI's guard reports as bad input (exit 2: a ConfigError, input nested too deeply, ...; translator.errors.classify)
is fine. Anything else is an internal error: its traceback and the mutated input are printed, and they are counted.
``--stacked``: 3–6 mutations applied one after another to the same file (damage that compounds).

    python scripts/mutate.py [-n 10000] [--seed 0] [--show 20] [--stacked]

Exit status: 0 when there was no internal error, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

import translator  # noqa: E402
from translator import dialects, render  # noqa: E402
from translator.errors import EXIT_INPUT, classify  # noqa: E402
from translator.jsontext import dumps  # noqa: E402
from translator.sources.files import Source  # noqa: E402

TARGETS = [name for name in dialects.names() if name != "rlconf"]
NUMBER = re.compile(r"(?<![\w.$])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
KEY = re.compile(r"(--?[A-Za-z_][\w.\-]*|[A-Za-z_][\w.\-]*(?=[=:]))")
REPLACEMENTS = [
    "0",
    "-1",
    "-0",
    "1",
    "2",
    "3",
    "7",
    "1e400",
    "99999999999999999999999",
    str(2**63),
    "0.5",
    "1.5",
    "1e-9",
    "nan",
    "inf",
    "-inf",
    "abc",
    "''",
    '""',
    "null",
    "~",
    "true",
    "false",
    "[1, 2]",
    "{a: 1}",
    "${UNSET_VAR}",
    "$((1/0))",
    "$((7 % 0))",
    "0x10",
    "1_000",
    "١٢",
    "  ",
    "???",
    "${oc.env:NOPE}",
    "'8'",
    "[]",
    "{}",
    "8.0",
    "-8",
    "1/2",
]
UNICODE = [
    "é",
    "ß",
    "→",
    "\u200b",
    "\ufeff",
    "日本",
    "\u0000",
    "\t",
    "\r",
    "\\",
    "'",
    '"',
    "`",
    "$",
    "{",
    "}",
    "[",
    "]",
    "#",
    ":",
    "=",
    ";",
    "&&",
    "|",
    "\\\n",
    "${",
    "$(",
    "\x1b[31m",
    "🙂",
    "\u2028",
]


@dataclass
class Sample:
    """One input: the files (the main one first), how it is read, and where it came from."""

    name: str
    files: dict[str, str]
    base_dir: Path | None
    options: dict[str, Any]

    def source(self) -> Source:
        main = next(iter(self.files))
        return Source(self.files[main], main, self.base_dir, dict(self.files))


@dataclass
class Summary:
    samples: int = 0
    runs: int = 0  # library calls made
    input_errors: int = 0
    internal_errors: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")


def fixtures() -> list[Sample]:
    """Every fixture with the options its expectation names, and its plan as a TOML plan file."""
    samples = []
    for expect in sorted((ROOT / "fixtures").glob("*/*.expect.yaml")):
        if expect.parent.name not in dialects.names():
            continue  # a framework rlconf does not read yet (its fixtures wait for the dialect)
        data = yaml.safe_load(expect.read_text())
        options = data.get("options") or {}
        path = expect.parent / data["input"]
        folder = path.parent
        files = {path.name: path.read_text(encoding="utf-8", errors="replace")}
        if folder != expect.parent:  # a fixture directory: the launch script and the files it names
            for sibling in sorted(folder.rglob("*")):
                if sibling.is_file() and sibling != path:
                    files[str(sibling.relative_to(folder))] = sibling.read_text(encoding="utf-8", errors="replace")
        opts = {
            "framework": options.get("from"),
            "env": {k: str(v) for k, v in (options.get("env") or {}).items()},
            "num_processes": options.get("num_processes"),
        }
        samples.append(Sample(f"{expect.parent.name}/{path.name}", files, folder, opts))
        try:
            from translator.dialects.rlconf import to_toml

            plan = to_toml(translator.load(samples[-1].source(), **opts).spec)
            samples.append(
                Sample(
                    f"{expect.parent.name}/{path.stem}.plan.toml",
                    {"plan.toml": plan},
                    None,
                    {"framework": None, "env": {}, "num_processes": None},
                )
            )
        except translator.ConfigError:
            pass
    return samples


# ---------------------------------------------------------------- mutations: text → text
def change_number(text: str, rng: random.Random) -> str:
    found = list(NUMBER.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    return text[: match.start()] + rng.choice(REPLACEMENTS) + text[match.end() :]


def misspell_key(text: str, rng: random.Random) -> str:
    found = list(KEY.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    word = match.group(0)
    i = rng.randrange(len(word))
    edit = rng.choice(["drop", "double", "swap", "insert", "case"])
    if edit == "drop" and len(word) > 2:
        word = word[:i] + word[i + 1 :]
    elif edit == "double":
        word = word[:i] + word[i] + word[i:]
    elif edit == "swap" and i + 1 < len(word):
        word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    elif edit == "insert":
        word = word[:i] + rng.choice("xyz_.-") + word[i:]
    else:
        word = word.upper()
    return text[: match.start()] + word + text[match.end() :]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def drop_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def swap_flag(text: str, rng: random.Random) -> str:
    words = list(re.finditer(r"\b(True|False|true|false|yes|no|on|off)\b", text))
    if not words:
        return text
    match = rng.choice(words)
    flipped = {
        "True": "False",
        "False": "True",
        "true": "false",
        "false": "true",
        "yes": "no",
        "no": "yes",
        "on": "off",
        "off": "on",
    }[match.group(0)]
    return text[: match.start()] + flipped + text[match.end() :]


def truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def truncate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return "\n".join(lines)


def insert_unicode(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(UNICODE) + text[i:]


def reindent(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines[i] = rng.choice(["", " ", "  ", "    ", "\t"]) + lines[i].lstrip()
    return "\n".join(lines)


def blow_up(text: str, rng: random.Random) -> str:
    """A value made large or nested: a long list, a deep mapping, a huge repeat."""
    found = list(NUMBER.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    value = rng.choice(["[" * 50 + "1" + "]" * 50, "[" + ", ".join(["1"] * 500) + "]", "9" * 400, "1" * 5000])
    return text[: match.start()] + value + text[match.end() :]


def add_line(text: str, rng: random.Random) -> str:
    extra = rng.choice(
        [
            "foo: 1",
            "--foo 1",
            "foo=1",
            "num_generations: 0",
            "per_device_train_batch_size: -3",
            "data.train_batch_size=0",
            "--n_samples_per_prompt 0",
            "trainer.n_gpus_per_node=0",
            "num_processes: 0",
            "export X=$((",
            "<<EOF",
            "defaults:",
            "- _self_",
            "hydra: {}",
            "actor_rollout_ref.rollout.n=1000000000000",
            "plan = 3",
            "[plan]",
            "generation_batch_size: 7",
        ]
    )
    lines = _lines(text)
    lines.insert(rng.randrange(len(lines) + 1), extra)
    return "\n".join(lines)


MUTATIONS = [
    change_number,
    change_number,
    change_number,
    misspell_key,
    drop_line,
    duplicate_line,
    swap_lines,
    swap_flag,
    truncate,
    truncate_line,
    insert_unicode,
    reindent,
    blow_up,
    add_line,
]


def mutate(sample: Sample, rng: random.Random, stacked: bool = False) -> tuple[Sample, list[str]]:
    """1–3 mutations (stacked: 3–6) of one of the sample's files; sometimes other reading options too."""
    files = dict(sample.files)
    name = rng.choice(list(files)) if rng.random() < 0.25 else next(iter(files))
    applied = []
    for _ in range(rng.randint(3, 6) if stacked else rng.choice([1, 1, 2, 3])):
        mutation = rng.choice(MUTATIONS)
        if files[name]:
            files[name] = mutation(files[name], rng)
        applied.append(f"{mutation.__name__}({name})")
    options = dict(sample.options)
    roll = rng.random()
    if roll < 0.1:
        options["framework"] = None
        applied.append("detect the framework")
    elif roll < 0.2:
        options["num_processes"] = rng.choice([1, 2, 3, 7, 8, 16, 10**6])
        applied.append(f"num_processes={options['num_processes']}")
    return Sample(sample.name, files, sample.base_dir, options), applied


# ---------------------------------------------------------------- running
def exercise(sample: Sample, summary: Summary) -> list[tuple[str, str]]:
    """explain, check and translate to every target; the internal errors as (where, traceback)."""
    failures: list[tuple[str, str]] = []

    def attempt(what: str, action: Any) -> Any:
        summary.runs += 1
        try:
            return action()
        except Exception as error:
            if classify(error)[0] == EXIT_INPUT:  # what the CLI reports as bad input
                summary.input_errors += 1
            else:
                failures.append((what, traceback.format_exc()))
        return None

    explanation = attempt("explain", lambda: translator.explain(sample.source(), **sample.options))
    if explanation is None:
        return failures
    attempt("explain text/json", lambda: (render.explanation_text(explanation), _json(explanation.to_dict())))
    report = attempt("check", lambda: translator.check(explanation))
    if report is not None:
        attempt("check text/json", lambda: (render.check_text(report), _json(report.to_dict())))
    for target in TARGETS:
        translation = attempt(
            f"translate --to {target}", lambda target=target: translator.translate(explanation, to=target)
        )
        if translation is not None:
            attempt(
                f"translate --to {target} text/json",
                lambda translation=translation: (render.translation_text(translation), _json(translation.to_dict())),
            )
    return failures


def _json(document: Any) -> str:
    return dumps(document, indent=None)  # the CLI's strict JSON: a NaN that slips through is an internal error


class Hang(BaseException):
    """An input that took longer than the time limit: counted as an internal error (a hang is a bug too). A
    BaseException, so that no handler on the way catches it and the sample stops."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"took longer than {LIMIT_SECONDS} s of CPU time")


# CPU seconds of this process (ITIMER_PROF), not wall-clock: a loop that never ends spends CPU and is caught, while
# other work on a loaded machine does not turn a slow sample into a "hang".
LIMIT_SECONDS = 10


def limit_memory(gigabytes: int = 4) -> None:
    """A runaway allocation must fail as MemoryError (an internal error), not take the machine down."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = gigabytes * 2**30
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def run(
    count: int = 10_000,
    seed: int = 0,
    show: int = 20,
    out: Any = sys.stdout,
    stacked: bool = False,
    every: bool = False,
) -> Summary:
    """``every``: the fixtures in turn (each one count // fixtures times or more) instead of drawn at random."""
    import signal

    previous = signal.signal(signal.SIGPROF, _alarm)
    try:
        return _run(count, seed, show, out, stacked, every)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _run(count: int, seed: int, show: int, out: Any, stacked: bool = False, every: bool = False) -> Summary:
    import signal

    rng = random.Random(seed)
    pool = fixtures()
    summary = Summary()
    started = time.perf_counter()
    shown = 0
    for index in range(count):
        sample, applied = mutate(pool[index % len(pool)] if every else rng.choice(pool), rng, stacked)
        begin = time.perf_counter()
        signal.setitimer(signal.ITIMER_PROF, LIMIT_SECONDS)
        try:
            failures = exercise(sample, summary)
        except Hang:
            failures = [("the whole sample", traceback.format_exc())]
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        took = time.perf_counter() - begin
        if took > summary.slowest[0]:
            summary.slowest = (took, f"#{index} {sample.name}: {', '.join(applied)}")
        summary.samples += 1
        for where, trace in failures:
            summary.internal_errors += 1
            last = trace.strip().splitlines()[-1]
            summary.kinds[f"{where.split(' text')[0].split(' --to')[0]}: {last[:160]}"] += 1
            if shown < show:
                shown += 1
                print(
                    f"=== internal error #{summary.internal_errors} (sample {index}, {sample.name}; "
                    f"{', '.join(applied)}; options {sample.options}) in {where}",
                    file=out,
                )
                print(trace, file=out)
                for name, text in sample.files.items():
                    print(f"--- {name} ---\n{text[:3000]}", file=out)
    summary.seconds = time.perf_counter() - started
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--count", type=int, default=10_000, help="mutated inputs (default 10000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=20, help="internal errors printed in full (default 20)")
    parser.add_argument("--stacked", action="store_true", help="3-6 mutations of the same file per input")
    args = parser.parse_args()
    limit_memory()
    summary = run(args.count, args.seed, args.show, stacked=args.stacked)
    print(
        f"{summary.samples} mutated inputs, {summary.runs} library calls in {summary.seconds:.1f} s: "
        f"{summary.input_errors} bad-input errors (exit 2), {summary.internal_errors} internal errors"
    )
    for kind, number in summary.kinds.most_common():
        print(f"  {number} × {kind}")
    print(f"slowest input: {summary.slowest[0]:.2f} s ({summary.slowest[1]})")
    return 1 if summary.internal_errors else 0


if __name__ == "__main__":
    sys.exit(main())
