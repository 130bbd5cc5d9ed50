"""Open-Instruct rule checks: every violation with its hand-derived expectation, the fix applied and re-checked.

Each expectation is derived in the comment above it from docs/frameworks/open-instruct.md (section numbers
in brackets) and the Open-Instruct source of the snapshot concerned (versions are snapshot dates). Configs are
built from a dict of flags and rendered into a launch line, so a suggestion's changes can be applied to the
dict and checked again: a value None drops the flag, booleans are written out (HfArgumentParser style).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import translator
from tests.conftest import FIXTURES, assert_fixed_report, expect_finding, findings_of
from tests.test_cli import run
from translator.checks import CheckReport, Finding, Suggestion
from translator.sources.files import Source

HEAD = "2026.08.20"
CLASSIC = "2025.12.31"
# A valid grpo_fast run at HEAD [§1, §8]: 32 prompts × 8 = 256 samples per step on 4 learners + 4 vLLM GPUs;
# pack 2048 ≥ 512 + 1024; 25,600 // 256 = 100 steps; one optimizer step per epoch (each rank has 64 samples,
# so at most 64 micro-batches ≥ num_mini_batches 1); ZeRO-3; KL index 2 (k3) with the reference policy.
FAST: dict[str, Any] = {
    "model_name_or_path": "Qwen/Qwen3-4B-Base",
    "dataset_mixer_list": ["ai2-adapt-dev/rlvr_gsm8k_zs", "1.0"],
    "num_unique_prompts_rollout": 32,
    "num_samples_per_prompt_rollout": 8,
    "num_mini_batches": 1,
    "per_device_train_batch_size": 1,
    "num_learners_per_node": [4],
    "vllm_num_engines": 4,
    "vllm_tensor_parallel_size": 1,
    "max_prompt_token_length": 512,
    "response_length": 1024,
    "pack_length": 2048,
    "total_episodes": 25600,
    "deepspeed_stage": 3,
    "beta": 0.01,
    "kl_estimator": 2,
    "apply_verifiable_reward": True,
}
# A valid legacy GRPO gtrl run [§7, §8 legacy pairs]: 4 prompts × 16 per learner × 12 learners; mini-batch
# 32 × 12 = 384 samples → num_mini_batches 768 / 384 = 2; micro 1 → 32 accumulation steps.
GTRL: dict[str, Any] = {
    "model_name_or_path": "allenai/OLMo-2-0425-1B-DPO",
    "actor_num_gpus_per_node": [4, 8],
    "local_rollout_batch_size": 4,
    "number_samples_per_prompt": 16,
    "local_mini_batch_size": 32,
    "per_device_train_batch_size": 1,
    "num_epochs": 1,
    "total_episodes": 2000000,
    "beta": 0.01,
    "kl_estimator": "kl3",
    "vllm_tensor_parallel_size": 4,
    "deepspeed_stage": 2,
}


def render(flags: dict[str, Any], program: str = "grpo_fast.py") -> str:
    words = []
    for name, value in flags.items():
        if value is None:
            continue
        text = " ".join(map(str, value)) if isinstance(value, list) else str(value)
        words.append(f"--{name} {text}")
    return f"python open_instruct/{program} " + " ".join(words) + "\n"


def program_of(flags: dict[str, Any]) -> str:
    return "grpo_vllm_thread_ray_gtrl.py" if "local_rollout_batch_size" in flags else "grpo_fast.py"


def check(flags: dict[str, Any], version: str) -> CheckReport:
    return translator.check(Source(render(flags, program_of(flags)), "run.sh"), framework=f"open-instruct@{version}")


def the_finding(flags: dict[str, Any], version: str, rule: str, severity: str, message: str) -> Finding:
    return expect_finding(check(flags, version), rule, severity, message)


def assert_fixed(flags: dict[str, Any], version: str, rule: str, suggestion: Suggestion) -> None:
    """Applying the suggestion clears the rule and leaves no error at all."""
    assert_fixed_report(check({**flags, **suggestion.changes}, version), rule, suggestion)


def assert_every_fix_works(flags: dict[str, Any], version: str, finding: Finding) -> None:
    for suggestion in finding.suggestions:
        assert_fixed(flags, version, finding.rule, suggestion)


def test_the_base_configs_are_clean() -> None:
    for flags, version in ((FAST, HEAD), ({**FAST, "kl_estimator": "kl3"}, "2025.11.15"), (GTRL, "2025.10.20")):
        report = check(flags, version)
        assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


# ------------------------------------------------------------------ grpo_fast errors


def test_pack_length_must_hold_prompt_and_response() -> None:
    # [§1.2] StreamingDataLoaderConfig asserts pack_length ≥ max_prompt_token_length + response_length:
    # 2048 < 512 + 2048 = 2560.
    flags = {**FAST, "response_length": 2048}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.pack-length",
        "error",
        "The `pack_length` needs to be greater than the sum of `max_prompt_token_length` and `response_length`!",
    )
    # Grow the row to 2560, or keep 2048 and cut responses to 2048 − 512 = 1536.
    assert [s.changes for s in finding.suggestions] == [{"pack_length": 2560}, {"response_length": 1536}]
    assert_every_fix_works(flags, HEAD, finding)


def test_zero_std_filter_with_one_sample_per_prompt() -> None:
    # [§1.2] filter_zero_std_samples defaults to True; with S = 1 every group's std is 0, so it raises.
    flags = {**FAST, "num_samples_per_prompt_rollout": 1}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.zero-std-filter-needs-group",
        "error",
        "`filter_zero_std_samples` cannot be True when `num_samples_per_prompt_rollout` is 1, as "
        "the reward standard deviation will always be 0, causing all samples to be filtered.",
    )
    # Groups of 2 keeping 32 prompts; groups of 2 of 16 prompts keeping 32 samples; or no filter.
    assert [s.changes for s in finding.suggestions] == [
        {"num_samples_per_prompt_rollout": 2},
        {"num_samples_per_prompt_rollout": 2, "num_unique_prompts_rollout": 16},
        {"filter_zero_std_samples": False},
    ]
    assert_every_fix_works(flags, HEAD, finding)


def test_active_sampling_needs_prompts_queued_ahead() -> None:
    # [§1.2] active_sampling asserts async_steps > 1 (refills need a second batch in flight).
    flags = {**FAST, "active_sampling": True, "async_steps": 1}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.active-sampling-async-steps",
        "error",
        "With active_sampling, you should set async_steps > 1 to account for filtering of the first "
        "batch. Otherwise, your generator only generates only one batch worth of prompts and a "
        "single filtered prompt will cause the trainer to stall waiting for more data  . ",
    )
    assert [s.changes for s in finding.suggestions] == [{"async_steps": 2}, {"active_sampling": False}]
    assert_every_fix_works(flags, HEAD, finding)


def test_active_sampling_needs_the_zero_std_filter() -> None:
    # [§1.2] "filter_zero_std_samples must be True when active_sampling is True."
    flags = {**FAST, "active_sampling": True, "filter_zero_std_samples": False}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.active-sampling-needs-filter",
        "error",
        "filter_zero_std_samples must be True when active_sampling is True. Active sampling "
        "requires filtering to work correctly.",
    )
    assert_every_fix_works(flags, HEAD, finding)


@pytest.mark.parametrize("version,rejected", [("2025.11.15", False), ("2025.12.01", True), (HEAD, True)])
def test_async_steps_zero(version: str, rejected: bool) -> None:
    # [§1.2] since PR #1220 (2025-11-21) async_steps < 1 raises; before, 0 meant synchronous training.
    flags = {**FAST, "async_steps": 0, "kl_estimator": 2 if version >= "2025.12.01" else "kl3"}
    if not rejected:
        assert not check(flags, version).errors
        return
    finding = the_finding(
        flags,
        version,
        "open-instruct.async-steps-positive",
        "error",
        "`async_steps` must be greater than 0. Fully synchronous training is not supported.",
    )
    assert finding.suggestions[0].changes == {"async_steps": 1}
    assert_every_fix_works(flags, version, finding)


@pytest.mark.parametrize(
    "version,message",
    [
        # [§1.2] CLASSIC asserted in Args.__post_init__ (no SP term); validate_configs since the SP commit (2026-01-07).
        (CLASSIC, "You must have at least as many samples as training GPUs (DP ranks) for distributed training!"),
        (
            HEAD,
            (
                "num_samples_per_prompt_rollout * num_unique_prompts_rollout must be greater than or equal to "
                "world_size // sequence_parallel_size to ensure we have a batch for each rank in distributed training."
            ),
        ),
    ],
)
def test_fewer_samples_than_learners(version: str, message: str) -> None:
    # 2 prompts × 4 = 8 samples for 8 + 8 = 16 learner ranks.
    flags = {
        **FAST,
        "num_unique_prompts_rollout": 2,
        "num_samples_per_prompt_rollout": 4,
        "num_learners_per_node": [8, 8],
        "vllm_num_engines": 2,
    }
    finding = the_finding(flags, version, "open-instruct.samples-per-rank", "error", message)
    # Keep groups of 4: ceil(16 / 4) = 4 prompts give 16 samples, one per rank.
    assert finding.suggestions[0].changes == {"num_unique_prompts_rollout": 4}
    assert_every_fix_works(flags, version, finding)


def test_sequence_parallel_needs_zero3() -> None:
    # [§1.2] GRPOExperimentConfig: sequence_parallel_size > 1 requires deepspeed_stage 3.
    flags = {**FAST, "sequence_parallel_size": 2, "deepspeed_stage": 2}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.sequence-parallel-needs-zero3",
        "error",
        "`sequence_parallel_size` > 1 requires `deepspeed_stage` to be 3!",
    )
    assert [s.changes for s in finding.suggestions] == [{"deepspeed_stage": 3}, {"sequence_parallel_size": 1}]
    assert_every_fix_works(flags, HEAD, finding)


def test_kl_penalty_without_a_reference_policy() -> None:
    # [§1.2] "When load_ref_policy=False, beta must be 0.0." with the value filled in.
    flags = {**FAST, "load_ref_policy": False}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.kl-without-reference",
        "error",
        "When load_ref_policy=False, beta must be 0.0. Got beta=0.01. Set --beta 0.0 or "
        "--load_ref_policy to use KL penalty.",
    )
    assert [s.changes for s in finding.suggestions] == [{"beta": 0.0}, {"load_ref_policy": True}]
    assert_every_fix_works(flags, HEAD, finding)


def test_single_gpu_mode_with_vllm_tensor_parallelism() -> None:
    # [§1 table, vllm_utils.create_vllm_engines since 2026-01-23] the engine shares the learner's GPU: TP 1 only.
    flags = {
        **FAST,
        "single_gpu_mode": True,
        "num_learners_per_node": [1],
        "vllm_num_engines": 1,
        "vllm_tensor_parallel_size": 2,
    }
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.single-gpu-tensor-parallel",
        "error",
        "tensor_parallel_size > 1 is not supported with single_gpu_mode",
    )
    assert_every_fix_works(flags, HEAD, finding)


@pytest.mark.parametrize(
    "version,value,message,fix",
    [
        # [§3.2] kl_estimator is Literal[0..3] since 2025-12-01 and Literal["kl1".."kl4"] before; HfArgumentParser
        # (argparse choices) rejects the other spelling. kl3 → 2 and 2 → kl3.
        (HEAD, "kl3", "argument --kl_estimator: invalid choice: 'kl3' (choose from 0, 1, 2, 3)", 2),
        (
            "2025.11.15",
            2,
            "argument --kl_estimator: invalid choice: '2' (choose from 'kl1', 'kl2', 'kl3', 'kl4')",
            "kl3",
        ),
    ],
)
def test_kl_estimator_spelling_of_the_other_era(version: str, value: Any, message: str, fix: Any) -> None:
    flags = {**FAST, "kl_estimator": value}
    finding = the_finding(flags, version, "open-instruct.kl-estimator-choice", "error", message)
    assert finding.suggestions[0].changes == {"kl_estimator": fix}
    assert_every_fix_works(flags, version, finding)


def test_more_mini_batches_than_micro_batches_crashed_before_rounding() -> None:
    # [§3 step 5] until 2025-06-10 accumulation_steps = micro-batches // num_mini_batches: 2 prompts × 4 =
    # 8 samples on 4 ranks = at most 2 rows each, // 4 = 0 → `(local_step + 1) % 0` raises.
    flags = {
        **FAST,
        "num_unique_prompts_rollout": 2,
        "num_samples_per_prompt_rollout": 4,
        "num_mini_batches": 4,
        "vllm_num_engines": 2,
        "kl_estimator": "kl3",
    }
    finding = the_finding(
        flags,
        "2025.06.02",
        "open-instruct.num-mini-batches-too-large",
        "error",
        "ZeroDivisionError: integer modulo by zero — each rank has at most 2 micro-batch(es) "
        "(8 samples ÷ 4 ranks in rows of 1), so accumulation_steps = micro-batches // "
        "num_mini_batches 4 = 0",
    )
    # 2 optimizer steps per epoch; or ceil(4 × 1 × 4 / 4) = 4 prompts → 16 samples, 4 rows per rank.
    assert [s.changes for s in finding.suggestions] == [{"num_mini_batches": 2}, {"num_unique_prompts_rollout": 4}]
    assert_every_fix_works(flags, "2025.06.02", finding)
    # Since the rounding (max(ceil(n / mini − 0.5), 1)) the run trains, with fewer steps than the LR schedule
    # counts: a warning.
    head = {**flags, "kl_estimator": 2}
    finding = the_finding(
        head,
        HEAD,
        "open-instruct.num-mini-batches-too-large",
        "warning",
        "num_mini_batches 4 is more than the at most 2 micro-batch(es) each rank gets (8 samples "
        "÷ 4 ranks in rows of 1): accumulation is 1 and each epoch makes at most 2 optimizer "
        "step(s), while the LR schedule counts 4",
    )
    assert_every_fix_works(head, HEAD, finding)


def test_group_of_one_was_an_error_in_the_first_grpo_fast() -> None:
    # [reference §1.2; INITIAL 7dba4c9e2] "Number of samples per prompt must be greater than 1 for GRPO!"
    flags = {**FAST, "num_samples_per_prompt_rollout": 1, "kl_estimator": "kl3"}
    finding = the_finding(
        flags,
        "2025.03.13",
        "open-instruct.group-size",
        "error",
        "Number of samples per prompt must be greater than 1 for GRPO!",
    )
    assert_every_fix_works(flags, "2025.03.13", finding)


# ------------------------------------------------------------------ legacy gtrl errors


def test_gtrl_mini_batch_must_be_a_multiple_of_the_micro_batch() -> None:
    # [§7.2] exact_div(local_mini_batch_size 30, per_device_train_batch_size 4) raises with its message.
    flags = {
        **GTRL,
        "local_mini_batch_size": 30,
        "per_device_train_batch_size": 4,
        "local_rollout_batch_size": 15,
        "number_samples_per_prompt": 4,
    }
    finding = the_finding(
        flags,
        "2025.10.20",
        "open-instruct.gtrl-mini-batch-divisible",
        "error",
        "`local_mini_batch_size` must be a multiple of `per_device_train_batch_size`, inexact division: 30 / 4 = 7.5",
    )
    # Divisors of 30 nearest 4: 3 and 5 tie, the larger first → micro 5; or a multiple of 4 dividing the
    # 15 × 4 = 60 samples per learner nearest 30 → 20 (60 = 3 × 20).
    assert [s.changes for s in finding.suggestions] == [
        {"per_device_train_batch_size": 5},
        {"local_mini_batch_size": 20},
    ]
    assert_every_fix_works(flags, "2025.10.20", finding)


def test_gtrl_rollout_must_be_whole_mini_batches() -> None:
    # [§7.1] since 2025-02-11 num_mini_batches = exact_div(rollout 4 × 12 × 16 = 768, mini 48 × 12 = 576),
    # called without a message of its own.
    flags = {**GTRL, "local_mini_batch_size": 48}
    finding = the_finding(
        flags,
        "2025.10.20",
        "open-instruct.gtrl-rollout-divisible",
        "error",
        ", inexact division: 768 / 576 = 1.3333333333333333",
    )
    # Divisors of 64 samples per learner nearest 48: 32 and 64 tie → 64; or prompts in steps of 48 / gcd(48, 16)
    # = 3 nearest 4 → 3 (3 × 16 = 48).
    assert [s.changes for s in finding.suggestions] == [{"local_mini_batch_size": 64}, {"local_rollout_batch_size": 3}]
    assert_every_fix_works(flags, "2025.10.20", finding)
    # Before 2025-02-11 the last chunk was just partial: no error.
    assert not findings_of(check(flags, "2025.01.22"), "open-instruct.gtrl-rollout-divisible")


# ------------------------------------------------------------------ warnings


def test_group_of_one_reduces_grpo_to_reinforce() -> None:
    # [§1.2] with the zero-std filter off, S = 1 is accepted with "This reduces GRPO to REINFORCE.".
    flags = {**FAST, "num_samples_per_prompt_rollout": 1, "filter_zero_std_samples": False}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.group-of-one",
        "warning",
        "num_samples_per_prompt_rollout is 1. This reduces GRPO to REINFORCE.",
    )
    assert_every_fix_works(flags, HEAD, finding)


def test_kl_estimator_index_3_is_the_renumbering_trap() -> None:
    # [§3.2, §9.7] index 3 is ratio·d (the old kl4); the old kl3 is 2.
    flags = {**FAST, "kl_estimator": 3}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.kl-estimator-renumbered",
        "warning",
        "kl_estimator 3 is ratio × d (the old kl4), not the old kl3: since 2025-12-01 the old kl3 "
        "(expm1(-d) + d, k3) is 2; a script converted from 'kl3' to 3 computes another KL",
    )
    assert finding.suggestions[0].changes == {"kl_estimator": 2}
    assert_every_fix_works(flags, HEAD, finding)


def test_gradient_accumulation_steps_is_accepted_but_ignored() -> None:
    # [§1 table] the DeepSpeed config hard-codes gradient_accumulation_steps 1.
    flags = {**FAST, "gradient_accumulation_steps": 4}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.ignored-flag",
        "warning",
        "--gradient_accumulation_steps 4 is accepted but ignored: the DeepSpeed config hard-codes "
        "gradient_accumulation_steps 1 and grpo_fast derives its accumulation from num_mini_batches",
    )
    assert finding.suggestions[0].changes == {"gradient_accumulation_steps": None}
    assert_every_fix_works(flags, HEAD, finding)


def test_fewer_prompts_than_vllm_engines() -> None:
    # [§1.2 validate_configs] 2 prompts < 4 engines: a warning, not an error.
    flags = {**FAST, "num_unique_prompts_rollout": 2}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.engines-exceed-prompts",
        "warning",
        "With num_unique_prompts_rollout=2 < vllm_num_engines=4, vllm will be generating data for "
        "multiple batches simultaneously. This is fine but might be unexpected behaviour.",
    )
    assert [s.changes for s in finding.suggestions] == [{"num_unique_prompts_rollout": 4}, {"vllm_num_engines": 2}]
    assert_every_fix_works(flags, HEAD, finding)


def test_total_episodes_below_one_step_trains_nothing() -> None:
    # [§1.1] num_training_steps = 100 // 256 = 0.
    flags = {**FAST, "total_episodes": 100}
    finding = the_finding(
        flags,
        HEAD,
        "open-instruct.no-training-steps",
        "warning",
        "total_episodes 100 is less than one training step of 256 samples: num_training_steps = "
        "100 // 256 = 0 and nothing is trained",
    )
    assert_every_fix_works(flags, HEAD, finding)


def test_zero2_discarded_gradients_before_the_fix() -> None:
    # [§9.2] before 2026-02-26 ZeRO-2 kept only the last backward of each accumulation group; 64 samples per
    # rank can make up to 64 micro-batches for one optimizer step.
    flags = {**FAST, "deepspeed_stage": 2}
    finding = the_finding(
        flags,
        CLASSIC,
        "open-instruct.zero2-discarded-gradients",
        "warning",
        "deepspeed_stage 2 before 2026-02-26: every backward() is an accumulation boundary, so only "
        "the last micro-batch's gradient of each optimizer step survives; the rest are discarded",
    )
    assert_every_fix_works(flags, CLASSIC, finding)
    assert not findings_of(check(flags, HEAD), "open-instruct.zero2-discarded-gradients")


def test_warm_up_steps_lose_to_a_positive_warmup_ratio() -> None:
    # [§5] a positive warmup_ratio takes precedence over warm_up_steps (CLASSIC still has both flags).
    flags = {**FAST, "warm_up_steps": 10, "warmup_ratio": 0.1}
    finding = the_finding(
        flags,
        CLASSIC,
        "open-instruct.warmup-steps-ignored",
        "warning",
        "warm_up_steps 10 is ignored: warmup_ratio 0.1 takes precedence",
    )
    assert_every_fix_works(flags, CLASSIC, finding)


# ------------------------------------------------------------------ fixtures, JSON and the CLI


def test_every_fixture_runs_through_check() -> None:
    for path in sorted((FIXTURES / "open-instruct").glob("*.sh")):
        report = translator.check(path, env={"RANDOM": "42"})
        assert report.framework == "open-instruct"


def test_fixture_with_active_sampling_and_one_async_step() -> None:
    # fixtures/open-instruct/olmo3_32b_instruct_kl3_stale.sh (2025.11.15): --active_sampling with async_steps at
    # that snapshot's default 1 fails the assert; the fix is async_steps 2.
    # The fixture's --beaker_eval_freq is no flag of grpo_fast.py: parse_args_into_dataclasses() (no remaining
    # strings allowed) raises on it, so it is an error of its own.
    report = translator.check(FIXTURES / "open-instruct" / "olmo3_32b_instruct_kl3_stale.sh")
    assert sorted(f.rule for f in report.errors) == [
        "open-instruct.active-sampling-async-steps",
        "open-instruct.unknown-key",
    ]
    active = next(f for f in report.errors if f.rule == "open-instruct.active-sampling-async-steps")
    assert active.suggestions[0].changes == {"async_steps": 2}


def test_fixture_with_the_kl_index_3() -> None:
    # fixtures/open-instruct/olmo2_1b_classic_kl_index3.sh: the maintainers' translation kl3 → 3 (§9.7), ZeRO-2
    # before the fix, and the always-on --gradient_checkpointing.
    report = translator.check(
        FIXTURES / "open-instruct" / "olmo2_1b_classic_kl_index3.sh", framework="open-instruct@2026.01.17"
    )
    assert not report.errors
    assert {f.rule for f in report.warnings} == {
        "open-instruct.kl-estimator-renumbered",
        "open-instruct.zero2-discarded-gradients",
        "open-instruct.ignored-flag",
    }


@pytest.mark.parametrize(
    "name", ["debug_single_gpu_uv.sh", "qwen3_dapo_uv_async.sh", "olmo2_1b_grpo_gtrl.sh", "tulu3_8b_ppo_gtrl.sh"]
)
def test_valid_fixtures_are_clean(name: str) -> None:
    report = translator.check(FIXTURES / "open-instruct" / name)
    assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


def test_cli_exit_codes_and_json_shape(tmp_path) -> None:  # type: ignore[no-untyped-def]
    clean, bad, warned = tmp_path / "clean.sh", tmp_path / "bad.sh", tmp_path / "warned.sh"
    clean.write_text(render(FAST))
    bad.write_text(render({**FAST, "response_length": 2048}))
    warned.write_text(render({**FAST, "kl_estimator": 3}))
    pin = ["--from", f"open-instruct@{HEAD}"]
    assert run("check", clean, *pin)[0] == 0
    assert run("check", warned, *pin)[0] == 0
    assert run("check", warned, *pin, "--strict")[0] == 1
    code, out, _ = run("check", bad, *pin, "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert {"framework", "version", "errors", "warnings"} <= set(document)
    assert (document["framework"], document["version"]) == ("open-instruct", HEAD)
    item = document["errors"][0]
    assert {"rule", "message", "keys", "values", "suggestions"} <= set(item)
    assert item["rule"] == "open-instruct.pack-length"
    assert item["values"] == {"pack_length": 2048, "max_prompt_token_length": 512, "response_length": 2048}
    assert item["suggestions"][0]["changes"] == {"pack_length": 2560}
