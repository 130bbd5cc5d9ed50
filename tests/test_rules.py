"""rlconf rules, --select / --ignore and '# rlconf: ignore' comments (translator/rules.py, docs/rules.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rule_scan import emitted

from translator import dialects, rules
from translator.cli import main
from translator.dialects.base import at_least

ROOT = Path(__file__).resolve().parent.parent
FRAMEWORKS = [name for name in dialects.names() if name != "rlconf"]

# verl 0.5.0, 250 prompts × n 5 = 1250 samples on 8 GPUs: 1250 % 8 != 0 (verl.real-batch-divisible), 250 % 64 != 0
# (verl.mini-batch-remainder: verl ≤ 0.7 runs a short last
# mini-batch of 58, a warning), and no micro-batch key for the actor
# nor the rollout (verl.micro-batch-missing, twice). The comment on line 3 covers line 4, which sets
# data.train_batch_size, the first key of the remainder finding.
SCRIPT = """#!/bin/bash
export N=8
# rlconf: ignore[verl.mini-batch-remainder]
python3 -m verl.trainer.main_ppo data.train_batch_size=250 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=64 \\
    actor_rollout_ref.rollout.n=5 trainer.n_gpus_per_node=8 trainer.nnodes=1
"""
# Every micro-batch key set and 240 × 5 = 1200 samples split over 8 GPUs: only 240 % 64 = 48 is left, which verl
# 0.5 runs as a short last mini-batch (verl.mini-batch-remainder, a warning).
ONE_WARNING = """#!/bin/bash
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.ppo_mini_batch_size=64 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.rollout.n=5 trainer.n_gpus_per_node=8 trainer.nnodes=1 \\
    data.train_batch_size=240
"""
ON_ITS_LINE = ONE_WARNING.replace("=240\n", "=240  # rlconf: ignore[verl.]\n")  # line 7 sets train_batch_size
# TRL 0.18: 2 processes × 4 completions = 8 per generation round, not divisible by 3 generations per prompt.
RECIPE = "model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 4\nnum_generations: 3\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def check_json(*args: str) -> tuple[int, dict]:
    code, out, _ = run("check", *args, "--format", "json")
    return code, json.loads(out)


def rule_codes(document: dict) -> list[str]:
    return sorted(f["rule"] for f in document["errors"] + document["warnings"])


# ---- the catalogue --------------------------------------------------------------------------------------


def test_catalogue_holds_every_code_the_code_emits_and_no_other() -> None:
    found = emitted(FRAMEWORKS)
    catalogue = {rule.code: rule for rule in rules.catalogue()}
    assert len(catalogue) == len(rules.catalogue()), "a code is listed twice"
    missing = sorted(set(found) - set(catalogue))
    dead = sorted(set(catalogue) - set(found))
    assert not missing, (
        f"codes the code emits that the catalogue (rule_table.py, frameworks/*/rules.py) lacks: {missing}"
    )
    assert not dead, f"codes in the catalogue that nothing emits: {dead}"
    for code, where in found.items():
        rule = catalogue[code]
        assert rule.kind == where.kind, code
        assert where.severities <= set(rule.severities), (code, where.severities, where.places)


def test_scan_finds_codes_given_through_helpers_and_fstrings() -> None:
    # The scanner must see through the rule modules' helpers and f-strings, or the test above proves little:
    # run.finding("open-instruct.pack-length", ...) (a method passing its parameter to Finding),
    # rule = f"{spec.framework}.learning-rate-range" (one per framework), ShellNote(line, code, ...) via
    # self.note(...), and the ("info", "version.band", message) tuples of pending version notes.
    found = emitted(FRAMEWORKS)
    assert {"open-instruct.pack-length", "shell.gpu-count", "version.band"} <= set(found)
    assert {f"{name}.learning-rate-range" for name in FRAMEWORKS} <= set(found)
    assert found["verl.clip-ratio-c"].severities == {"error"}  # the severity passed beside the code, not all


def test_descriptions_are_one_short_line_without_placeholders() -> None:
    # "…" stands for a value of the config only in a framework's own message; a description says in words what
    # the code reports and when, on one line of the table.
    for rule in rules.catalogue():
        assert "…" not in rule.description and "\n" not in rule.description, rule.code
        assert len(rule.description) <= 160, (rule.code, len(rule.description))


def test_docs_rules_md_is_generated() -> None:
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rules.markdown(), (
        "docs/rules.md is out of date: run python scripts/gen_docs.py"
    )


def test_rules_command_lists_every_code() -> None:
    code, out, _ = run("rules", "--format", "json")
    assert code == 0
    listed = json.loads(out)
    assert [r["code"] for r in listed] == rules.codes()
    entry = next(r for r in listed if r["code"] == "trl.num-generations-divisible")
    assert entry["kind"] == "check" and entry["framework"] == "trl" and "error" in entry["severities"]
    note = next(r for r in listed if r["code"] == "plan.not-preserved")
    assert note["kind"] == "note" and note["framework"] == "all"
    code, out, _ = run("rules")
    assert code == 0 and "verl.mini-batch-remainder  [check, verl" in out


# ---- patterns ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "code", "expected"),
    [
        ("trl.num-generations-divisible", "trl.num-generations-divisible", True),
        ("trl.num-generations", "trl.num-generations-divisible", False),  # no prefix without a trailing . or -
        ("trl.num-generations-", "trl.num-generations-divisible", True),
        ("keys.", "keys.unknown", True),
        ("keys.", "trl.unknown-key", False),
        ("trl.*", "trl.unknown-key", True),
        ("*.unknown-key", "verl.unknown-key", True),
        ("verl", "verl.unknown-key", True),
        ("verl", "version.band", False),
    ],
)
def test_matches(pattern: str, code: str, expected: bool) -> None:
    assert rules.matches(pattern, code) is expected


def test_unknown_code_is_exit_2_with_the_nearest(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", ONE_WARNING)
    code, out, err = run("check", path, "--ignore", "verl.mini-batch-remaindr")
    assert code == 2 and out == ""
    assert "verl.mini-batch-remaindr" in err and "did you mean verl.mini-batch-remainder" in err
    code, _, err = run("translate", path, "--to", "trl", "--select", "nothing.*")
    assert code == 2 and "rlconf rules" in err


def test_suppressions_parse() -> None:
    marks = rules.suppressions(
        "a: 1  # rlconf: ignore[x.y, z.]\n# rlconf: ignore\nb: 2\n# rlconf: ignore-file[trl.*]\n"
    )
    assert marks.lines[1] == ["x.y", "z."] and marks.silences("z.w", 1) and not marks.silences("q.r", 1)
    assert marks.silences("q.r", 2) and marks.silences("q.r", 3)  # own line: that line and the one below
    assert not marks.silences("q.r", 4) and not marks.silences("q.r", None)
    assert marks.silences("trl.anything", None)  # file-wide, even without a line


# ---- check --------------------------------------------------------------------------------------------------


def test_check_ignore_and_select(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", SCRIPT.replace("# rlconf: ignore[verl.mini-batch-remainder]\n", ""))
    code, document = check_json(path, "--from", "verl@0.5.0")
    assert code == 1
    assert rule_codes(document) == [
        "verl.micro-batch-missing",
        "verl.micro-batch-missing",
        "verl.mini-batch-remainder",
        "verl.real-batch-divisible",
    ]
    code, document = check_json(
        path,
        "--from",
        "verl@0.5.0",
        "--ignore",
        "verl.micro-batch-missing",
        "--ignore",
        "verl.real-batch-divisible,verl.mini-",
    )
    assert code == 0 and rule_codes(document) == [] and document["suppressed"] == []
    code, document = check_json(path, "--from", "verl@0.5.0", "--select", "verl.mini-*")
    assert code == 0 and rule_codes(document) == ["verl.mini-batch-remainder"]  # a warning alone


def test_check_comment_above_silences_the_line_below(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", SCRIPT)
    code, document = check_json(path, "--from", "verl@0.5.0")
    assert code == 1  # the other errors remain
    assert "verl.mini-batch-remainder" not in rule_codes(document)
    assert [(s["code"], s["line"]) for s in document["suppressed"]] == [("verl.mini-batch-remainder", 4)]
    code, out, _ = run("check", path, "--from", "verl@0.5.0")
    assert "1 suppressed by comments in the config (--show-suppressed lists them)" in out
    code, out, _ = run("check", path, "--from", "verl@0.5.0", "--show-suppressed")
    assert "suppressed warning [verl.mini-batch-remainder] line 4:" in out


def test_suppressed_warning_never_fails_strict(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", ONE_WARNING)
    code, document = check_json(path, "--from", "verl@0.5.0", "--strict")
    assert code == 1 and rule_codes(document) == ["verl.mini-batch-remainder"]
    # on the line the finding points at (the first that sets one of its keys, train_batch_size: line 7)
    code, document = check_json(write(tmp_path, "same.sh", ON_ITS_LINE), "--from", "verl@0.5.0", "--strict")
    assert code == 0 and document["suppressed"][0]["line"] == 7
    # a comment on another line does not reach it; the file-wide form does
    elsewhere = ONE_WARNING + "# rlconf: ignore[verl.mini-batch-remainder]\n"
    assert check_json(write(tmp_path, "else.sh", elsewhere), "--from", "verl@0.5.0", "--strict")[0] == 1
    whole = ONE_WARNING + "# rlconf: ignore-file[verl.mini-batch-remainder]\n"
    assert check_json(write(tmp_path, "whole.sh", whole), "--from", "verl@0.5.0", "--strict")[0] == 0


def test_yaml_comment(tmp_path: Path) -> None:
    plain = write(tmp_path, "recipe.yaml", RECIPE)
    code, document = check_json(plain, "--from", "trl@0.18.0", "--num-processes", "2")
    assert code == 1 and rule_codes(document) == ["trl.num-generations-divisible"]
    quiet = write(tmp_path, "quiet.yaml", RECIPE.replace("num_generations: 3", "num_generations: 3  # rlconf: ignore"))
    code, document = check_json(quiet, "--from", "trl@0.18.0", "--num-processes", "2")
    assert code == 0 and [s["code"] for s in document["suppressed"]] == ["trl.num-generations-divisible"]


def test_many_files_summary_counts_suppressed(tmp_path: Path) -> None:
    write(tmp_path, "a.sh", ON_ITS_LINE)
    write(tmp_path, "b.sh", ONE_WARNING)
    code, out, _ = run("check", str(tmp_path), "--from", "verl@0.5.0")
    assert code == 0  # a warning without --strict
    assert "(0 errors, 1 warning, 1 suppressed)" in out
    code, out, _ = run("check", str(tmp_path), "--from", "verl@0.5.0", "--format", "json")
    assert json.loads(out)["summary"]["suppressed"] == 1


# ---- translate -------------------------------------------------------------------------------------------


def test_translate_select_and_strict(tmp_path: Path) -> None:
    path = write(tmp_path, "run.sh", ONE_WARNING)
    args = ("translate", path, "--from", "verl@0.5.0", "--to", "trl@0.18.0", "--strict", "--format", "json")
    code, out, _ = run(*args)
    assert code == 1  # verl's critic and batch-level std have no TRL form: error notes
    code, out, _ = run(*args, "--select", "units.")
    document = json.loads(out)
    assert code == 0
    codes = {n["code"] for n in document["notes"] + document["source"]["notes"]}
    assert codes and all(c.startswith("units.") for c in codes)


def test_translate_note_at_a_line(tmp_path: Path) -> None:
    # The shell reader notes line 2's GPU count (file:2: ... in the message); the comment above silences it.
    script = ONE_WARNING.replace(
        "#!/bin/bash\n", "#!/bin/bash\n# rlconf: ignore[shell.gpu-count]\nN=$(nvidia-smi -L | wc -l)\n"
    )
    path = write(tmp_path, "run.sh", script)
    _code, out, _ = run("translate", path, "--from", "verl@0.5.0", "--to", "verl@0.5.0", "--format", "json")
    document = json.loads(out)
    assert [(s["code"], s["line"]) for s in document["suppressed"]] == [("shell.gpu-count", 3)]
    assert all(n["code"] != "shell.gpu-count" for n in document["source"]["notes"])


# ---- release ranges ---------------------------------------------------------------------------------------


def in_range(version: str, stated: str) -> bool:
    """Whether ``version`` lies in a catalogue range such as "0.15.0, 0.17.0 –" or "0.26.0 – 0.27.x" ("" = all)."""
    if not stated:
        return True
    for part in stated.split(", "):
        first, dash, last = (s.strip() for s in part.partition("–"))
        if not dash:
            last = first
        if first and not at_least(version, first):
            continue
        if not last:
            return True
        if last.endswith(".x"):  # "1.7.x": every patch release of 1.7, i.e. before 1.8
            major, minor = last.removesuffix(".x").split(".")
            if not at_least(version, f"{major}.{int(minor) + 1}.0"):
                return True
        elif at_least(last, version):
            return True
    return False


def test_in_range_reads_the_catalogue_spelling() -> None:
    assert in_range("0.16.0", "") and in_range("0.5.0", "0.5.0, 0.5.6 – 0.7.0") and in_range("0.7.0", "0.5.6 – 0.7.0")
    assert not in_range("0.5.3", "0.5.0, 0.5.6 – 0.7.0") and not in_range("0.7.1", "0.5.6 – 0.7.0")
    assert in_range("1.7.3", "0.18.0 – 1.7.x") and not in_range("1.8.0", "0.18.0 – 1.7.x")
    assert in_range("2026.10.9", "2025.8.9 –") and not in_range("2025.3.19", "2025.8.9 –")


# Each config trips its rule wherever the rule's version guard lets it run, so over every release the framework
# reads, the code is reported exactly at the releases the catalogue's range states:
# - max_prompt_length is accepted and never read in TRL 0.26–0.27 (a known key before, unknown from 0.28);
# - sync_ref_model with beta 0.0 (no reference model to sync) is refused from TRL 0.16, where the check starts;
# - generation_batch_size and steps_per_generation together are refused from 0.18, where both keys appear;
# - verl's actor.clip_ratio alone is shadowed by clip_ratio_low/high from 0.4 (the 0.4.1 reader on).
RANGE_CASES = [
    ("trl", "recipe.yaml", "max_prompt_length: 256\n", "trl.max-prompt-length-ignored"),
    ("trl", "recipe.yaml", "sync_ref_model: true\nbeta: 0.0\n", "trl.sync-ref-model-beta"),
    ("trl", "recipe.yaml", "generation_batch_size: 8\nsteps_per_generation: 2\n", "trl.generation-batch-exclusive"),
    (
        "verl",
        "run.sh",
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.clip_ratio=0.3 actor_rollout_ref.rollout.n=4 "
        "trainer.n_gpus_per_node=8 trainer.nnodes=1 data.train_batch_size=64 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=16\n",
        "verl.clip-ratio-ignored",
    ),
]


@pytest.mark.parametrize(("framework", "name", "body", "rule"), RANGE_CASES)
def test_a_rule_is_reported_exactly_within_its_stated_releases(
    tmp_path: Path, framework: str, name: str, body: str, rule: str
) -> None:
    stated = next(r.versions for r in rules.catalogue() if r.code == rule)
    assert stated, f"{rule} is version-guarded: its catalogue entry must say from which release"
    head = "model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 4\nnum_generations: 4\n"
    path = write(tmp_path, name, (head if name.endswith(".yaml") else "#!/bin/bash\n") + body)
    for version in dialects.get(framework).versions:
        _, document = check_json(path, "--from", f"{framework}@{version}", "--num-processes", "2")
        assert (rule in rule_codes(document)) == in_range(version, stated), (rule, version, stated)
