"""OpenRLHF rule checks: every violation with its hand-derived expectation, the fix applied and re-checked.

Each expectation is derived in the comment above it from docs/frameworks/openrlhf.md (section numbers in
brackets) and train_ppo_ray.py of the release concerned. Configs are built from a dict of flags (as the
version's parser spells them) and rendered into a launch line, so a suggestion's changes can be applied to the
dict and checked again: a value None drops the flag, False leaves a switch off, True writes a bare switch.
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

# A valid GRPO run on one 8-GPU node, every model and 4 vLLM engines × TP 2 colocated [§10 #2, #14]:
# 128 prompts × 8 = 1024 samples; train batch 128 = 8 optimizer steps; 128 / (micro 4 × dp 8) = GA 4;
# 1024 // micro_rollout 8 = 128 experience batches ≥ 8 actors, 1024 % (8 × 8) = 0 (even shards).
DOTTED: dict[str, Any] = {
    "actor.num_nodes": 1,
    "actor.num_gpus_per_node": 8,
    "ref.num_nodes": 1,
    "ref.num_gpus_per_node": 8,
    "vllm.num_engines": 4,
    "vllm.tensor_parallel_size": 2,
    "train.colocate_all": True,
    "actor.model_name_or_path": "Qwen/Qwen2.5-7B",
    "reward.remote_url": "/openrlhf/reward_func.py",
    "algo.advantage.estimator": "group_norm",
    "algo.kl.init_coef": 0.001,
    "algo.kl.use_loss": True,
    "algo.kl.estimator": "k3",
    "rollout.batch_size": 128,
    "rollout.n_samples_per_prompt": 8,
    "train.batch_size": 128,
    "train.micro_batch_size": 4,
    "rollout.micro_batch_size": 8,
}
# The same run in the flat flags of ≤ 0.10.1 [§2].
FLAT: dict[str, Any] = {
    "actor_num_nodes": 1,
    "actor_num_gpus_per_node": 8,
    "ref_num_nodes": 1,
    "ref_num_gpus_per_node": 8,
    "vllm_num_engines": 4,
    "vllm_tensor_parallel_size": 2,
    "colocate_all_models": True,
    "pretrain": "Qwen/Qwen2.5-7B",
    "remote_rm_url": "/openrlhf/reward_func.py",
    "advantage_estimator": "group_norm",
    "init_kl_coef": 0.001,
    "use_kl_loss": True,
    "kl_estimator": "k3",
    "rollout_batch_size": 128,
    "n_samples_per_prompt": 8,
    "train_batch_size": 128,
    "micro_train_batch_size": 4,
    "micro_rollout_batch_size": 8,
}


def render(flags: dict[str, Any]) -> str:
    words = []
    for name, value in flags.items():
        if value is None or value is False:
            continue
        words.append(
            f"--{name}"
            if value is True
            else f"--{name} " + (" ".join(map(str, value)) if isinstance(value, list) else str(value))
        )
    return "python3 -m openrlhf.cli.train_ppo_ray " + " ".join(words) + "\n"


def check(flags: dict[str, Any], version: str) -> CheckReport:
    return translator.check(Source(render(flags), "launch.sh"), framework=f"openrlhf@{version}")


def config(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """base with changes; dots in keyword names are written as '__'."""
    flags = dict(base)
    flags.update({k.replace("__", "."): v for k, v in changes.items()})
    return flags


def the_finding(flags: dict[str, Any], version: str, rule: str, severity: str, message: str) -> Finding:
    return expect_finding(check(flags, version), rule, severity, message)


def assert_fixed(flags: dict[str, Any], version: str, rule: str, suggestion: Suggestion) -> None:
    """Applying the suggestion clears the rule and leaves no error at all."""
    assert_fixed_report(check({**flags, **suggestion.changes}, version), rule, suggestion)


def assert_every_fix_works(flags: dict[str, Any], version: str, finding: Finding) -> None:
    for suggestion in finding.suggestions:
        assert_fixed(flags, version, finding.rule, suggestion)


def test_the_base_configs_are_clean() -> None:
    for flags, version in ((DOTTED, "0.11.2"), (FLAT, "0.10.1")):
        report = check(flags, version)
        assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


# ------------------------------------------------------------------ errors


def test_train_batch_not_divisible_by_micro_times_dp_is_deepspeeds_error() -> None:
    # [§4, §6 row 35] GA = tbs·ring·tp // micro // world = 128 // 5 // 8 = 3; DeepSpeed asserts
    # 128 == 5 × 3 × 8 = 120 and stops with its own message.
    flags = config(DOTTED, train__micro_batch_size=5)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.train-batch-divisible",
        "error",
        "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
        "gradient_acc_step * world_size 128 != 5 * 3 * 8",
    )
    # Keep the train batch: 128 / 8 ranks = 16 samples per rank; the divisor of 16 nearest 5 is 4.
    # Keep micro 5: no multiple of 5 × 8 = 40 divides the 1024 samples; the nearest multiple of 40 is 120.
    assert [s.changes for s in finding.suggestions] == [{"train.micro_batch_size": 4}, {"train.batch_size": 120}]
    assert finding.keys[:2] == ["train.batch_size", "train.micro_batch_size"]
    assert_every_fix_works(flags, "0.11.2", finding)


def test_accumulation_of_zero_is_deepspeeds_other_error() -> None:
    # [§6 row 35] 16 // 4 // 8 = 0 accumulation steps: "Gradient accumulation steps: 0 has to be greater than 0".
    flags = config(FLAT, train_batch_size=16)
    finding = the_finding(
        flags,
        "0.10.1",
        "openrlhf.train-batch-divisible",
        "error",
        "Gradient accumulation steps: 0 has to be greater than 0",
    )
    # Flat spelling for 0.10.1; 16 / 8 = 2 per rank → micro 2 (the divisor of 2 nearest 4), or the multiple of
    # 4 × 8 = 32 that divides 1024 samples nearest 16 → 32.
    assert [s.changes for s in finding.suggestions] == [{"micro_train_batch_size": 2}, {"train_batch_size": 32}]
    assert_every_fix_works(flags, "0.10.1", finding)


def test_group_estimator_with_one_sample_per_prompt() -> None:
    # [§5.1, §6 row 5] group_norm's baseline is the group: n = 1 fails the assert
    # "group_norm requires n_samples_per_prompt > 1".
    flags = config(DOTTED, rollout__n_samples_per_prompt=1)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.group-estimator-needs-samples",
        "error",
        "group_norm requires n_samples_per_prompt > 1",
    )
    # n 2 keeps 128 prompts (256 samples = 2 train batches); REINFORCE++ needs no group.
    assert [s.changes for s in finding.suggestions] == [
        {"rollout.n_samples_per_prompt": 2},
        {"algo.advantage.estimator": "reinforce"},
    ]
    assert_every_fix_works(flags, "0.11.2", finding)


@pytest.mark.parametrize("version,asserted", [("0.10.4", False), ("0.11.0", True), ("0.11.2", True)])
def test_dr_grpo_joined_the_group_assert_in_0_11_0(version: str, asserted: bool) -> None:
    # [§6 row 5] 0.6.0–0.10.4 assert for rloo, reinforce_baseline and group_norm only; dr_grpo from 0.11.0.
    flags = config(DOTTED, algo__advantage__estimator="dr_grpo", rollout__n_samples_per_prompt=1)
    assert bool(findings_of(check(flags, version), "openrlhf.group-estimator-needs-samples")) == asserted


def test_colocate_all_needs_one_vllm_gpu_per_actor_gpu() -> None:
    # [§6 row 27] synchronous colocate_all: 1 × 8 actor GPUs ≠ 2 engines × TP 2 = 4.
    flags = config(DOTTED, vllm__num_engines=2)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.colocate-all-engine-gpus",
        "error",
        "actor_num_nodes * actor_num_gpus_per_node must be equal to vllm_num_engines * "
        "vllm_tensor_parallel_size, got 8 and 4",
    )
    # 8 / TP 2 = 4 engines, or 8 / 2 engines = TP 4.
    assert [s.changes for s in finding.suggestions] == [{"vllm.num_engines": 4}, {"vllm.tensor_parallel_size": 4}]
    assert_every_fix_works(flags, "0.11.2", finding)
    # Async training does not colocate vLLM [§3 resources], so the same sizes pass there.
    assert not findings_of(
        check(config(flags, train__async_enable=True), "0.11.2"), "openrlhf.colocate-all-engine-gpus"
    )


def test_colocated_reference_must_have_the_actors_size() -> None:
    # [§6 row 26] colocate_all with KL (init_coef 0.001 > 0) puts actor and ref in one placement group; the
    # actor has 1 × 4 GPUs while the ref keeps its default 1 × 8.
    flags = config(DOTTED, actor__num_gpus_per_node=4, vllm__num_engines=2)
    del flags["ref.num_nodes"], flags["ref.num_gpus_per_node"]
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.colocate-actor-ref-sizes",
        "error",
        "num_nodes and num_gpus_per_node must be the same when colocate actor and ref model.",
    )
    assert finding.values == {
        "actor.num_nodes": 1,
        "actor.num_gpus_per_node": 4,
        "ref.num_nodes": 1,
        "ref.num_gpus_per_node": 8,
    }
    assert finding.suggestions[0].changes == {"ref.num_nodes": 1, "ref.num_gpus_per_node": 4}
    assert_every_fix_works(flags, "0.11.2", finding)
    # Without KL no reference model is created [§5.2], so nothing is asserted.
    assert not findings_of(check(config(flags, algo__kl__init_coef=0), "0.11.2"), "openrlhf.colocate-actor-ref-sizes")


def test_fewer_experience_batches_than_actor_groups() -> None:
    # [§6 row 25] n × rbs // micro_rollout = 2 × 4 // 4 = 2 < 8 // 1 // 1 effective actors.
    # (train batch 8 with micro 1 keeps DeepSpeed happy: 8 / (1 × 8) = 1.)
    flags = config(
        DOTTED,
        rollout__batch_size=4,
        rollout__n_samples_per_prompt=2,
        rollout__micro_batch_size=4,
        train__batch_size=8,
        train__micro_batch_size=1,
    )
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.too-few-rollout-batches",
        "error",
        "The number of sample batches must be greater than or equal to the effective number of actor processes.",
    )
    # 8 samples for 8 actors: experience batches of 1.
    assert finding.suggestions[0].changes == {"rollout.micro_batch_size": 1}
    assert_every_fix_works(flags, "0.11.2", finding)


def test_flat_flag_in_a_dotted_release_is_an_argparse_error() -> None:
    # [§1 item 1, §12 item 1] 0.10.2 renamed every flag with no alias: 0.11.2's parser rejects --rollout_batch_size.
    flags = config(DOTTED)
    del flags["rollout.batch_size"]
    flags["rollout_batch_size"] = 128
    finding = the_finding(
        flags, "0.11.2", "openrlhf.flag-scheme", "error", "unrecognized arguments: --rollout_batch_size 128"
    )
    assert finding.keys == ["rollout_batch_size"]
    assert finding.suggestions[0].changes == {"rollout_batch_size": None, "rollout.batch_size": "128"}
    assert_every_fix_works(flags, "0.11.2", finding)


def test_dotted_flag_in_a_flat_release_is_an_argparse_error() -> None:
    # [§1 item 1] and the other way round: 0.10.1 knows only --train_batch_size.
    flags = config(FLAT)
    del flags["train_batch_size"]
    flags["train.batch_size"] = 128
    finding = the_finding(
        flags, "0.10.1", "openrlhf.flag-scheme", "error", "unrecognized arguments: --train.batch_size 128"
    )
    assert finding.suggestions[0].changes == {"train.batch_size": None, "train_batch_size": "128"}
    assert_every_fix_works(flags, "0.10.1", finding)


@pytest.mark.parametrize(
    "version,base,message",
    [
        # [§6 row 21] the assert's text named the flat flags until 0.10.3, one release after the rename.
        (
            "0.10.1",
            FLAT,
            (
                "--vllm_generate_batch_size > --rollout_batch_size requires --async_train (over-sampling "
                "needs async queue to buffer extra batches)."
            ),
        ),
        (
            "0.10.3",
            DOTTED,
            (
                "--vllm_generate_batch_size > --rollout_batch_size requires --async_train (over-sampling "
                "needs async queue to buffer extra batches)."
            ),
        ),
        (
            "0.11.2",
            DOTTED,
            (
                "--rollout.vllm_generate_batch_size > --rollout.batch_size requires --train.async_enable "
                "(over-sampling needs async queue to buffer extra batches)."
            ),
        ),
    ],
)
def test_oversampling_needs_async(version: str, base: dict[str, Any], message: str) -> None:
    # 256 prompts per vLLM call > 128 per step without async training.
    gen = "vllm_generate_batch_size" if base is FLAT else "rollout.vllm_generate_batch_size"
    flags = config(base, **{gen: 256})
    finding = the_finding(flags, version, "openrlhf.oversampling-needs-async", "error", message)
    assert finding.suggestions[1].changes == {gen: None}
    assert_every_fix_works(flags, version, finding)


def test_oversampling_is_not_checked_before_0_10_0() -> None:
    # [§6 row 21] "Added in 0.10.0; not checked in 0.8.1–0.9.x": in 0.9.1–0.9.10 the flag is read by nothing.
    flags = config(FLAT, vllm_generate_batch_size=256)
    report = check(flags, "0.9.10")
    assert not findings_of(report, "openrlhf.oversampling-needs-async")
    finding = the_finding(
        flags,
        "0.9.10",
        "openrlhf.generate-batch-ignored",
        "warning",
        "--vllm_generate_batch_size 256 is read by nothing in OpenRLHF 0.9.10: each step draws "
        "--rollout_batch_size 128 prompts",
    )
    assert_every_fix_works(flags, "0.9.10", finding)


def test_dynamic_filtering_needs_groups() -> None:
    # [§5.4, §6 row 24] REINFORCE++ with n = 1 and dynamic filtering: the filter needs a group's mean score.
    flags = config(
        DOTTED,
        algo__advantage__estimator="reinforce",
        rollout__n_samples_per_prompt=1,
        algo__dynamic_filtering_enable=True,
    )
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.dynamic-filtering-needs-samples",
        "error",
        "n_samples_per_prompt must be greater than 1 when using dynamic filtering",
    )
    assert [s.changes for s in finding.suggestions] == [
        {"rollout.n_samples_per_prompt": 2},
        {"algo.dynamic_filtering_enable": False},
    ]
    assert_every_fix_works(flags, "0.11.2", finding)


def test_dynamic_filtering_needs_a_scoring_function() -> None:
    # [§6 row 23] filtering on scores needs a remote reward or an agent; a reward model gives none.
    flags = config(
        DOTTED,
        algo__dynamic_filtering_enable=True,
        reward__remote_url=None,
        reward__model_name_or_path="OpenRLHF/Llama-3-8b-rm-700k",
    )
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.dynamic-filtering-needs-remote-reward",
        "error",
        "remote_rm_url or agent_func_path must be specified when using dynamic filtering",
    )
    assert_every_fix_works(flags, "0.11.2", finding)


@pytest.mark.parametrize(
    "version,message",
    [
        ("0.10.3", "--partial_rollout requires --async_train."),
        ("0.10.4", "--train.partial_rollout_enable requires --train.async_enable."),
    ],
)
def test_partial_rollout_needs_async(version: str, message: str) -> None:
    # [§6 row 17] partial rollouts continue in the async queue; the wording followed the rename in 0.10.4.
    flags = config(DOTTED, train__partial_rollout_enable=True)
    finding = the_finding(flags, version, "openrlhf.partial-rollout-needs-async", "error", message)
    assert_every_fix_works(flags, version, finding)


def test_no_vllm_engine_cannot_roll_out() -> None:
    # [§8 rule 5, §6 row 13] no --vllm.num_engines: with packing, the assert `args.vllm.num_engines > 0` compares
    # the flag's default None with 0, and Python's TypeError stops the run before the assert's own message
    # (train_ppo_ray.py 0.8.0–0.11.2; tests/test_oracle_openrlhf.py runs it). OpenRLHF has no other generator.
    flags = config(DOTTED, vllm__num_engines=None, ds__packing_samples=True)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.vllm-engines-required",
        "error",
        "'>' not supported between instances of 'NoneType' and 'int' (train_ppo_ray's packing check "
        "compares --vllm.num_engines, not set, with 0: packing needs vLLM engines)",
    )
    assert finding.suggestions[0].changes == {"vllm.num_engines": 4}  # 8 colocated GPUs / TP 2
    assert_every_fix_works(flags, "0.11.2", finding)


def test_deepspeed_tensor_parallel_needs_bf16_before_0_9_2() -> None:
    # [§6 row 29] 0.9.1 asserts `bf16` (a store_true flag, off by default) for AutoTP; dp = 8 / 2 = 4 and
    # 128 / (4 × 4) = 8 keeps DeepSpeed's batch check satisfied.
    flags = config(FLAT, ds_tensor_parallel_size=2)
    finding = the_finding(
        flags, "0.9.1", "openrlhf.tensor-parallel-needs-bf16", "error", "BF16 is required for tensor parallel training"
    )
    assert finding.suggestions[0].changes == {"bf16": True}
    assert_every_fix_works(flags, "0.9.1", finding)
    # From 0.9.2 --param_dtype defaults to bf16: no finding.
    assert not findings_of(check(flags, "0.9.2"), "openrlhf.tensor-parallel-needs-bf16")


@pytest.mark.parametrize(
    "version,base,message",
    [
        # train_ppo_ray.py's --advantage_estimator: choices=["gae", "reinforce", "rloo", "reinforce_baseline",
        # "group_norm", "dr_grpo"] at every tag v0.8.0–v0.11.0; 0.11.2 appends "flash_reinforce" [§5.1, §12]. argparse
        # (Python 3.11) stops with "argument --X: invalid choice: 'grpo' (choose from 'gae', ...)", each choice repr'd.
        (
            "0.10.1",
            FLAT,
            (
                "argument --advantage_estimator: invalid choice: 'grpo' (choose from 'gae', 'reinforce', "
                "'rloo', 'reinforce_baseline', 'group_norm', 'dr_grpo')"
            ),
        ),
        (
            "0.11.2",
            DOTTED,
            (
                "argument --algo.advantage.estimator: invalid choice: 'grpo' (choose from 'gae', "
                "'reinforce', 'rloo', 'reinforce_baseline', 'group_norm', 'dr_grpo', 'flash_reinforce')"
            ),
        ),
    ],
)
def test_an_estimator_outside_the_choices(version: str, base: dict[str, Any], message: str) -> None:
    key = "advantage_estimator" if base is FLAT else "algo.advantage.estimator"
    flags = config(base, **{key: "grpo"})
    finding = the_finding(flags, version, "openrlhf.invalid-estimator", "error", message)
    # GRPO is OpenRLHF's group_norm [§5.1]; n = 8 > 1 satisfies its group assert.
    assert finding.suggestions[0].changes == {key: "group_norm"}
    assert_every_fix_works(flags, version, finding)


def test_a_flag_of_neither_scheme() -> None:
    # [§1 item 1] --rollout.batch_sizes is no flag of 0.11.2 (nor of any flat release): argparse's parse_args stops with
    # "unrecognized arguments: --rollout.batch_sizes 128" (the words it could not place, as written).
    flags = config(DOTTED, rollout__batch_sizes=128)
    finding = the_finding(
        flags, "0.11.2", "openrlhf.unknown-flag", "error", "unrecognized arguments: --rollout.batch_sizes 128"
    )
    assert finding.keys == ["rollout.batch_sizes"]
    # --rollout.batch_size, the flag meant, is already written: the one fix drops the stray flag.
    assert [s.changes for s in finding.suggestions] == [{"rollout.batch_sizes": None}]
    assert_every_fix_works(flags, "0.11.2", finding)
    # A typo of a flag not yet written is also offered renamed: --rollout.temprature → --rollout.temperature.
    typo = config(DOTTED, rollout__temprature=0.7)
    finding = the_finding(
        typo, "0.11.2", "openrlhf.unknown-flag", "error", "unrecognized arguments: --rollout.temprature 0.7"
    )
    assert finding.suggestions[1].changes == {"rollout.temprature": None, "rollout.temperature": 0.7}
    assert_every_fix_works(typo, "0.11.2", finding)


@pytest.mark.parametrize(
    "version,base,key",
    [("0.10.1", FLAT, "dynamic_filtering_reward_range"), ("0.11.2", DOTTED, "algo.dynamic_filtering_range")],
)
def test_dynamic_filtering_range_reversed(version: str, base: dict[str, Any], key: str) -> None:
    # [§6 row 22] with dynamic filtering, train_ppo_ray first asserts range[0] < range[1], with the message naming
    # the wrong flag: "reward_clip_range[0] must be less than reward_clip_range[1]" (v0.8.3–0.11.2; 0.8.1's assert
    # compared --reward_clip_range itself).
    switch = "dynamic_filtering" if base is FLAT else "algo.dynamic_filtering_enable"
    flags = config(base, **{switch: True, key: [1, 0]})
    finding = the_finding(
        flags,
        version,
        "openrlhf.dynamic-filtering-range",
        "error",
        "reward_clip_range[0] must be less than reward_clip_range[1]",
    )
    # The same ends in order: 0 to 1 (the default); or no filtering.
    assert [s.changes for s in finding.suggestions] == [{key: [0, 1]}, {switch: False}]
    assert_every_fix_works(flags, version, finding)


@pytest.mark.parametrize(
    "version,message",
    [
        # train_ppo_ray.py `if args.eval_dataset: assert args.remote_rm_url, ...` (v0.8.0–v0.10.3; --agent_func_path
        # sets remote_rm_url = "agent" before it), reworded in v0.10.4 and again in v0.11.0 [§6 row 18].
        ("0.10.3", "`--eval_dataset` is only supported with `--remote_rm_url`."),
        ("0.10.4", "`--eval.dataset` requires `--reward.remote_url` or `--train.agent_func_path` (#1242)."),
        (
            "0.11.2",
            (
                "`--eval_dataset` requires either `--remote_rm_url` (for remote reward models) or `--agent_func_path` "
                "(for MultiTurnAgentExecutor workflows)."
            ),
        ),
    ],
)
def test_eval_dataset_without_a_remote_reward(version: str, message: str) -> None:
    # A reward model instead of a remote reward: evaluation has no scores.
    flags = config(
        DOTTED,
        eval__dataset="data/eval.jsonl",
        reward__remote_url=None,
        reward__model_name_or_path="OpenRLHF/Llama-3-8b-rm-700k",
    )
    finding = the_finding(flags, version, "openrlhf.eval-needs-remote-reward", "error", message)
    assert finding.suggestions[0].changes == {"eval.dataset": None}
    assert_every_fix_works(flags, version, finding)


def test_vlm_with_packing() -> None:
    # [§6 row 7] max_images_per_prompt > 0 (VLM, v0.10.0+) asserts `not args.ds.packing_samples` before ring
    # attention or dynamic batching could switch packing on.
    flags = config(DOTTED, data__max_images_per_prompt=1, ds__packing_samples=True)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.vlm-no-packing",
        "error",
        "VLM training does not support --packing_samples. Packing collapses the batch dimension, "
        "breaking alignment between image tokens and pixel_values. VLM models also require "
        "model-computed position_ids (e.g., M-RoPE) which is incompatible with packing.",
    )
    assert finding.suggestions[0].changes == {"ds.packing_samples": False}
    assert_every_fix_works(flags, "0.11.2", finding)
    # 0.9.10 has no VLM flag, and so no such check [CHANGES 0.10.0].
    assert not findings_of(check(config(FLAT, packing_samples=True), "0.9.10"), "openrlhf.vlm-no-packing")


def test_vlm_with_a_critic() -> None:
    # [§6 rows 4, 6] GAE keeps a critic (the actor's path, with a remote reward); VLM asserts it is None:
    # "VLM training does not support critic model. Use --advantage_estimator other than 'gae' (...)".
    flags = config(DOTTED, algo__advantage__estimator="gae", data__max_images_per_prompt=1)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.vlm-no-critic",
        "error",
        "VLM training does not support critic model. Use --advantage_estimator other than 'gae' "
        "(e.g., reinforce_baseline, rloo, group_norm).",
    )
    # n = 8: the first estimator the message names, reinforce_baseline (its group assert holds).
    assert finding.suggestions[0].changes == {"algo.advantage.estimator": "reinforce_baseline"}
    assert_every_fix_works(flags, "0.11.2", finding)


def test_is_correction_threshold_of_three() -> None:
    # [§5.5, §6 row 3] 0.11.2 takes --algo.advantage.is_correction_threshold with nargs="+", turns one value into
    # [0.0, HIGH] and asserts two: "--algo.advantage.is_correction_threshold takes HIGH or LOW HIGH".
    flags = config(DOTTED, algo__advantage__is_correction_threshold=[0.5, 2.0, 5.0])
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.is-correction-threshold",
        "error",
        "--algo.advantage.is_correction_threshold takes HIGH or LOW HIGH",
    )
    # Ratio gating (the default) takes LOW HIGH: the outer bounds 0.5 and 5 (also the default).
    assert [s.changes for s in finding.suggestions] == [
        {"algo.advantage.is_correction_threshold": [0.5, 5]},
        {"algo.advantage.is_correction_threshold": None},
    ]
    assert_every_fix_works(flags, "0.11.2", finding)


# ------------------------------------------------------------------ warnings


def test_rollout_not_a_whole_number_of_train_batches() -> None:
    # [§4, §12 item 5] 100 prompts × 4 = 400 samples, train batch 128: each rank gets 400 / 8 = 50 samples =
    # 12 micro-batches of 4; GA = 128 / 4 / 8 = 4 → 3 optimizer steps per epoch, the rest carried over.
    flags = config(DOTTED, rollout__batch_size=100, rollout__n_samples_per_prompt=4)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.rollout-not-whole-train-batches",
        "warning",
        "400 rollout samples (100 prompts × 4) are not a whole number of train batches of 128: "
        "OpenRLHF does not check this; each of the 8 ranks trains on 50 samples as 12 "
        "micro-batch(es) of 4, i.e. 3 optimizer step(s) of 4 micro-batches per epoch, and DeepSpeed "
        "carries the remainder into the next rollout step",
    )
    # No multiple of 4 × 8 = 32 divides 400; keeping train batch 128 and n 4 needs prompts in steps of 128 / 4 =
    # 32: 96 is nearest to 100.
    assert [s.changes for s in finding.suggestions] == [{"rollout.batch_size": 96}]
    assert_every_fix_works(flags, "0.11.2", finding)


def test_rollout_not_whole_train_batches_offers_both_ways() -> None:
    # 96 × 8 = 768 samples vs train batch 512 (1.5 steps). Multiples of 32 dividing 768 nearest 512: 384;
    # prompts in steps of 512 / gcd(512, 8) = 64 nearest 96: 64 and 128 tie, the larger first.
    flags = config(DOTTED, rollout__batch_size=96, train__batch_size=512)
    finding = findings_of(check(flags, "0.11.2"), "openrlhf.rollout-not-whole-train-batches")[0]
    assert [s.changes for s in finding.suggestions] == [{"train.batch_size": 384}, {"rollout.batch_size": 128}]
    assert_every_fix_works(flags, "0.11.2", finding)


def test_dynamic_batching_with_fewer_samples_than_a_train_batch_trains_nothing() -> None:
    # [§4] dynamic batching computes rbs·n // tbs = 1024 // 2048 = 0 optimizer steps.
    flags = config(DOTTED, train__dynamic_batch_enable=True, train__batch_size=2048)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.rollout-not-whole-train-batches",
        "warning",
        "1024 rollout samples (128 prompts × 8) are not a whole number of train batches of 2048: "
        "OpenRLHF does not check this; dynamic batching runs 1024 // 2048 = 0 optimizer step(s) "
        "per epoch, so nothing is trained",
    )
    assert finding.suggestions[0].changes == {"train.batch_size": 1024}
    assert_every_fix_works(flags, "0.11.2", finding)


def test_gamma_is_reset_for_group_estimators() -> None:
    # [§5.1, §6 row 33] experience_maker forces gamma 1.0 for rloo/reinforce_baseline/group_norm/dr_grpo.
    flags = config(DOTTED, algo__advantage__gamma=0.99)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.gamma-ignored",
        "warning",
        "gamma is set to 1.0 for rloo, reinforce_baseline, and group_norm "
        "(--algo.advantage.gamma 0.99 is replaced for group_norm)",
    )
    assert_every_fix_works(flags, "0.11.2", finding)
    # REINFORCE++ discounts with gamma: no finding.
    assert not findings_of(
        check(config(flags, algo__advantage__estimator="reinforce"), "0.11.2"), "openrlhf.gamma-ignored"
    )


def test_vllm_sleep_without_colocation_is_switched_off() -> None:
    # [§6 row 14] engines on GPUs of their own never sleep; OpenRLHF prints and disables the flag.
    flags = config(DOTTED, train__colocate_all=False, train__colocate_actor_ref=True, vllm__enable_sleep=True)
    finding = the_finding(
        flags,
        "0.11.2",
        "openrlhf.vllm-sleep-ignored",
        "warning",
        "Set args.vllm.enable_sleep to False when args.train.colocate_all is disabled.",
    )
    assert_every_fix_works(flags, "0.11.2", finding)


# ------------------------------------------------------------------ fixtures, JSON and the CLI


def fixture_report(name: str, **kwargs: Any) -> CheckReport:
    return translator.check(FIXTURES / "openrlhf" / name, **kwargs)


def test_every_fixture_runs_through_check() -> None:
    env = {"MODEL": "meta-llama/Meta-Llama-3-70B-Instruct", "REWARD_MODEL": "OpenRLHF/Llama-3-70b-rm"}
    for path in sorted((FIXTURES / "openrlhf").glob("*.sh")):
        report = translator.check(path, env=env)
        assert report.framework == "openrlhf"


def test_fixture_with_an_indivisible_train_batch() -> None:
    # fixtures/openrlhf/train_batch_indivisible_v0112.sh: 100 samples on 8 ranks × micro 4 (its expect file):
    # DeepSpeed asserts 100 == 4 × 3 × 8. The fix: the multiple of 32 dividing 96 × 4 = 384 nearest 100 → 96.
    # Its --rollout.temprature (a typo) is argparse's "unrecognized arguments" before that.
    report = fixture_report("train_batch_indivisible_v0112.sh", framework="openrlhf@0.11.2")
    assert [f.rule for f in report.errors] == ["openrlhf.unknown-flag", "openrlhf.train-batch-divisible"]
    assert report.errors[0].message == "unrecognized arguments: --rollout.temprature 0.7"
    assert report.errors[1].suggestions[0].changes == {"train.batch_size": 96}


def test_fixture_rounding_and_an_ignored_generate_batch() -> None:
    # fixtures/openrlhf/ds_tp_rounding_v0910.sh: 400 samples vs train batch 128 (floor), and
    # --vllm_generate_batch_size, read by nothing in 0.9.10.
    report = fixture_report("ds_tp_rounding_v0910.sh", framework="openrlhf@0.9.10")
    assert not report.errors
    assert {f.rule for f in report.warnings} == {
        "openrlhf.rollout-not-whole-train-batches",
        "openrlhf.generate-batch-ignored",
    }


@pytest.mark.parametrize(
    "name", ["grpo_group_norm_v0112.sh", "ppo_critic_colocated_v0101.sh", "reinforce_baseline_ring_dynamic_v0111.sh"]
)
def test_valid_fixtures_are_clean(name: str) -> None:
    report = fixture_report(name)
    assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


def test_cli_exit_codes_and_json_shape(tmp_path) -> None:  # type: ignore[no-untyped-def]
    clean = tmp_path / "clean.sh"
    clean.write_text(render(DOTTED))
    bad = tmp_path / "bad.sh"
    bad.write_text(render(config(DOTTED, train__micro_batch_size=5)))
    warned = tmp_path / "warned.sh"
    warned.write_text(render(config(DOTTED, rollout__batch_size=100, rollout__n_samples_per_prompt=4)))
    pin = ["--from", "openrlhf@0.11.2"]
    assert run("check", clean, *pin)[0] == 0
    assert run("check", warned, *pin)[0] == 0
    assert run("check", warned, *pin, "--strict")[0] == 1
    code, out, _ = run("check", bad, *pin, "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert {"framework", "version", "errors", "warnings"} <= set(document)
    assert (document["framework"], document["version"]) == ("openrlhf", "0.11.2")
    item = document["errors"][0]
    assert {"rule", "message", "keys", "values", "suggestions"} <= set(item)
    assert item["rule"] == "openrlhf.train-batch-divisible"
    assert item["suggestions"][0]["changes"] == {"train.micro_batch_size": 4}
    code, out, _ = run("check", bad, *pin)
    assert code == 1 and "error [openrlhf.train-batch-divisible]" in out and "fix: train.micro_batch_size=4" in out


# ------------------------------------------------------------------ releases before 0.8 (§6 rows 36–41, §13)
# The GRPO run of FLAT is valid in 0.6.4's flags too (use_kl_loss from 0.6.0, kl_estimator from 0.6.1). For 0.5.9
# (no group_norm, no KL loss): RLOO with KL in the reward.
EARLY: dict[str, Any] = dict(FLAT)
# 0.5.9 lowers vLLM's memory share ≥ 0.9 (its default is 0.9) under colocate_all_models: 0.5 keeps the base clean.
EARLY_059: dict[str, Any] = {
    **{k: v for k, v in FLAT.items() if k not in ("use_kl_loss", "kl_estimator")},
    "advantage_estimator": "rloo",
    "vllm_gpu_memory_utilization": 0.5,
}


def test_the_early_base_configs_are_clean() -> None:
    for flags, version in ((EARLY, "0.6.4"), (EARLY, "0.7.0"), (EARLY, "0.7.3"), (EARLY_059, "0.5.9")):
        report = check(flags, version)
        assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


def test_rollout_batch_not_divisible_by_the_actor_gpus() -> None:
    # [§6 row 36, §13] up to 0.7.0 each of the 8 ranks loads rollout_batch_size // 8 prompts; 0.5.6–0.7.0 assert
    # divisibility, in their words (with the typo): 100 % 8 ≠ 0.
    flags = {**EARLY, "rollout_batch_size": 100}
    finding = the_finding(
        flags,
        "0.6.4",
        "openrlhf.rollout-per-rank",
        "error",
        "rollout_bach_size must be divisible by actor_world_size, got 100 and 8",
    )
    # The multiple of 8 nearest 100: 96 and 104 are both 4 away; ties go to the larger → 104 (13 per rank).
    assert [s.changes for s in finding.suggestions] == [{"rollout_batch_size": 104}]
    assert_every_fix_works(flags, "0.6.4", finding)
    # From 0.7.1 one controller loads all prompts: no such assert.
    assert not findings_of(check(flags, "0.7.3"), "openrlhf.rollout-per-rank")


def test_rollout_batch_is_floored_per_rank_before_0_5_6() -> None:
    # [§13] 0.5.3 floors silently: 100 // 8 = 12 prompts per rank, 96 per step → a warning, not an error.
    flags = {**EARLY_059, "rollout_batch_size": 100}
    for name in ("colocate_all_models", "vllm_gpu_memory_utilization"):  # neither exists before 0.5.8
        del flags[name]
    flags.update({"vllm_num_engines": 2, "vllm_tensor_parallel_size": 1})
    finding = the_finding(
        flags,
        "0.5.3",
        "openrlhf.rollout-per-rank",
        "warning",
        "--rollout_batch_size 100 is not divisible by the 8 actor ranks: each rank loads 100 // 8 = "
        "12 prompts, 96 per step",
    )
    assert finding.suggestions[0].changes == {"rollout_batch_size": 104}


def test_actor_gpus_must_be_a_power_of_two_before_0_5_6() -> None:
    # [§6 row 37] 0.5.0–0.5.5 assert a power of 2: 6 GPUs → 4 (the power of 2 below), which 0.5.6 stopped asking.
    flags = {
        **EARLY_059,
        "actor_num_gpus_per_node": 6,
        "ref_num_gpus_per_node": 6,
        "rollout_batch_size": 96,
        "train_batch_size": 96,
        "vllm_num_engines": 2,
        "vllm_tensor_parallel_size": 1,
    }
    for name in ("colocate_all_models", "vllm_gpu_memory_utilization"):
        del flags[name]
    finding = the_finding(
        flags, "0.5.5", "openrlhf.actor-power-of-two", "error", "actor_world_size must be power of 2, got 6"
    )
    assert finding.suggestions[0].changes == {"actor_num_gpus_per_node": 4}
    assert not findings_of(check(flags, "0.5.6"), "openrlhf.actor-power-of-two")


def test_engines_do_not_divide_the_actor_gpus() -> None:
    # [§6 row 39] 0.5.6–0.5.9: actor GPUs % engines == 0; 8 % 3 ≠ 0 → the largest divisor of 8 up to 3: 2.
    flags = {**EARLY_059, "colocate_all_models": False, "vllm_num_engines": 3, "vllm_tensor_parallel_size": 1}
    finding = the_finding(
        flags,
        "0.5.9",
        "openrlhf.engines-divide-actor",
        "error",
        "actor_world_size must be divisible by vllm_num_engines, got 8 and 3",
    )
    assert [s.changes for s in finding.suggestions] == [{"vllm_num_engines": 2}]
    assert_every_fix_works(flags, "0.5.9", finding)
    # 0.6.0–0.7.0 also accept engines that are a multiple of the actor GPUs: 16 engines for 8 GPUs pass.
    many = {**EARLY, "colocate_all_models": False, "vllm_num_engines": 16, "vllm_tensor_parallel_size": 1}
    assert not findings_of(check(many, "0.6.4"), "openrlhf.engines-divide-actor")
    assert findings_of(
        check({**many, "advantage_estimator": "rloo", "use_kl_loss": None, "kl_estimator": None}, "0.5.9"),
        "openrlhf.engines-divide-actor",
    )


def test_critic_does_not_divide_the_actor_gpus() -> None:
    # [§6 row 40] up to 0.7.0, with a critic (GAE): 8 % 3 ≠ 0 → 2 critic GPUs (the largest divisor of 8 up to 3).
    flags = {
        **EARLY,
        "advantage_estimator": "gae",
        "critic_pretrain": "Qwen/Qwen2.5-7B",
        "critic_num_nodes": 1,
        "critic_num_gpus_per_node": 3,
        "colocate_all_models": False,
        "vllm_num_engines": 4,
    }
    finding = expect_finding(
        check(flags, "0.6.4"),
        "openrlhf.critic-divides-actor",
        "error",
        "actor_world_size must be divisible by critic_world_size, got 8 and 3",
    )
    assert finding.suggestions[0].changes == {"critic_num_nodes": 1, "critic_num_gpus_per_node": 2}


def test_rloo_with_one_sample_per_prompt() -> None:
    # [§6 row 5] 0.5.3–0.5.9 assert for rloo only, in other words.
    flags = {**EARLY_059, "n_samples_per_prompt": 1}
    finding = the_finding(
        flags, "0.5.9", "openrlhf.group-estimator-needs-samples", "error", "RLOO requires n_samples_per_prompt > 1"
    )
    assert_every_fix_works(flags, "0.5.9", finding)


def test_zero3_needs_vllm_up_to_0_7_0() -> None:
    # [§6 row 38] "ZeRO-3 is only supported when vLLM enabled" (0.5.0–0.7.0).
    flags = {**EARLY, "zero_stage": 3, "vllm_num_engines": 0, "colocate_all_models": False}
    assert findings_of(check(flags, "0.6.4"), "openrlhf.zero3-needs-vllm")
    assert not findings_of(check(flags, "0.7.3"), "openrlhf.zero3-needs-vllm")


def test_colocated_vllm_memory_is_lowered_in_0_5_8_to_0_6_0() -> None:
    # [§6 row 41] vllm_gpu_memory_utilization ≥ 0.9 becomes 0.4 under colocate_all_models (0.5.8–0.6.0).
    flags = {**EARLY_059, "vllm_gpu_memory_utilization": 0.9}
    finding = the_finding(
        flags,
        "0.5.9",
        "openrlhf.colocate-memory-forced",
        "warning",
        "Set args.vllm_gpu_memory_utilization to 0.4 for colocate_all_models!",
    )
    assert finding.suggestions[0].changes == {"vllm_gpu_memory_utilization": 0.4}
    assert not findings_of(check(flags, "0.6.4"), "openrlhf.colocate-memory-forced")


@pytest.mark.parametrize("version,asserted", [("0.7.1", False), ("0.7.2", True)])
def test_too_few_rollout_batches_is_asserted_from_0_7_2(version: str, asserted: bool) -> None:
    # [§6 row 25] 128 × 8 // 256 = 4 experience batches < 8 actors; the assert came with 0.7.2.
    flags = {**EARLY, "micro_rollout_batch_size": 256}
    assert bool(findings_of(check(flags, version), "openrlhf.too-few-rollout-batches")) == asserted


def test_without_vllm_engines_the_actor_generates_up_to_0_7_5() -> None:
    # [§3 resources, §13] up to 0.7.5 experience_maker falls back to HF generate on the actor; 0.6.4's _validate_args
    # compares the unset --vllm_num_engines (None) with 0 and stops with Python's TypeError; 0 is accepted.
    flags = {**EARLY, "vllm_num_engines": None, "vllm_tensor_parallel_size": None, "colocate_all_models": False}
    assert not check(flags, "0.7.3").errors
    finding = the_finding(
        flags,
        "0.6.4",
        "openrlhf.vllm-engines-required",
        "error",
        "'>' not supported between instances of 'NoneType' and 'int' (_validate_args compares "
        "--vllm_num_engines, not set, with 0; 0 generates with the actor)",
    )
    assert [s.changes for s in finding.suggestions] == [{"vllm_num_engines": 8}, {"vllm_num_engines": 0}]
    assert_every_fix_works(flags, "0.6.4", finding)
    spec = translator.load(
        Source(render({**flags, "vllm_num_engines": 0}), "launch.sh"), framework="openrlhf@0.6.4"
    ).spec
    assert spec.generation.rollout_backend == "hf" and spec.topology.rollout_gpus == 0


# ------------------------------------------------------------------ 0.4.x (§6 rows 43–44, §13 band 0)
# A PPO run of 0.4.x (GAE, a critic; no estimator flag): 8 actor GPUs with the reference on them, a critic of 8 with
# the reward model on it, 4 vLLM engines × TP 2. 0.4.0–0.4.4: rollout_batch_size 512 samples = 512 // (8 GPUs ×
# micro_rollout 8) = 8 loader batches per rank; train batch 128 = 4 micro × 4 accumulation × 8 ranks.
EARLY_04: dict[str, Any] = {
    "actor_num_nodes": 1,
    "actor_num_gpus_per_node": 8,
    "ref_num_nodes": 1,
    "ref_num_gpus_per_node": 8,
    "critic_num_nodes": 1,
    "critic_num_gpus_per_node": 8,
    "reward_num_nodes": 1,
    "reward_num_gpus_per_node": 8,
    "colocate_actor_ref": True,
    "colocate_critic_reward": True,
    "vllm_num_engines": 4,
    "vllm_tensor_parallel_size": 2,
    "pretrain": "OpenRLHF/Llama-3-8b-sft-mixture",
    "reward_pretrain": "OpenRLHF/Llama-3-8b-rm-mixture",
    "rollout_batch_size": 512,
    "n_samples_per_prompt": 1,
    "micro_rollout_batch_size": 8,
    "train_batch_size": 128,
    "micro_train_batch_size": 4,
}


@pytest.mark.parametrize("version", ["0.4.0", "0.4.3", "0.4.4", "0.4.5", "0.4.6"])
def test_the_0_4_base_config_is_clean(version: str) -> None:
    report = check(EARLY_04, version)
    assert not report.errors and not report.warnings, [f.message for f in report.errors + report.warnings]


def test_update_timesteps_of_zero_divides_by_zero_before_0_4_5() -> None:
    # [§6 row 43, §13] 0.4.3's fit: update_timesteps = 32 // (8 GPUs × 8) = 0, then `steps % 0` at the first batch.
    flags = {**EARLY_04, "rollout_batch_size": 32}
    finding = the_finding(
        flags,
        "0.4.3",
        "openrlhf.update-timesteps-zero",
        "error",
        "integer modulo by zero (fit: update_timesteps = --rollout_batch_size 32 // (8 actor GPUs × "
        "--micro_rollout_batch_size 8) = 0)",
    )
    # The positive multiple of 64 nearest 32 is 64 (1 batch per rank); or micro_rollout 32 // 8 = 4: 32 // 32 = 1.
    assert [s.changes for s in finding.suggestions] == [{"rollout_batch_size": 64}, {"micro_rollout_batch_size": 4}]
    # 0.4.5 loads 32 // 8 = 4 prompts per rank instead: no such division.
    assert not findings_of(check(flags, "0.4.5"), "openrlhf.update-timesteps-zero")


def test_rollout_batch_not_a_whole_number_of_loader_batches_before_0_4_5() -> None:
    # [§13] 600 // (8 × 8) = 9 loader batches per rank: 576 samples per step, 24 never trained on → a warning; the
    # multiple of 64 nearest 600 is 576 (24 away; 640 is 40 away).
    flags = {**EARLY_04, "rollout_batch_size": 600}
    finding = the_finding(
        flags,
        "0.4.3",
        "openrlhf.rollout-per-rank",
        "warning",
        "--rollout_batch_size 600 is not divisible by 8 actor GPUs × --micro_rollout_batch_size 8 = 64: each rank "
        "trains after 9 loader batch(es), 576 samples per step",
    )
    assert [s.changes for s in finding.suggestions] == [{"rollout_batch_size": 576}]
    # 576 samples = 4.5 train batches of 128: the floors of §4 still apply, reported by their own rule.
    assert findings_of(check(flags, "0.4.3"), "openrlhf.rollout-not-whole-train-batches")


def test_packing_needs_a_local_reward_model_in_0_4_4() -> None:
    # [§6 row 44] 0.4.4's __main__ refuses packing with a remote reward; 0.4.5 dropped that assert.
    flags = {**EARLY_04, "packing_samples": True, "flash_attn": True, "remote_rm_url": "http://rm:5000/get_reward"}
    flags["reward_pretrain"] = None
    finding = the_finding(
        flags,
        "0.4.4",
        "openrlhf.packing-needs-local-reward",
        "error",
        "Only support `--packing_samples` with local reward models.",
    )
    assert_every_fix_works(flags, "0.4.4", finding)
    assert not findings_of(check(flags, "0.4.5"), "openrlhf.packing-needs-local-reward")


def test_unset_engines_fail_the_main_blocks_comparison_in_0_4() -> None:
    # [§6 row 42] the __main__ block's `args.vllm_num_engines >= 1` meets None first (0.4.0–0.5.0).
    flags = {**EARLY_04, "vllm_num_engines": None, "vllm_tensor_parallel_size": None}
    finding = the_finding(
        flags,
        "0.4.3",
        "openrlhf.vllm-engines-required",
        "error",
        "'>=' not supported between instances of 'NoneType' and 'int' (train_ppo_ray's __main__ block compares "
        "--vllm_num_engines, not set, with 1; 0 generates with the actor)",
    )
    assert_every_fix_works(flags, "0.4.3", finding)


def test_engines_above_the_actor_gpus_from_0_4_6() -> None:
    # [§6 row 39] 0.4.6 and 0.5.0 assert actor GPUs ≥ engines: 16 engines for 8 GPUs → 8 (the largest divisor of 8
    # up to 16); 0.4.5 has no such assert.
    flags = {**EARLY_04, "vllm_num_engines": 16, "vllm_tensor_parallel_size": 1}
    finding = the_finding(
        flags,
        "0.4.6",
        "openrlhf.engines-divide-actor",
        "error",
        "actor_world_size must be greater than vllm_num_engines, got 8 and 16",
    )
    assert [s.changes for s in finding.suggestions] == [{"vllm_num_engines": 8}]
    assert not findings_of(check(flags, "0.4.5"), "openrlhf.engines-divide-actor")


def test_power_of_two_and_critic_asserts_in_0_4() -> None:
    # [§6 rows 37, 40] 0.4.x's _validate_args: 6 critic GPUs are no power of 2 and do not divide 8 actor GPUs; and
    # DeepSpeed's own check on the critic: 128 // 4 // 6 = 5 accumulation steps, 5 × 4 × 6 = 120 ≠ 128 (row 35).
    flags = {**EARLY_04, "colocate_critic_reward": False, "critic_num_gpus_per_node": 6}
    report = check(flags, "0.4.3")
    assert {f.rule for f in report.errors} == {
        "openrlhf.critic-power-of-two",
        "openrlhf.critic-divides-actor",
        "openrlhf.critic-train-batch-divisible",
    }
