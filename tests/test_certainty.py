"""Every plan quantity carries its certainty: read, default, derived, assumed (on what) or unknown (why, what to
pass)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import translator
from translator.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def levels(explanation: translator.Explanation) -> dict[str, str]:
    return {name: c.level for name, c in explanation.certainty.items()}


def test_read_default_and_derived_follow_the_derivation() -> None:
    # v09_fetch_granularity_sp2.sh sets data.train_batch_size, rollout.n, ppo_mini_batch_size, the micro-batch, the GPU
    # counts and total_training_steps; ppo_epochs is left to verl's default 1; samples per step (256 × 8), the
    # optimizer steps (2048 / 512) and the accumulation (512 / 8 / 8) are arithmetic on them. verl stops at
    # total_training_steps 500 or after total_epochs 10, whichever comes first: 500 steps only if the dataset holds
    # 500 × 256 / 10 = 12,800 prompts, which is assumed (fewer than ASSUMED_DATASET_PROMPTS).
    found = levels(translator.explain(FIXTURES / "verl" / "v09_fetch_granularity_sp2.sh"))
    assert found == {
        "prompts_per_step": "read",
        "samples_per_prompt": "read",
        "samples_per_step": "derived",
        "samples_per_optimizer_step": "read",
        "optimizer_steps_per_step": "derived",
        "epochs_per_step": "default",
        "data_parallel_size": "read",
        "micro_batch_per_device": "read",
        "grad_accum_steps": "derived",
        "total_steps": "assumed",
    }


def test_unknown_says_why_and_what_to_pass(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main_ppo data.train_batch_size=$BATCH actor_rollout_ref.rollout.n=4 \\\n"
        "  actor_rollout_ref.rollout.name=vllm\n"
    )
    prompts = translator.explain(script).certainty["prompts_per_step"]
    assert (prompts.level, prompts.why, prompts.hint) == ("unknown", "depends on $BATCH", "pass --env BATCH=...")
    # A TRL recipe alone does not state the number of training processes.
    recipe = translator.explain(
        FIXTURES / "trl" / "recipe_only_no_world_size" / "recipe_only_no_world_size.yaml"
    ).certainty
    assert (recipe["data_parallel_size"].level, recipe["data_parallel_size"].hint) == (
        "unknown",
        "pass --num-processes N",
    )


def test_a_fork_read_with_upstream_semantics_is_assumed_except_its_gpu_arithmetic() -> None:
    # fork_recipe_entry.sh runs recipe.myalgo.main_myalgo, read with verl.trainer.main_ppo's semantics (framework.fork):
    # its batch quantities are upstream's reading of a trainer rlconf did not see; the data-parallel size is the
    # launch's own GPU arithmetic (4 GPUs × 1 node).
    sure = translator.explain(FIXTURES / "verl" / "fork_recipe_entry.sh").certainty
    assert (
        sure["samples_per_optimizer_step"].level == "assumed"
        and "main_myalgo" in sure["samples_per_optimizer_step"].why
    )
    assert sure["data_parallel_size"].level == "read"
    assert sure["total_steps"].level == "unknown"  # trainer.total_epochs 2: the dataset size decides


def test_json_and_text_carry_it(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["explain", str(FIXTURES / "verl" / "fork_recipe_entry.sh"), "--format", "json"])
    document = json.loads(result.output)
    assert document["certainty"]["prompts_per_step"]["level"] == "assumed"
    assert document["certainty"]["total_steps"] == {
        "level": "unknown",
        "why": "depends on the dataset size",
        "hint": "pass --dataset-size PROMPTS",
    }
    text = runner.invoke(main, ["explain", str(FIXTURES / "verl" / "fork_recipe_entry.sh")]).output
    # The fork assumption is shared by every quantity the fork's code decides: written once, referenced by number.
    assert "128 prompts per step (assumed [1]: data.train_batch_size 128 prompts)" in text
    assert text.count("read with upstream semantics") == 1 and "  [1] read with upstream semantics: " in text


def test_strict_translate_exits_1_when_an_assumed_quantity_is_written(tmp_path: Path) -> None:
    runner = CliRunner()
    fork = str(FIXTURES / "verl" / "fork_recipe_entry.sh")
    plain = runner.invoke(main, ["translate", fork, "--to", "verl", "--env", "HOME=/home/me", "--format", "json"])
    assert plain.exit_code == 0, plain.output
    assert any(n["code"] == "plan.assumed" for n in json.loads(plain.output)["notes"])
    strict = runner.invoke(main, ["translate", fork, "--to", "verl", "--env", "HOME=/home/me", "--strict"])
    assert strict.exit_code == 1
    # The same plan from upstream's own entry point rests on nothing assumed: no plan.assumed note.
    upstream = translator.translate(FIXTURES / "verl" / "v09_fetch_granularity_sp2.sh", to="verl")
    assert not any(n.code == "plan.assumed" for n in upstream.notes)


def test_strict_counts_the_assumption_itself_not_only_warnings() -> None:
    translation = translator.translate(FIXTURES / "verl" / "fork_recipe_entry.sh", to="verl", env={"HOME": "/h"})
    # Without any warning left, the plan.assumed note alone makes --strict fail; without it, nothing does.
    translation.source.notes = [n for n in translation.source.notes if n.severity == "info"]
    translation.notes = [n for n in translation.notes if n.severity == "info"]
    assert translation.fails(strict=True)
    translation.notes = [n for n in translation.notes if n.code != "plan.assumed"]
    assert not translation.fails(strict=True)


def test_a_release_inferred_from_the_keys_makes_what_the_releases_disagree_on_assumed() -> None:
    # trl014_defaults_recipe_only.yaml sets no batch key and no version-bounding key; read as Open-R1's trl 0.18.0
    # (inferred): per_device_train_batch_size 8 completions × 7 processes × gradient_accumulation_steps 1 = 56
    # completions per optimizer step. Read as trl 0.14.0 (docs/frameworks/trl.md: 0.14 counts pdtbs in prompts and
    # overrides the defaults to pdtbs 1, GAS 8): 1 prompt × num_generations 8 × 7 processes × 8 = 448.
    sure = translator.explain(
        FIXTURES / "trl" / "trl014_defaults_recipe_only" / "trl014_defaults_recipe_only.yaml", num_processes=7
    ).certainty
    per_update = sure["samples_per_optimizer_step"]
    assert per_update.level == "assumed" and "448 as 0.14.0" in per_update.why
    assert per_update.hint is not None and "--from trl@" in per_update.hint
    # num_generations 8 is the default of every release: nothing to assume.
    assert sure["samples_per_prompt"].level == "default"
    # Stated with --from, the release is no longer in doubt.
    stated = translator.explain(
        FIXTURES / "trl" / "trl014_defaults_recipe_only" / "trl014_defaults_recipe_only.yaml",
        framework="trl@0.18.0",
        num_processes=7,
    ).certainty
    assert stated["samples_per_optimizer_step"].level != "assumed"


def test_failed_is_a_truth_value_not_a_method() -> None:
    # `if translation.failed:` must mean "translate exits 1": a bound method would always be true.
    clean = translator.translate(FIXTURES / "verl" / "v09_fetch_granularity_sp2.sh", to="verl")
    assert clean.failed is False and clean.fails() is False
    report = translator.check(FIXTURES / "verl" / "v09_fetch_granularity_sp2.sh")
    assert report.failed is False
