"""TRL / Open-R1 rule checks. Every expectation is derived by hand from docs/frameworks/trl.md (§2 batch
derivation, §3 timeline, §4 checks with TRL's own messages, §6-§7 Open-R1 and recurring confusions) and, where the
reference abbreviates a message, from the released wheel it names. Each violation is checked for its rule id, TRL's
message with the numbers filled in, at least one suggestion, and a clean re-check once a suggestion is applied."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import translator
from tests.conftest import CASES, FIXTURES, findings_of
from translator.api import check
from translator.checks import CheckReport, Finding
from translator.checks.findings import Suggestion
from translator.cli import main
from translator.frameworks.trl.tables import VERSIONS
from translator.sources.files import Source

# A valid recipe in every release: 8 processes × 8 completions × GAS 4 = 256 completions = 32 prompts × 8 per step.
BASE: dict[str, Any] = {
    "model_name_or_path": "Qwen/Qwen2.5-1.5B-Instruct",
    "per_device_train_batch_size": 8,
    "gradient_accumulation_steps": 4,
    "num_generations": 8,
    "num_processes": 8,
}


def render(settings: dict[str, Any]) -> tuple[str, int | None]:
    """A recipe YAML plus the world size: `num_processes` is the accelerate launch option, never a recipe key;
    a None value means the key is not written."""
    recipe = {k: v for k, v in settings.items() if k != "num_processes" and v is not None}
    return yaml.safe_dump(recipe, sort_keys=False), settings.get("num_processes")


def run(settings: dict[str, Any], version: str) -> CheckReport:
    text, world = render(settings)
    return check(Source(text, "recipe.yaml"), framework=f"trl@{version}", num_processes=world)


def applied(settings: dict[str, Any], suggestion: Suggestion) -> dict[str, Any]:
    return {**settings, **suggestion.changes}


def only(report: CheckReport, rule: str) -> Finding:
    found = [f for f in report.errors + report.warnings if f.rule == rule]
    assert len(found) == 1, (rule, [(f.rule, f.message) for f in report.errors + report.warnings])
    return found[0]


def assert_violation(settings: dict[str, Any], version: str, rule: str, severity: str, message: str) -> Finding:
    """The rule fires once with this message; every suggestion, applied, leaves no finding of it and no error."""
    report = run(settings, version)
    item = only(report, rule)
    assert (item.severity, item.message) == (severity, message)
    assert [f.rule for f in report.errors] == ([rule] if severity == "error" else [])
    assert item.suggestions, "every rule suggests at least one fix"
    for suggestion in item.suggestions:
        after = run(applied(settings, suggestion), version)
        assert not after.errors, (suggestion.changes, [f.message for f in after.errors])
        assert rule not in {f.rule for f in after.warnings}, suggestion.changes
        assert suggestion.text
    return item


def changes(item: Finding) -> list[dict[str, Any]]:
    return [s.changes for s in item.suggestions]


# ---------------------------------------------------------------- the group must divide the batch
def test_open_r1_seven_processes_times_one_under_0_15() -> None:
    # §4 row 0.15.0–0.16.x + §7 item 1 (open-r1#249): 7 training processes (the 8th GPU is vLLM's) × pdtbs 1 = 7
    # completions per micro-step; 7 has no divisor 8, TRL's possible values are [7]. Fixes in TRL's own terms:
    # 8 completions per device × 1 accumulation step (keeps 56 completions per optimizer step and the group of 8, so
    # it comes first), num_generations 7 (maintainers' answer; keeps the update), or 8 processes.
    settings = {**BASE, "num_processes": 7, "per_device_train_batch_size": 1, "gradient_accumulation_steps": 8}
    item = assert_violation(
        settings,
        "0.15.2",
        "trl.num-generations-divisible",
        "error",
        "The global train batch size (7 x 1) must be evenly divisible by the number of generations per prompt (8). "
        "Given the current train batch size, the valid values for the number of generations are: [7].",
    )
    assert changes(item) == [
        {"per_device_train_batch_size": 8, "gradient_accumulation_steps": 1},
        {"num_generations": 7},
        {"num_processes": 8},
    ]
    assert item.values == {"num_generations": 8, "per_device_train_batch_size": 1, "num_processes": 7}


def test_effective_batch_of_0_17_includes_gradient_accumulation() -> None:
    # §3 row 0.17.0 / §6: W 8 × pdtbs 16 × GAS 4 = 512 is not divisible by 14 (config_demo_code on 8 GPUs).
    # Nearest valid group: 16; 7 processes give 448 = 32 × 14; pdtbs 14 gives 448 too.
    settings = {**BASE, "per_device_train_batch_size": 16, "num_generations": 14}
    item = assert_violation(
        settings,
        "0.17.0",
        "trl.num-generations-divisible",
        "error",
        "The effective train batch size (8 x 16 x 4) must be evenly divisible by the number of generations per prompt "
        "(14). Given the current effective train batch size, the valid values for the number of generations are: "
        "[2, 4, 8, 16, 32, 64, 128, 256, 512].",
    )
    assert changes(item) == [{"num_generations": 16}, {"num_processes": 7}, {"per_device_train_batch_size": 14}]
    assert "keeps 8 training processes, 512 completions per optimizer step" in item.suggestions[0].text


def test_generation_batch_must_hold_whole_groups_from_0_20() -> None:
    # §2.1 (1.16.0): gbs = pdtbs 4 × W 6 × spg (= GAS 1) = 24; 24 % 16 != 0. Valid groups for 24: nearest 12;
    # 8 processes give 32; pdtbs 8 gives 48 (5, 3, 6, 2, 7 give 30, 18, 36, 12, 42).
    settings = {
        **BASE,
        "num_processes": 6,
        "per_device_train_batch_size": 4,
        "gradient_accumulation_steps": 1,
        "num_generations": 16,
    }
    item = assert_violation(
        settings,
        "1.16.0",
        "trl.num-generations-divisible",
        "error",
        "generation_batch_size (24) must be divisible by num_generations (16).",
    )
    assert changes(item) == [{"num_generations": 12}, {"num_processes": 8}, {"per_device_train_batch_size": 8}]


def test_group_of_one_is_rejected_from_0_17_and_warned_in_0_14() -> None:
    # §4 row 0.17.x (PR #3199): num_generations >= 2; 0.14 has no check and a group of one has a NaN std.
    settings = {**BASE, "num_generations": 1}
    item = assert_violation(
        settings,
        "1.16.0",
        "trl.num-generations-min",
        "error",
        "GRPO requires at least 2 generations per prompt to calculate the advantages. You provided "
        "1, which is less than the minimum required.",
    )
    assert changes(item) == [{"num_generations": 2}]
    assert_violation(
        settings,
        "0.14.0",
        "trl.num-generations-min",
        "warning",
        "num_generations 1: trl 0.14.0 divides each advantage by the std of a group of one, which is "
        "NaN, so there is no learning signal (an error from 0.17)",
    )


# ---------------------------------------------------------------- generation_batch_size / steps_per_generation
def test_generation_batch_and_steps_are_exclusive() -> None:
    # §4 rows 0.18.0+/0.20.0+: both set is a ValueError. Either alone gives 256 = 8 × 8 × 4 here.
    settings = {**BASE, "generation_batch_size": 256, "steps_per_generation": 4}
    item = assert_violation(
        settings,
        "1.16.0",
        "trl.generation-batch-exclusive",
        "error",
        "'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time",
    )
    assert changes(item) == [{"steps_per_generation": None}, {"generation_batch_size": None}]


def test_generation_batch_divisible_under_the_0_18_precedence_bug() -> None:
    # §3 row 0.18.0: `gbs % pdtbs * W` only tests gbs % pdtbs: 36 % 8 = 4 → ValueError naming pdtbs·W = 32.
    # Nearest multiple of lcm(32, G 4) = 32 → 32; or steps_per_generation 1.
    settings = {
        **BASE,
        "num_processes": 4,
        "num_generations": 4,
        "gradient_accumulation_steps": 1,
        "generation_batch_size": 36,
    }
    item = assert_violation(
        settings,
        "0.18.0",
        "trl.generation-batch-divisible",
        "error",
        "generation_batch_size (36) must be divisible by the global batch size (32).",
    )
    assert changes(item)[0] == {"generation_batch_size": 32}
    assert {"generation_batch_size": None, "steps_per_generation": 1} in changes(item)


def test_generation_batch_floored_in_0_18_rejected_from_0_19_1() -> None:
    # gbs 48, pdtbs 8, W 4: 48 % 8 = 0 passes 0.18.0's buggy test, spg = 48 // 32 = 1 (floor), so rounds take
    # 32 completions (warning). 0.19.1 fixed the precedence: 48 % 32 != 0 is a ValueError. Fixes: gbs 64 (32 and 64
    # tie at distance 16, the larger first), or 3 processes (48 % 24 = 0).
    settings = {**BASE, "num_processes": 4, "gradient_accumulation_steps": 2, "generation_batch_size": 48}
    assert_violation(
        settings,
        "0.18.0",
        "trl.generation-batch-floored",
        "warning",
        "trl 0.18.0 only checks generation_batch_size % per_device_train_batch_size (a precedence bug "
        "fixed in 0.19.1): 48 is not a multiple of 8 x 4 processes = 32, so steps_per_generation is "
        "floored to 1 and each generation round takes 32 completions, out of step with the sampler's "
        "batches of 48",
    )
    for version in ("0.19.1", "1.16.0"):
        item = assert_violation(
            settings,
            version,
            "trl.generation-batch-divisible",
            "error",
            "generation_batch_size (48) must be divisible by the global batch size (32).",
        )
        assert {"generation_batch_size": 64} in changes(item) and {"num_processes": 3} in changes(item)
        assert "trl.generation-batch-floored" not in {f.rule for f in run(settings, version).warnings}


def test_generation_batch_floored_to_zero_steps_crashes_0_18() -> None:
    # gbs 16, pdtbs 4, W 8: 16 % 4 = 0 passes, spg = 16 // 32 = 0 → the train dataloader's batch size is 4 × 0 and
    # torch's BatchSampler raises. Fixes: gbs 32 (multiple of lcm(32, 8)), or 4 processes (16 % 16 = 0).
    settings = {**BASE, "per_device_train_batch_size": 4, "gradient_accumulation_steps": 1, "generation_batch_size": 16}
    item = assert_violation(
        settings,
        "0.18.0",
        "trl.generation-batch-floored",
        "error",
        "batch_size should be a positive integer value, but got batch_size=0",
    )
    assert changes(item) == [{"generation_batch_size": 32}, {"num_processes": 4}]


# ---------------------------------------------------------------- evaluation batch, per release
EVAL = {
    **BASE,
    "num_processes": 6,
    "gradient_accumulation_steps": 2,
    "num_generations": 4,
    "eval_strategy": "steps",
    "per_device_eval_batch_size": 1,
}
POSSIBLE = "the valid values for the number of generations are: [2, 3, 6]."  # divisors of 6 × 1 from 2 up


@pytest.mark.parametrize(
    ("version", "message"),
    [
        (
            "0.15.2",
            (
                "The global eval batch size (6 x 1) must be evenly divisible by the number of generations per prompt "
                f"(4). Given the current eval batch size, {POSSIBLE}"
            ),
        ),
        (
            "0.16.0",
            (
                "The global eval batch size (6 x 1) must be evenly divisible by the number of generations per prompt "
                f"(4). Given the current eval batch size, {POSSIBLE}"
            ),
        ),
        (
            "0.17.0",
            (
                "The effective eval batch size (6 x 1) must be evenly divisible by the number of generations per "
                f"prompt (4). Given the current effective eval batch size, {POSSIBLE}"
            ),
        ),
        (
            "0.18.0",
            (
                "The global eval batch size (6 x 1) must be evenly divisible by the number of generations per prompt "
                f"(4). Given the current global eval batch size, {POSSIBLE}"
            ),
        ),
        (
            "0.19.1",
            (
                "The global eval batch size (6 x 1) must be evenly divisible by the number of generations per prompt "
                f"(4). Given the current global eval batch size, {POSSIBLE}"
            ),
        ),
        ("0.22.2", "The global eval batch size (1 * 6) must be divisible by num_generations (4)."),
        ("0.26.0", "The global eval batch size (1 * 6) must be divisible by num_generations (4)."),
        (
            "0.27.0",
            (
                "The global eval batch size (1 * 6) must be divisible by the number of generations used for "
                "evaluation (4)."
            ),
        ),
        (
            "1.16.0",
            (
                "The global eval batch size (1 * 6) must be divisible by the number of generations used for "
                "evaluation (4)."
            ),
        ),
    ],
)
def test_eval_batch_must_hold_whole_groups(version: str, message: str) -> None:
    # §4 eval rows; §7 item 7: W 6 × per_device_eval_batch_size 1 = 6 is not divisible by 4 (train: 6 × 8 × 2 = 96 is).
    # per_device_eval_batch_size 2 gives 12 = 3 groups of 4.
    item = assert_violation(EVAL, version, "trl.eval-batch-divisible", "error", message)
    assert changes(item)[0] == {"per_device_eval_batch_size": 2}
    assert {"eval_strategy": "no"} in changes(item)


def test_eval_batch_not_checked_in_0_20_and_num_generations_eval_counts_from_0_27() -> None:
    # §3 row 0.20.0: the eval check was dropped (re-added in 0.22). num_generations_eval (0.26+) only enters the
    # check in the 0.27.0 wheel (GRPOConfig.__post_init__: `self.num_generations_eval or self.num_generations`).
    assert not run(EVAL, "0.20.0").errors
    with_eval_group = {**EVAL, "num_generations_eval": 3}
    assert not run(with_eval_group, "0.27.0").errors and not run(with_eval_group, "1.16.0").errors
    assert only(run(with_eval_group, "0.26.0"), "trl.eval-batch-divisible").severity == "error"
    assert {"num_generations_eval": 3} in changes(only(run(EVAL, "1.16.0"), "trl.eval-batch-divisible"))
    assert not run({**EVAL, "eval_strategy": "no"}, "0.19.1").errors


# ---------------------------------------------------------------- other start-up checks
def test_auto_find_batch_size_rejected_from_1_10_warned_before() -> None:
    # §4 row 1.10.0+; before 1.10 the Trainer may halve per_device_train_batch_size on OOM and split groups.
    settings = {**BASE, "auto_find_batch_size": True}
    item = assert_violation(
        settings,
        "1.10.0",
        "trl.auto-find-batch-size",
        "error",
        "auto_find_batch_size is not supported by GRPO, because the generation batch must contain full prompt groups "
        "of num_generations completions, and reducing the batch size on out-of-memory breaks this invariant. Set "
        "auto_find_batch_size=False and lower per_device_train_batch_size instead.",
    )
    assert changes(item) == [{"auto_find_batch_size": False}]
    assert only(run(settings, "1.0.0"), "trl.auto-find-batch-size").severity == "warning"


def test_colocated_vllm_tensor_parallel_must_divide_the_world() -> None:
    # §4 row 0.18.0+ (renamed tensor_parallel_size in 0.28's vllm_generation.py): 8 % 3 != 0. Divisors of 8 nearest
    # 3: 4 and 2 (tie, larger first); or 9 processes (a multiple of 3; 9 × 8 × 4 = 288 = 36 × 8 still divides).
    settings = {**BASE, "use_vllm": True, "vllm_mode": "colocate", "vllm_tensor_parallel_size": 3}
    item = assert_violation(
        settings,
        "0.18.0",
        "trl.vllm-tensor-parallel",
        "error",
        "vllm_tensor_parallel_size (3) must divide world size (8) evenly.",
    )
    assert changes(item) == [{"vllm_tensor_parallel_size": 4}, {"num_processes": 9}]
    assert_violation(
        settings,
        "1.16.0",
        "trl.vllm-tensor-parallel",
        "error",
        "tensor_parallel_size (3) must divide world size (8) evenly.",
    )
    assert not run({**settings, "vllm_mode": "server"}, "1.16.0").errors  # server TP is vllm-serve's own flag


def test_reward_weights_one_per_reward_function() -> None:
    # §4 row 0.15.0+: 3 weights for 2 functions. With no reward_funcs, Open-R1's default is 3 functions (§6).
    settings = {**BASE, "reward_funcs": ["accuracy", "format"], "reward_weights": [1.0, 0.5, 0.2]}
    item = assert_violation(
        settings,
        "0.18.0",
        "trl.reward-weights-length",
        "error",
        "Number of reward weights (3) must match number of reward functions (2)",
    )
    assert changes(item) == [{"reward_weights": [1.0, 0.5]}, {"reward_weights": None}]
    open_r1 = {**BASE, "system_prompt": "Think first.", "reward_weights": [1.0, 0.2]}
    item = assert_violation(
        open_r1,
        "0.18.0",
        "trl.reward-weights-length",
        "error",
        "Number of reward weights (2) must match number of reward functions (3)",
    )
    assert changes(item)[0] == {"reward_weights": [1.0, 0.2, 1.0]}


def test_sync_ref_model_without_a_reference_model() -> None:
    # beta defaults to 0.0 from 0.19 (§5): no reference model. The 0.28.0+ trainer raises (read in the 0.28.0, 1.0.0,
    # 1.16.0 wheels; the reference lists 1.16.0); 0.16–0.27 silently skip the sync (ref_model is None).
    settings = {**BASE, "sync_ref_model": True}
    item = assert_violation(
        settings,
        "1.16.0",
        "trl.sync-ref-model-beta",
        "error",
        "You passed `sync_ref_model=True` while `beta=0.0`, which means the reference model is not used during "
        "training. Consequently, GRPOTrainer does not create a `ref_model` instance, and there is nothing to "
        "synchronize. Please set `sync_ref_model=False`, or set `beta` to a non-zero value.",
    )
    assert changes(item) == [{"sync_ref_model": False}, {"beta": 0.04}]
    assert only(run(settings, "0.19.1"), "trl.sync-ref-model-beta").severity == "warning"
    assert not run(settings, "0.18.0").warnings  # beta still defaults to 0.04 there
    assert only(run({**settings, "beta": 0.0}, "0.18.0"), "trl.sync-ref-model-beta").severity == "warning"


def test_liger_loss_has_no_two_sided_clipping() -> None:
    # §4 row 0.18.0–0.25.x ("Liger loss"), 0.26+ "Liger kernel" (0.26.0/0.27.0 wheels map use_liger_loss onto
    # use_liger_kernel; use_liger_loss is gone in 0.28).
    settings = {**BASE, "delta": 2.0, "use_liger_loss": True}
    item = assert_violation(
        settings, "0.22.2", "trl.liger-two-sided", "error", "Liger loss does not support two-sided GRPO loss yet."
    )
    assert changes(item) == [{"delta": None}, {"use_liger_loss": False}]
    assert_violation(
        settings, "0.27.0", "trl.liger-two-sided", "error", "Liger kernel does not support two-sided GRPO loss yet."
    )
    assert_violation(
        {**BASE, "delta": 2.0, "use_liger_kernel": True},
        "1.0.0",
        "trl.liger-two-sided",
        "error",
        "Liger kernel does not support two-sided GRPO loss yet.",
    )
    # The check is gone by 1.8.0 (not in the 1.8.0 … 1.16.0 wheels' grpo_config.py; the oracle confirms 1.16.0).
    assert not findings_of(run({**BASE, "delta": 2.0, "use_liger_kernel": True}, "1.16.0"), "trl.liger-two-sided")


def test_vllm_importance_sampling_bounds() -> None:
    # 1.16.0 GRPOConfig.__post_init__ (§4 row 1.16.0): clip_min 4.0 >= clip_max's default 3.0.
    item = assert_violation(
        {**BASE, "vllm_importance_sampling_clip_min": 4.0},
        "1.16.0",
        "trl.vllm-is-clip-range",
        "error",
        "vllm_importance_sampling_clip_min (4.0) must be less than vllm_importance_sampling_clip_max (3.0).",
    )
    assert changes(item) == [{"vllm_importance_sampling_clip_min": None}]
    # A *_truncate mode with both bounds explicitly null (a None in a recipe is written here as YAML null).
    text = render(BASE)[0] + "vllm_importance_sampling_mode: token_truncate\nvllm_importance_sampling_clip_max: null\n"
    report = check(Source(text, "recipe.yaml"), framework="trl@1.16.0", num_processes=8)
    item = only(report, "trl.vllm-is-truncate-bounds")
    assert item.message == (
        "At least one of `vllm_importance_sampling_clip_min` or `vllm_importance_sampling_clip_max`"
        " must be set when `vllm_importance_sampling_mode` is a `*_truncate` mode."
    )
    assert changes(item) == [{"vllm_importance_sampling_clip_max": 3.0}]
    fixed = text.replace("clip_max: null", "clip_max: 3.0")
    assert not check(Source(fixed, "recipe.yaml"), framework="trl@1.16.0", num_processes=8).errors


def test_sequence_parallelism_is_rejected_from_1_4() -> None:
    settings = {**BASE, "parallelism_config": {"cp_size": 2}}
    item = assert_violation(
        settings,
        "1.16.0",
        "trl.sequence-parallel",
        "error",
        "GRPOTrainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or "
        "`parallelism_config.sp_size > 1`) yet. GRPO builds model inputs after generation inside the trainer, so "
        "Transformers' context-parallel / Ulysses sequence-parallel input sharding cannot be applied to the raw "
        "generation batch. Set both `cp_size=1` and `sp_size=1`, or disable `parallelism_config`.",
    )
    assert changes(item)[0] == {"parallelism_config": {"cp_size": 1, "sp_size": 1}}


# ---------------------------------------------------------------- TrlParser: unknown keys
def test_unknown_recipe_keys_rejected_from_0_19_silently_dropped_before() -> None:
    # §3 row 0.19.0, §6: vllm_device left the config in 0.18; TrlParser raises from 0.19 (message from
    # trl/scripts/utils.py: the leftover `--key value` strings), 0.18 ignores it.
    settings = {**BASE, "vllm_device": "auto"}
    item = assert_violation(
        settings,
        "0.19.1",
        "trl.unknown-config-key",
        "error",
        "Unknown arguments from config file: ['--vllm_device', 'auto']. Please remove them, add "
        "them to the dataclass, or set `fail_with_unknown_args=False`.",
    )
    assert changes(item) == [{"vllm_device": None}]
    assert_violation(
        settings,
        "0.18.0",
        "trl.unknown-config-key",
        "warning",
        "trl 0.18.0's TrlParser silently ignores recipe keys that no argument class defines: "
        "vllm_device (an error from 0.19)",
    )
    assert not run(settings, "0.16.0").warnings  # still a (deprecated) field in 0.16


def test_typo_gets_a_rename_and_removed_max_prompt_length_is_unknown_from_0_28() -> None:
    typo = {k: v for k, v in BASE.items() if k != "num_generations"} | {"num_generation": 16}
    item = assert_violation(
        typo,
        "1.16.0",
        "trl.unknown-config-key",
        "error",
        "Unknown arguments from config file: ['--num_generation', '16']. Please remove them, add "
        "them to the dataclass, or set `fail_with_unknown_args=False`.",
    )
    assert changes(item)[0] == {"num_generation": None, "num_generations": 16}
    assert_violation(
        {**BASE, "max_prompt_length": 512},
        "0.28.0",
        "trl.unknown-config-key",
        "error",
        "Unknown arguments from config file: ['--max_prompt_length', '512']. Please remove them, add "
        "them to the dataclass, or set `fail_with_unknown_args=False`.",
    )


def test_num_processes_in_a_recipe_belongs_on_the_launch_line() -> None:
    # §6: Open-R1 branch recipes wrote `num_processes: 7` in the YAML; no parsed dataclass has it. The fix is the
    # pseudo-key num_processes itself: launch 7 processes (8 × 7 × 4 = 224 = 28 × 8).
    text = render(BASE)[0] + "num_processes: 7\n"
    for version, severity in (("0.18.0", "warning"), ("0.19.1", "error")):
        report = check(Source(text, "recipe.yaml"), framework=f"trl@{version}", num_processes=8)
        item = only(report, "trl.unknown-config-key")
        assert item.severity == severity
        assert changes(item) == [{"num_processes": 7}]
    assert "['--num_processes', '7']" in item.message
    fixed, world = render(applied({**BASE}, item.suggestions[0]))
    assert not check(Source(fixed, "recipe.yaml"), framework="trl@0.19.1", num_processes=world).errors


def test_unknown_launch_line_flag(tmp_path: Path) -> None:
    # Flags after the training script go to HfArgumentParser, which raises on leftovers in every release
    # (transformers hf_argparser.py: "Some specified arguments are not used by the HfArgumentParser: [...]").
    (tmp_path / "recipe.yaml").write_text(render(BASE)[0])

    def script(flags: dict[str, Any]) -> Source:
        words = " ".join(f"--{k} {v}" for k, v in flags.items() if v is not None)
        text = f"accelerate launch --num_processes 8 src/open_r1/grpo.py --config recipe.yaml {words}\n"
        return Source(text, "launch.sh", tmp_path)

    flags = {"output_dir": "data/run", "num_generation": 16}
    report = check(script(flags), framework="trl@0.18.0")
    item = only(report, "trl.unknown-cli-argument")
    assert (item.severity, item.message) == (
        "error",
        "Some specified arguments are not used by the HfArgumentParser: ['--num_generation', '16']",
    )
    assert changes(item)[0] == {"num_generation": None, "num_generations": 16}
    for suggestion in item.suggestions:
        assert not check(script({**flags, **suggestion.changes}), framework="trl@0.18.0").errors


# ---------------------------------------------------------------- accepted but silently changed
def test_max_prompt_length_is_ignored_in_0_26_and_0_27() -> None:
    # §1 max_prompt_length row: 0.26–0.27 keep the field with a FutureWarning, the trainer never reads it.
    settings = {**BASE, "max_prompt_length": 512}
    for version in ("0.26.0", "0.27.0"):
        item = assert_violation(
            settings,
            version,
            "trl.max-prompt-length-ignored",
            "warning",
            "The `max_prompt_length` argument is deprecated and will be removed in version 0.28.0. You should "
            "instead filter your dataset before training to ensure that prompts do not exceed your desired length. "
            f"(trl {version} does not read it: prompts are not truncated.)",
        )
        assert changes(item) == [{"max_prompt_length": None}]
    assert not run(settings, "0.23.0").warnings  # still truncates prompts


def test_rounds_that_straddle_optimizer_steps_are_off_policy() -> None:
    # §2.3 / §7 item 5: GAS 4 % (spg 3 × μ 1) != 0 → some micro-steps use completions from before the last update.
    # 0.20+ computes old log-probs then; 0.18–0.19 only when μ > 1 or spg > GAS (PR #3493), not here.
    # On-policy fixes: spg 4 (divisors of GAS 4 nearest 3: 4 and 2, the larger first) or GAS 3 (a multiple of 3).
    settings = {**BASE, "steps_per_generation": 3}
    item = assert_violation(
        settings,
        "1.16.0",
        "trl.off-policy-steps",
        "warning",
        "gradient_accumulation_steps (4) is not a multiple of steps_per_generation x num_iterations (3 x 1 = 3): some "
        "micro-steps train on completions generated before the last optimizer step (off-policy), so TRL computes old "
        "log-probabilities and clips the policy ratio",
    )
    assert changes(item) == [{"steps_per_generation": 4}, {"gradient_accumulation_steps": 3}]
    assert_violation(
        settings,
        "0.18.0",
        "trl.off-policy-steps",
        "warning",
        "gradient_accumulation_steps (4) is not a multiple of steps_per_generation x num_iterations (3 x 1 = 3): some "
        "micro-steps train on completions generated before the last optimizer step, and trl 0.18.0 computes no old "
        "log-probabilities here (only when num_iterations > 1 or steps_per_generation > gradient_accumulation_steps), "
        "so the policy ratio is taken as 1 on off-policy data (fixed in 0.20)",
    )


def test_num_iterations_replays_each_round() -> None:
    # μ 2 with spg = GAS: the second pass of each round is off-policy. The fixes: μ 1, or GAS 8 with spg pinned at 4.
    item = assert_violation(
        {**BASE, "num_iterations": 2},
        "1.16.0",
        "trl.off-policy-steps",
        "warning",
        "gradient_accumulation_steps (4) is not a multiple of steps_per_generation x "
        "num_iterations (4 x 2 = 8): some micro-steps train on completions generated before the "
        "last optimizer step (off-policy), so TRL computes old log-probabilities and clips the "
        "policy ratio",
    )
    assert changes(item) == [
        {"num_iterations": 1},
        {"steps_per_generation": 2},
        {"gradient_accumulation_steps": 8, "steps_per_generation": 4},
    ]
    assert_violation(
        {**BASE, "num_iterations": 2},
        "0.17.0",
        "trl.off-policy-steps",
        "warning",
        "num_iterations 2 replays each generation batch 2 times: some micro-steps train on completions "
        "generated before the last optimizer step (off-policy), so TRL computes old log-probabilities and "
        "clips the policy ratio",
    )


def test_dapo_loss_mis_scaled_when_steps_per_generation_differs_before_1_10() -> None:
    # §5 loss_type row, §7 item 6 (PR #6024): dapo (default from 0.22) divides by the generation batch's token count, so
    # spg 8 with GAS 4 halves the gradients (GAS/spg = 0.5) until 1.10.0. spg 8 > GAS 4 is also off-policy.
    settings = {**BASE, "steps_per_generation": 8}
    item = assert_violation(
        settings,
        "0.22.2",
        "trl.dapo-loss-scale",
        "warning",
        "loss_type 'dapo' with steps_per_generation 8 != gradient_accumulation_steps 4: trl 0.22.2 "
        "normalises by the token count of the whole generation batch, so gradients are scaled by "
        "gradient_accumulation_steps / steps_per_generation = 4/8 = 0.5 (fixed in trl 1.10)",
    )
    # bnpo keeps the completions per optimizer step; gradient_accumulation_steps 8 doubles them, so it comes last.
    assert changes(item) == [{"steps_per_generation": 4}, {"loss_type": "bnpo"}, {"gradient_accumulation_steps": 8}]
    assert "trl.dapo-loss-scale" not in {f.rule for f in run(settings, "1.10.0").warnings}
    assert "trl.dapo-loss-scale" not in {f.rule for f in run(settings, "0.20.0").warnings}  # bnpo default there


# ---------------------------------------------------------------- valid configs, fixtures, corpus
@pytest.mark.parametrize("version", VERSIONS)
def test_a_valid_recipe_breaks_no_rule(version: str) -> None:
    report = run(BASE, version)
    assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


TRL_CASES = [c for c in CASES if c.framework == "trl"]
# Hand-derived (see each .expect.yaml): none of the TRL fixtures is rejected by its TRL version; these warn.
FIXTURE_WARNINGS = {
    "gbs512_mu2_trl0191_ddp": {"trl.off-policy-steps"},  # spg 16 × μ 2 = 32 does not divide GAS 8
    "recipe_only_no_world_size": {"trl.off-policy-steps"},  # spg 2 × μ 3 = 6 does not divide GAS 2
    "recipe_only_np8": {"trl.max-prompt-length-ignored"},  # 0.27.0 ignores max_prompt_length
    "spg_max_steps_fsdp": {"trl.off-policy-steps"},  # spg 8 > GAS 4
    "trl016_mu2_server": {"trl.off-policy-steps"},  # num_iterations 2
    "trl017_server_mu2": {"trl.off-policy-steps"},  # num_iterations 2
    "vlm_fork_pinned": {"trl.unknown-cli-argument"},  # --image_root is the fork's own argument, not TRL's
    "openr1_multinode_run_parts": {"trl.off-policy-steps"},  # num_iterations 2
}


# warmup_ratio is no TrainingArguments field of transformers 5.15+, and every TRL release resolves transformers 5.24.0
# today (no upper bound in its requirements): TrlParser rejects it from 0.19 and drops it before (so the run has no
# warmup). Fixtures that name the transformers of their time (from: trl@X+transformersY) are not affected.
DROPPED_WARMUP = {
    "trl014_defaults_recipe_only",
    "trl014_vllm_device_np7",
    "trl015_recipe_only_g7",
    "trl016_mu2_server",
    "trl017_server_mu2",
}
FIXTURE_ERRORS = {"gbs512_mu2_trl0191_ddp": {"trl.unknown-config-key"}, "recipe_only_np8": {"trl.unknown-config-key"}}


@pytest.mark.parametrize("case", TRL_CASES, ids=lambda c: c.name)
def test_fixture_checks(case: Any) -> None:
    report = check(case.path, **case.load_kwargs())
    assert {f.rule for f in report.errors} == FIXTURE_ERRORS.get(case.name, set())
    assert all(f.keys == ["warmup_ratio"] for f in report.errors)
    expected = FIXTURE_WARNINGS.get(case.name, set()) | (
        {"trl.unknown-config-key"} if case.name in DROPPED_WARMUP else set()
    )
    assert {f.rule for f in report.warnings} == expected
    assert all(f.suggestions for f in report.warnings)


# ---------------------------------------------------------------- CLI: exit codes and JSON
def cli(*args: Any) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout


def test_cli_exit_codes(tmp_path: Path) -> None:
    clean = FIXTURES / "trl" / "colocate_trl116_zero3" / "launch.sh"
    assert cli("check", clean, "--from", "trl@1.16.0+transformers5.10.4") == (
        0,
        f"{clean}: trl 1.16.0 — 0 errors, 0 warnings\nno rule is broken\n",
    )
    # The same with the transformers trl 1.16.0 resolves to today (5.24.0): no warmup_ratio any more.
    code, out = cli("check", clean, "--from", "trl@1.16.0")
    assert code == 1 and "Unknown arguments from config file: ['--warmup_ratio', '0.02']" in out
    assert "fix: warmup_ratio=(remove), warmup_steps=0.02" in out
    warned = FIXTURES / "trl" / "recipe_only_np8" / "recipe_only_np8.yaml"
    assert cli("check", warned, "--num-processes", "8", "--from", "trl@0.27.0+transformers4.56.2")[0] == 0
    assert cli("check", warned, "--num-processes", "8", "--from", "trl@0.27.0+transformers4.56.2", "--strict")[0] == 1
    broken = tmp_path / "recipe.yaml"
    broken.write_text(render({**BASE, "num_generations": 14})[0])
    code, out = cli("check", broken, "--from", "trl@0.18.0", "--num-processes", "8")
    assert code == 1
    assert "error [trl.num-generations-divisible] The effective train batch size (8 x 8 x 4)" in out
    assert "fix: num_generations=16" in out


def test_cli_json_shape(tmp_path: Path) -> None:
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(render({**BASE, "num_generations": 14, "num_iterations": 2})[0])
    code, out = cli("check", recipe, "--from", "trl@1.16.0", "--num-processes", "8", "--format", "json")
    document = json.loads(out)
    assert code == 1
    assert {"framework", "version", "errors", "warnings"} <= set(document)
    assert (document["framework"], document["version"]) == ("trl", "1.16.0")
    assert [e["rule"] for e in document["errors"]] == ["trl.num-generations-divisible"]
    assert [w["rule"] for w in document["warnings"]] == ["trl.off-policy-steps"]
    for item in document["errors"] + document["warnings"]:
        assert set(item) >= {"rule", "message", "keys", "values", "suggestions"}
        assert item["suggestions"] and all(
            set(s) == {"changes", "text", "keeps", "changes_plan"} for s in item["suggestions"]
        )
    error = document["errors"][0]
    assert error["values"] == {
        "num_generations": 14,
        "generation_batch_size": 256,
        "per_device_train_batch_size": 8,
        "num_processes": 8,
    }
    assert error["suggestions"][0]["changes"] == {"num_generations": 16}


# ---------------------------------------------------------------- 0.14–0.15: the GPU colocated vLLM is put on
# GRPOTrainer.__init__ (trl/trainer/grpo_trainer.py@v0.14.0:287-298, @v0.15.2:373-387) resolves vllm_device "auto" to
# cuda:W (W = accelerator.num_processes) — 0.15 takes cuda:0 when one GPU is visible — and raises when the index is
# not below torch.cuda.device_count(), the number of GPUs in CUDA_VISIBLE_DEVICES (accelerate's gpu_ids replaces it).
VLLM_RECIPE = {k: v for k, v in BASE.items() if k != "num_processes"} | {"use_vllm": True}


def _vllm_launch(
    root: Path, launch: str, version: str = "0.14.0", recipe: dict[str, Any] | None = None, accelerate: str = ""
) -> CheckReport:
    """check on a project pinned to trl ``version`` whose run.sh is ``launch`` (a recipe.yaml next to it)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir()
    (root / "requirements.txt").write_text(f"trl=={version}\n")
    (root / "recipe.yaml").write_text(yaml.safe_dump(recipe or VLLM_RECIPE, sort_keys=False))
    if accelerate:
        (root / "accelerate.yaml").write_text(accelerate)
    (root / "run.sh").write_text("#!/bin/bash\n" + launch)
    return check(str(root / "run.sh"))


def _device_error(placed: str, fewer: int) -> str:
    return (
        f"The requested device for vllm ({placed}) is not available. You are likely using vLLM without restricting "
        "the number of GPUs for training. Set the `--num_processes` argument to a value lower than the number of GPUs "
        f"available on your machine—typically, reducing it by one is sufficient. In your case: `--num_processes "
        f"{fewer}`."
    )


LAUNCH = "accelerate launch --num_processes={world} src/open_r1/grpo.py --config recipe.yaml{flags}\n"


def test_auto_vllm_device_past_the_visible_gpus_stops_at_start(tmp_path: Path) -> None:
    # trl 0.14.0: 4 processes → auto is cuda:4; CUDA_VISIBLE_DEVICES=4,5,6,7 leaves 4 visible (cuda:0-3), 4 ≥ 4:
    # ValueError, "--num_processes 3" (device_count() - 1). Fixes: vLLM on cuda:3 (shared with process 3; TRL only
    # warns) or no vLLM keep the batch (8 × 4 processes × GAS 4 = 128 completions per step), so they rank before 3
    # processes (cuda:3 then free; 96 per step).
    launch = "export CUDA_VISIBLE_DEVICES=4,5,6,7\n" + LAUNCH.format(world=4, flags="")
    report = _vllm_launch(tmp_path / "a", launch)
    item = only(report, "trl.vllm-device-available")
    assert (item.severity, item.message) == ("error", _device_error("cuda:4", 3))
    assert item.values["visible GPUs"].startswith("4 (CUDA_VISIBLE_DEVICES=4,5,6,7 for ")
    assert changes(item) == [{"vllm_device": "cuda:3"}, {"use_vllm": False}, {"num_processes": 3}]
    with pytest.raises(translator.ConfigError, match=r"vllm \(cuda:4\) is not available"):
        translator.explain(str(tmp_path / "a" / "run.sh"))
    # 0.15.2, the same: 4 visible is more than one, so auto is still cuda:W
    item = only(_vllm_launch(tmp_path / "b", launch, "0.15.2"), "trl.vllm-device-available")
    assert item.message == _device_error("cuda:4", 3)


def test_auto_vllm_device_on_a_spare_visible_gpu_is_fine(tmp_path: Path) -> None:
    # 5 visible (cuda:0-4), 4 processes: auto is cuda:4 < 5, the GPU left for vLLM
    launch = "export CUDA_VISIBLE_DEVICES=0,1,2,3,4\n" + LAUNCH.format(world=4, flags="")
    report = _vllm_launch(tmp_path, launch)
    assert "trl.vllm-device-available" not in {f.rule for f in report.errors + report.warnings}


def test_explicit_vllm_device_is_checked_against_the_visible_gpus(tmp_path: Path) -> None:
    # vllm_device cuda:7 with 4 visible (a prefix assignment on the launch line) and 3 processes: 7 ≥ 4, the message
    # names the device as given and device_count() - 1 = 3 processes; cuda:3 is below 4: fine (and not a training
    # GPU, 3 processes use cuda:0-2); a flag after the recipe sets it the same way.
    launch = "CUDA_VISIBLE_DEVICES=0,1,2,3 " + LAUNCH.format(world=3, flags=" --vllm_device cuda:{n}")
    item = only(_vllm_launch(tmp_path / "a", launch.format(n=7)), "trl.vllm-device-available")
    assert (item.severity, item.message) == ("error", _device_error("cuda:7", 3))
    # auto is cuda:3 there (the GPU after 3 processes): the first vllm_device that works (one fix per key); no vLLM
    # keeps the batch too; 3 processes is the world already, so no world change is offered
    assert changes(item) == [{"vllm_device": "auto"}, {"use_vllm": False}]
    fine = _vllm_launch(tmp_path / "b", launch.format(n=3))
    assert "trl.vllm-device-available" not in {f.rule for f in fine.errors + fine.warnings}
    # a device that is not a GPU index is not this check's (TRL tests only "cuda:N")
    cpu = _vllm_launch(tmp_path / "c", launch.replace("cuda:{n}", "cpu"))
    assert "trl.vllm-device-available" not in {f.rule for f in cpu.errors + cpu.warnings}


def test_one_visible_gpu_is_shared_from_0_15_and_refused_in_0_14(tmp_path: Path) -> None:
    # CUDA_VISIBLE_DEVICES=0, one process: 0.14.0 puts vLLM on cuda:1 ≥ 1 → error naming "--num_processes 0"; 0.15
    # takes cuda:0 when device_count() == 1 (shared with training): no error
    launch = "export CUDA_VISIBLE_DEVICES=0\n" + LAUNCH.format(world=1, flags="")
    item = only(_vllm_launch(tmp_path / "a", launch), "trl.vllm-device-available")
    assert item.message == _device_error("cuda:1", 0)
    assert {"vllm_device": "cuda:0"} in changes(item)  # no smaller world: 0 processes is none
    shared = _vllm_launch(tmp_path / "b", launch, "0.15.2")
    assert "trl.vllm-device-available" not in {f.rule for f in shared.errors + shared.warnings}


def test_accelerate_gpu_ids_are_the_visible_gpus(tmp_path: Path) -> None:
    # accelerate launch sets CUDA_VISIBLE_DEVICES to gpu_ids (accelerate/utils/launch.py@v1.3.0), over the
    # script's 8: gpu_ids 0,1,2,3 with num_processes 4 → cuda:4 ≥ 4; gpu_ids "all" leaves the script's 8 → cuda:4 < 8
    launch = (
        "export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n"
        "accelerate launch --config_file accelerate.yaml src/open_r1/grpo.py --config recipe.yaml\n"
    )
    config = "distributed_type: MULTI_GPU\nnum_processes: 4\ngpu_ids: {ids}\n"
    item = only(
        _vllm_launch(tmp_path / "a", launch, accelerate=config.format(ids="0,1,2,3")), "trl.vllm-device-available"
    )
    assert item.message == _device_error("cuda:4", 3)
    assert item.values["visible GPUs"].endswith("accelerate.yaml (0,1,2,3))")
    fine = _vllm_launch(tmp_path / "b", launch, accelerate=config.format(ids="all"))
    assert "trl.vllm-device-available" not in {f.rule for f in fine.errors + fine.warnings}
    # the flag, through `python -m accelerate.commands.launch`: --gpu_ids 0,1,2,3,4 gives 5 over the script's 4,
    # so cuda:4 (4 processes) is free
    flag = (
        "export CUDA_VISIBLE_DEVICES=0,1,2,3\npython -m accelerate.commands.launch --gpu_ids 0,1,2,3,4 "
        + LAUNCH.format(world=4, flags="").removeprefix("accelerate launch ")
    )
    five = _vllm_launch(tmp_path / "c", flag)
    assert "trl.vllm-device-available" not in {f.rule for f in five.errors + five.warnings}
    four = _vllm_launch(tmp_path / "d", flag.replace("0,1,2,3,4 ", "0,1,2,3 "))
    assert only(four, "trl.vllm-device-available").values["visible GPUs"].startswith("4 (--gpu_ids on ")


def test_no_finding_where_the_visible_gpus_or_the_release_do_not_say(tmp_path: Path) -> None:
    # No CUDA_VISIBLE_DEVICES: torch sees the machine's GPUs, which no file states. A default the environment may
    # override (${CUDA_VISIBLE_DEVICES:-...}) is not a statement either.
    bare = _vllm_launch(tmp_path / "a", LAUNCH.format(world=8, flags=""))
    defaulted = _vllm_launch(
        tmp_path / "b",
        "export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0,1,2,3}\n" + LAUNCH.format(world=4, flags=""),
    )
    # 0.16.0 and 0.17.0 keep vllm_device only as a deprecated, unread field (vLLM runs in `trl vllm-serve`)
    launch = "export CUDA_VISIBLE_DEVICES=4,5,6,7\n" + LAUNCH.format(world=4, flags="")
    later = [_vllm_launch(tmp_path / v, launch, v) for v in ("0.16.0", "0.17.0")]
    for report in (bare, defaulted, *later):
        assert "trl.vllm-device-available" not in {f.rule for f in report.errors + report.warnings + report.skipped}


def test_auto_vllm_device_without_the_world_size_is_skipped(tmp_path: Path) -> None:
    # 4 visible, but no --num_processes and no accelerate config: auto (cuda:W) has no index, so the rule cannot
    # run and says it needs the world size (not a pass)
    launch = "export CUDA_VISIBLE_DEVICES=0,1,2,3\naccelerate launch src/open_r1/grpo.py --config recipe.yaml\n"
    report = _vllm_launch(tmp_path, launch)
    assert "trl.vllm-device-available" not in {f.rule for f in report.errors + report.warnings}
    assert [s.needs for s in report.skipped if s.rule == "trl.vllm-device-available"] == ["the world size"]


def test_a_trl_vllm_serve_line_before_0_16_is_noted(tmp_path: Path) -> None:
    # trl/cli.py has the vllm-serve subcommand from v0.16.0 (0.15.2's CLI: chat, dpo, env, grpo, kto, sft), so a
    # project pinned to 0.15.2 gets argparse's "invalid choice" on that line: a warning, since 0.15's training runs
    # vLLM in-process and never waits for it. 0.16.0 has the command; vLLM's own `vllm serve` is no TRL command.
    serve = "CUDA_VISIBLE_DEVICES=7 {cmd} --model Qwen/Qwen2.5-1.5B-Instruct &\n"
    launch = LAUNCH.format(world=4, flags="")
    for version, cmd, noted in (
        ("0.15.2", "trl vllm-serve", True),
        ("0.16.0", "trl vllm-serve", False),
        ("0.15.2", "vllm serve", False),
    ):
        root = tmp_path / f"{version}-{cmd.replace(' ', '_')}"
        _vllm_launch(root, serve.format(cmd=cmd) + launch, version)
        explanation = translator.load(str(root / "run.sh"))
        found = [n for n in explanation.notes if n.code == "trl.vllm-serve-missing"]
        assert [(n.severity, n.message.startswith(f"{root / 'run.sh'}:2: ")) for n in found] == (
            [("warning", True)] if noted else []
        ), (version, cmd)
