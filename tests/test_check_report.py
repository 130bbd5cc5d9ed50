"""check's report: rules skipped for want of an input, unknown keys of frameworks that refuse them, fixes that
search combinations of knobs and say what they keep."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from tests.conftest import FIXTURES
from translator import dialects
from translator.cli import main
from translator.sources.files import Source

NO_WORLD = FIXTURES / "trl" / "recipe_only_no_world_size" / "recipe_only_no_world_size.yaml"


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout


def test_a_rule_that_needs_the_world_size_is_skipped_not_passed() -> None:
    # The recipe states no world size; whether W × 8 × spg completions hold whole groups of 8 cannot be told.
    code, out = run("check", NO_WORLD)
    assert code == 0
    assert "skipped: trl.num-generations-divisible needs the world size (pass --num-processes N)" in out
    assert "no rule is broken" not in out
    assert out.splitlines()[0].endswith("1 rule skipped")
    code, out = run("check", NO_WORLD, "--format", "json")
    assert json.loads(out)["skipped"] == [
        {"rule": "trl.num-generations-divisible", "needs": "the world size", "hint": "pass --num-processes N"}
    ]
    assert run("check", NO_WORLD, "--strict")[0] == 1


def test_with_the_world_size_nothing_is_skipped() -> None:
    # 8 processes × 8 per device × spg 2 = 128 completions = 16 whole groups of 8: the rule runs and passes.
    report = translator.check(NO_WORLD, num_processes=8)
    assert not report.skipped
    assert "trl.num-generations-divisible" not in {f.rule for f in report.errors}


def test_skipped_only_where_the_rule_applies() -> None:
    # No evaluation: the eval-batch rule does not apply, so it is not "skipped" for want of W either.
    report = translator.check(NO_WORLD)
    assert "trl.eval-batch-divisible" not in {s.rule for s in report.skipped}
    with_eval = Source(NO_WORLD.read_text() + "eval_strategy: steps\n", "recipe.yaml")
    assert "trl.eval-batch-divisible" in {s.rule for s in translator.check(with_eval).skipped}


EASYR1 = FIXTURES / "easyr1" / "head_rpp_kl_reward_static.yaml"


@pytest.fixture
def easyr1_rejects(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(dialects.get("easyr1")), "rejects_unknown_keys", True, raising=False)


def test_unknown_key_is_an_error_where_the_framework_refuses_it(easyr1_rejects: None, tmp_path: Path) -> None:
    # EasyR1's structured config (OmegaConf) rejects a key its dataclasses lack: a typo is an error, and the fix is
    # the key it most likely meant.
    text = EASYR1.read_text()
    assert "  temperature:" in text
    typo = tmp_path / "config.yaml"
    typo.write_text(text.replace("  temperature:", "  temperatur:", 1))
    report = translator.check(typo, framework="easyr1")
    errors = [f for f in report.errors if f.rule == "easyr1.unknown-key"]
    assert len(errors) == 1 and errors[0].keys == ["worker.rollout.temperatur"]
    fix = errors[0].suggestions[0].changes
    assert fix == {
        "worker.rollout.temperatur": None,
        "worker.rollout.temperature": errors[0].values["worker.rollout.temperatur"],
    }
    code, out = run("check", typo, "--from", "easyr1")
    assert code == 1
    assert "fix: worker.rollout.temperatur=(remove), worker.rollout.temperature=" in out


@pytest.fixture
def easyr1_ignores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(dialects.get("easyr1")), "rejects_unknown_keys", False, raising=False)


def test_unknown_key_stays_a_note_where_the_framework_ignores_it(easyr1_ignores: None, tmp_path: Path) -> None:
    # EasyR1 itself rejects unknown keys (its dialect says so); switched off here, the same typo is the reader's
    # note only: no error finding, and check exits 0.
    typo = tmp_path / "config.yaml"
    typo.write_text(EASYR1.read_text().replace("  temperature:", "  temperatur:", 1))
    assert "keys.unknown" in {n.code for n in translator.explain(typo, framework="easyr1").notes}
    assert not [f for f in translator.check(typo, framework="easyr1").errors if f.rule == "easyr1.unknown-key"]
    assert run("check", typo, "--from", "easyr1")[0] == 0


SEVEN = """model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct
dataset_name: open-r1/OpenR1-Math-220k
use_vllm: true
vllm_device: auto
per_device_train_batch_size: 1
gradient_accumulation_steps: 16
num_generations: 8
"""


def test_fix_search_keeps_the_update_and_the_group_first(tmp_path: Path) -> None:
    # Open-R1 on 8 GPUs with vllm_device auto: 7 training processes. TRL 0.16 groups each micro-step's 7 × 1 = 7
    # completions, which 8 does not divide. 7 × 1 × 16 = 112 completions per optimizer step. per-device 8 ×
    # accumulation 2: 7 × 8 = 56 completions per micro-step = 7 groups of 8, and 7 × 8 × 2 = 112 per update: both kept.
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(SEVEN)
    report = translator.check(recipe, framework="trl@0.16.0", num_processes=7)
    item = next(f for f in report.errors if f.rule == "trl.num-generations-divisible")
    assert item.message.startswith(
        "The global train batch size (7 x 1) must be evenly divisible by the number of generations per prompt (8)."
    )
    first = item.suggestions[0]
    assert first.changes == {"per_device_train_batch_size": 8, "gradient_accumulation_steps": 2}
    assert first.keeps == {"data_parallel_size": 7, "samples_per_prompt": 8, "samples_per_optimizer_step": 112}
    assert first.changes_plan == {"prompts_per_round": [Fraction(7, 8), 7]}
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(
        SEVEN.replace("per_device_train_batch_size: 1", "per_device_train_batch_size: 8").replace(
            "gradient_accumulation_steps: 16", "gradient_accumulation_steps: 2"
        )
    )
    assert not translator.check(fixed, framework="trl@0.16.0", num_processes=7).errors
    # The others say what they give up: num_generations 7 changes the group, 8 processes the update.
    assert all(set(s.changes_plan) & {"samples_per_prompt", "samples_per_optimizer_step"} for s in item.suggestions[1:])
    _code, out = run("check", recipe, "--from", "trl@0.16.0", "--num-processes", "7")
    fix = next(line for line in out.splitlines() if line.lstrip().startswith("fix:"))
    assert fix.strip().startswith("fix: per_device_train_batch_size=8, gradient_accumulation_steps=2")
    assert "112 completions per optimizer step" in fix.split("changes")[0]  # among what it keeps
    document = json.loads(run("check", recipe, "--from", "trl@0.16.0", "--num-processes", "7", "--format", "json")[1])
    assert document["errors"][0]["suggestions"][0]["keeps"]["samples_per_optimizer_step"] == 112


def test_split_product_and_combined_search() -> None:
    from translator.checks.findings import combined, split_product

    # 16 = a × b, a nearest the current 1 first (ties: the larger), a = 1 itself excluded.
    assert split_product(16, 1) == [(2, 8), (4, 4), (8, 2), (16, 1)]
    assert combined([[{"a": 1}, {"a": 2}], [{"b": 3}], [{"a": 5, "c": 1}]]) == [
        {"a": 1, "b": 3},
        {"a": 2, "b": 3},
        {"b": 3, "a": 5, "c": 1},
    ]
