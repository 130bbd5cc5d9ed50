"""OpenRLHF: units, flag schemes and eras, algorithm mapping, silent rounding, the writer, bad input, round trips.

Every expected number is derived by hand in the comment above it from docs/frameworks/openrlhf.md
(section numbers in brackets) and OpenRLHF's train_ppo_ray.py of the release concerned.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import translator
from tests.conftest import CASES, FIXTURES, Case, case_id, differing, noted
from tests.test_cli import assert_input_error, run
from translator.dialects.base import at_least
from translator.errors import ConfigError
from translator.frameworks.openrlhf.dialect import defaults_for, flag_exists, spelled
from translator.frameworks.openrlhf.tables import ALL_DOTTED, ALL_FLAT, DOTTED_TO_FLAT, FLAT_TO_DOTTED, VERSIONS
from translator.sources.files import Source

HEAD = 'ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray \\\n'


def read(flags: str, version: str | None = None, **kwargs):
    """Explain a launch line made of HEAD + ``flags`` (one string of flags)."""
    framework = f"openrlhf@{version}" if version else "openrlhf"
    return translator.load(Source(HEAD + flags + "\n", "launch.sh"), framework=framework, **kwargs)


def codes(explanation) -> set[str]:
    return {n.code for n in explanation.notes}


def notes_with(explanation, code: str) -> list:
    return [n for n in explanation.notes if n.code == code]


# ------------------------------------------------------------------ units [§1 item 2, §3, §4]


def test_rollout_batch_counts_prompts_and_train_batch_counts_samples() -> None:
    # rollout.batch_size 64 prompts × n 8 = 512 samples per step; train.batch_size 256 samples per optimizer
    # step → 512 / 256 = 2 optimizer steps. dp = 8 GPUs; GA = 256 // micro 4 // 8 = 8.
    plan = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all "
        "--rollout.batch_size 64 --rollout.n_samples_per_prompt 8 --train.batch_size 256 "
        "--train.micro_batch_size 4 --rollout.micro_batch_size 4 --algo.advantage.estimator group_norm"
    ).plan
    assert (plan["prompts_per_step"], plan["samples_per_step"], plan["samples_per_optimizer_step"]) == (64, 512, 256)
    assert (plan["optimizer_steps_per_step"], plan["grad_accum_steps"]) == (2, 8)


def test_max_epochs_multiplies_the_optimizer_steps_of_one_rollout() -> None:
    # max_epochs 3 passes over the replay buffer [§3 train.max_epochs]: 3 × 1024 / 128 = 24 optimizer steps.
    plan = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 "
        "--rollout.n_samples_per_prompt 8 --train.batch_size 128 --train.micro_batch_size 2 "
        "--rollout.micro_batch_size 2 --train.max_epochs 3 --algo.advantage.estimator group_norm"
    ).plan
    assert (plan["epochs_per_step"], plan["optimizer_steps_per_step"], plan["grad_accum_steps"]) == (3, 24, 8)


@pytest.mark.parametrize(
    "ring,tp,dp,accumulation",
    [
        (1, 1, 16, 2),  # 16 GPUs: 128 // 4 // 16 = 2
        (2, 1, 8, 4),  # ring attention 2 divides DP: 16 / 2 = 8 → 128 // 4 // 8 = 4
        (1, 2, 8, 4),  # DeepSpeed AutoTP 2 likewise
        (2, 2, 4, 8),  # both: 16 / 4 = 4 → 128 // 4 // 4 = 8
    ],
)
def test_ring_attention_and_deepspeed_tp_divide_the_data_parallel_ranks(
    ring: int, tp: int, dp: int, accumulation: int
) -> None:
    # [§3 resources] dp = nodes × gpus // ring // tp; GA = tbs·ring·tp // micro // world = tbs // micro // dp.
    explanation = read(
        f"--actor.num_nodes 2 --actor.num_gpus_per_node 8 --ds.ring_attn_size {ring} "
        f"--ds.tensor_parallel_size {tp} --vllm.num_engines 8 --vllm.tensor_parallel_size 2 "
        "--train.colocate_all --rollout.batch_size 128 --train.batch_size 128 "
        "--train.micro_batch_size 4 --rollout.micro_batch_size 4"
    )
    assert explanation.plan["data_parallel_size"] == dp
    assert explanation.plan["grad_accum_steps"] == accumulation
    assert explanation.spec.topology.training_gpus == 16
    assert (explanation.spec.topology.sequence_parallel_size, explanation.spec.topology.tensor_parallel_size) == (
        ring,
        tp,
    )


def test_micro_batch_defaults_changed_in_0_10_0() -> None:
    # [§2 table, §12 item 9] micro_train_batch_size 4 / micro_rollout 8 up to 0.9.10, 1 / 1 from 0.10.0.
    # 8 GPUs, train_batch_size 128: GA = 128 // 4 // 8 = 4 in 0.9.10, 128 // 1 // 8 = 16 in 0.10.0.
    flags = "--vllm_num_engines 8 --colocate_all_models --rollout_batch_size 128 --train_batch_size 128"
    old, new = read(flags, "0.9.10"), read(flags, "0.10.0")
    assert (old.plan["micro_batch_per_device"], old.plan["grad_accum_steps"]) == (4, 4)
    assert (new.plan["micro_batch_per_device"], new.plan["grad_accum_steps"]) == (1, 16)
    assert old.spec.generation.logprob_micro_batch_per_device == 8
    assert new.spec.generation.logprob_micro_batch_per_device == 1


def test_defaults_when_nothing_batch_related_is_set() -> None:
    # [§2 defaults, 0.11.2] rollout.batch_size 1024, n 1, train.batch_size 128, micro 1, 1 × 8 actor GPUs:
    # 1024 samples / 128 = 8 optimizer steps; GA = 128 // 1 // 8 = 16.
    plan = read("--vllm.num_engines 8 --train.colocate_all").plan
    assert plan == {
        "prompts_per_step": 1024,
        "samples_per_prompt": 1,
        "samples_per_step": 1024,
        "samples_per_optimizer_step": 128,
        "optimizer_steps_per_step": 8,
        "epochs_per_step": 1,
        "data_parallel_size": 8,
        "micro_batch_per_device": 1,
        "grad_accum_steps": 16,
        "total_steps": None,
    }


def test_run_length_is_dataset_passes_never_steps() -> None:
    # [§3 train.num_episodes, brief] num_episodes counts passes over the prompts; data.max_samples counts
    # prompts but the dataset may be smaller, so the number of steps stays unknown.
    explanation = read("--vllm.num_engines 8 --train.colocate_all --train.num_episodes 5 --data.max_samples 2048")
    assert explanation.spec.run_length.dataset_passes == 5
    assert explanation.plan["total_steps"] is None
    assert explanation.spec.data.max_train_prompts == 2048  # a cap on the prompts read, hence on the run


# ------------------------------------------------------------------ silent rounding [§4, §6 row 35, §12 item 5]


def test_rollout_not_a_whole_number_of_train_batches_is_floored() -> None:
    # 8 GPUs, 96 prompts × 10 = 960 samples, train batch 256, micro 4: GA = 256 // 4 // 8 = 8.
    # Each rank: 960 / 8 = 120 samples = 30 micro-batches → 30 / 8 = 3.75 optimizer steps per rollout: three
    # full steps, and DeepSpeed carries the 30 − 3 × 8 = 6 left-over micro-batches into the next rollout's
    # first step. (Here the floored count equals 960 / 256; the next test shows where they differ.)
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 96 "
        "--rollout.n_samples_per_prompt 10 --train.batch_size 256 --train.micro_batch_size 4 "
        "--rollout.micro_batch_size 4 --algo.advantage.estimator group_norm"
    )
    assert explanation.plan["optimizer_steps_per_step"] == 3.75
    [note] = notes_with(explanation, "batch.floor-division")
    assert "30 micro-batches of 4" in note.message and "6 left-over" in note.message


def test_drop_last_makes_the_floored_count_differ_from_the_ratio() -> None:
    # 4 GPUs, 100 prompts × 3 = 300 samples, train batch 64, micro 8: GA = 64 // 8 // 4 = 2.
    # Each rank: 300 / 4 = 75 samples → 75 // 8 = 9 micro-batches (drop_last drops 3) → 9 / 2 = 4.5 optimizer
    # steps per rollout, where 300 / 64 = 4.6875 would be the unrounded ratio.
    explanation = read(
        "--actor.num_gpus_per_node 4 --vllm.num_engines 4 --train.colocate_all "
        "--rollout.batch_size 100 --rollout.n_samples_per_prompt 3 --train.batch_size 64 "
        "--train.micro_batch_size 8 --rollout.micro_batch_size 3 "
        "--algo.advantage.estimator group_norm"
    )
    assert explanation.plan["optimizer_steps_per_step"] == 4.5
    [note] = notes_with(explanation, "batch.floor-division")
    assert "drop_last drops 3" in note.message


def test_train_batch_not_divisible_by_micro_times_dp_is_a_deepspeed_error() -> None:
    # 8 GPUs, train batch 100, micro 4: OpenRLHF floors GA = 100 // 4 // 8 = 3 (96 samples) and DeepSpeed's
    # _batch_assertion then stops: 100 != 4 * 3 * 8.
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 100 --train.batch_size 100 "
        "--train.micro_batch_size 4 --algo.advantage.estimator group_norm "
        "--rollout.n_samples_per_prompt 2",
        "0.11.2",
    )
    [note] = notes_with(explanation, "batch.indivisible")
    assert note.severity == "error"
    assert "100 // 4 // 8 = 3" in note.message and "100 != 4 * 3 * 8" in note.message
    assert explanation.plan["grad_accum_steps"] == 3


def test_train_batch_smaller_than_micro_times_dp_gives_no_accumulation() -> None:
    # 8 GPUs, train batch 16, micro 4: 16 // 4 // 8 = 0 → DeepSpeed: "Gradient accumulation steps: 0 ...".
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --train.batch_size 16 --train.micro_batch_size 4 "
        "--algo.advantage.estimator reinforce"
    )
    [note] = notes_with(explanation, "batch.indivisible")
    assert "Gradient accumulation steps: 0" in note.message
    assert explanation.plan["grad_accum_steps"] is None and explanation.plan["optimizer_steps_per_step"] is None


def test_dynamic_batch_floors_per_rank_batch_and_steps() -> None:
    # [§3 train.batch_size, replay_buffer.setup_dynamic_batch] 8 GPUs, train batch 1000: each rank takes
    # 1000 // 8 = 125 samples per optimizer step (1000 in all); 256 prompts × 8 = 2048 samples →
    # 2048 // 1000 = 2 optimizer steps, the last 48 samples are not trained on.
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --train.dynamic_batch_enable "
        "--rollout.batch_size 256 --rollout.n_samples_per_prompt 8 --train.batch_size 1000 "
        "--algo.advantage.estimator group_norm"
    )
    plan = explanation.plan
    assert (plan["samples_per_optimizer_step"], plan["optimizer_steps_per_step"]) == (1000, 2)
    assert plan["micro_batch_per_device"] is None and plan["grad_accum_steps"] is None
    assert explanation.spec.token_budget.max_tokens_per_device == 16192  # the real default, not 16384
    messages = " ".join(n.message for n in notes_with(explanation, "batch.floor-division"))
    assert "2048 // 1000 = 2" in messages and "48 samples untrained" in messages
    assert "batch.token-budget" in codes(explanation)


def test_dynamic_batch_with_train_batch_above_the_rollout_trains_nothing() -> None:
    # 128 prompts × 1 = 128 samples < train batch 1024: 128 // 1024 = 0 optimizer steps.
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --train.dynamic_batch_enable "
        "--rollout.batch_size 128 --train.batch_size 1024"
    )
    assert explanation.plan["optimizer_steps_per_step"] is None
    assert notes_with(explanation, "batch.no-optimizer-step")[0].severity == "error"


def test_static_batch_above_the_rollout_accumulates_across_rollouts() -> None:
    # 8 GPUs, 64 prompts × 2 = 128 samples, train batch 512, micro 4: GA = 512 // 4 // 8 = 16; each rank has
    # 16 samples = 4 micro-batches per rollout → 4 / 16 = 0.25 optimizer steps per step (DeepSpeed steps every
    # 4th rollout, its accumulation window spanning rollouts).
    plan = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 64 --rollout.n_samples_per_prompt 2 "
        "--train.batch_size 512 --train.micro_batch_size 4 --rollout.micro_batch_size 2 "
        "--algo.advantage.estimator group_norm"
    ).plan
    assert plan["optimizer_steps_per_step"] == 0.25


def test_uneven_rollout_shards_are_flagged() -> None:
    # 8 GPUs, 100 samples in experiences of micro_rollout 4 = 25 experiences over 8 ranks: not even.
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 100 "
        "--train.batch_size 32 --train.micro_batch_size 4 --rollout.micro_batch_size 4"
    )
    assert "batch.uneven-shards" in codes(explanation)


# ------------------------------------------------------------------ flag schemes and versions [§1 item 1, §2]


def test_flat_flags_read_as_0_11_2_are_errors_naming_the_dotted_flag() -> None:
    # 0.10.2 renamed every flag without aliases: --rollout_batch_size is an argparse error in 0.11.2. The
    # value is still read under its new name so the plan shows the intent.
    explanation = read(
        "--vllm_num_engines 8 --colocate_all_models --rollout_batch_size 256 --train_batch_size 64", "0.11.2"
    )
    errors = {n.source_keys[0]: n for n in explanation.notes if n.code == "keys.unknown-in-version"}
    assert errors["rollout_batch_size"].severity == "error"
    assert "--rollout.batch_size" in errors["rollout_batch_size"].message
    assert errors["colocate_all_models"].target_keys == ["train.colocate_all"]
    assert explanation.plan["prompts_per_step"] == 256 and explanation.plan["samples_per_optimizer_step"] == 64


def test_dotted_flags_read_as_0_10_1_are_errors_naming_the_flat_flag() -> None:
    explanation = read("--vllm.num_engines 8 --train.colocate_all --train.batch_size 64", "0.10.1")
    [note] = [n for n in explanation.notes if n.source_keys == ["train.batch_size"]]
    assert note.severity == "error" and "--train_batch_size" in note.message


def test_flag_of_a_later_release_is_an_error() -> None:
    # --use_dynamic_batch exists from 0.8.6; 0.8.5's parser rejects it, and nothing reads it there.
    explanation = read("--vllm_num_engines 8 --colocate_all_models --use_dynamic_batch", "0.8.5")
    [note] = notes_with(explanation, "keys.unknown-in-version")
    assert note.severity == "error" and "0.8.6" in note.message
    assert not explanation.spec.token_budget.dynamic_batching  # the flag does not exist there: not read
    assert explanation.plan["micro_batch_per_device"] == 4


@pytest.mark.parametrize(
    "flags,version",
    [
        ("--rollout_batch_size 64", "0.10.1"),  # flat, nothing newer-only: last flat release
        ("--rollout_batch_size 64 --prompt_max_len 512", "0.9.7"),  # prompt_max_len last existed in 0.9.7
        ("--use_dynamic_batch --flash_attn", "0.8.9"),  # flash_attn ≤ 0.8.9, use_dynamic_batch ≥ 0.8.6
        ("--bf16 --async_queue_size 2", "0.9.1"),  # bf16 ≤ 0.9.1, async_queue_size ≥ 0.9.1
        ("--rollout.batch_size 64", "0.11.2"),  # dotted: the newest release
        ("--algo.advantage.is_correction_type tis", "0.11.1"),  # replaced in 0.11.2
        ("--algo.kl.unbiased_gradient", "0.11.2"),  # from 0.11.1 on
    ],
)
def test_version_is_inferred_from_the_flags(flags: str, version: str) -> None:
    explanation = read(flags)
    assert explanation.version == version
    assert "version.assumed" in codes(explanation)


def test_every_flag_has_a_spelling_in_its_scheme() -> None:
    # The rename table round-trips: flat → dotted → flat (the per-model optimizer flags share one flat flag).
    for flat, dotted in FLAT_TO_DOTTED.items():
        for name in dotted:
            assert name in ALL_DOTTED and DOTTED_TO_FLAT[name] == flat
    assert spelled("rollout.batch_size", "0.10.1") == "rollout_batch_size"
    assert spelled("rollout_batch_size", "0.11.2") is None  # internal names are dotted
    assert spelled("rollout.batch_size", "0.11.2") == "rollout.batch_size"
    assert flag_exists("eps_clip_low_high", "0.8.3") and not flag_exists("eps_clip_low_high", "0.8.1")
    assert not flag_exists("actor.loss_agg_mode", "0.11.1") and flag_exists("actor.loss_agg_mode", "0.11.2")
    assert all(name in ALL_FLAT for name in FLAT_TO_DOTTED)
    # 0.8.x: value_clip default 0.2 → 0.5 in 0.8.3; entropy 0 → None.
    assert defaults_for("0.8.1")["critic.value_clip"] == 0.2 and defaults_for("0.8.3")["critic.value_clip"] == 0.5


def test_unlisted_patch_release_resolves_to_the_closest_older_one() -> None:
    assert translator.dialects.get("openrlhf").resolve_version("0.10.1.post2") == "0.10.1"
    assert translator.dialects.get("openrlhf").resolve_version("0.8.2") == "0.8.1"
    assert VERSIONS[-1] == "0.11.2"


def test_abbreviated_flag_is_accepted_and_a_typo_is_not() -> None:
    # argparse allow_abbrev: --train.micro_batch is a unique prefix of --train.micro_batch_size.
    explanation = read("--vllm.num_engines 8 --train.colocate_all --train.micro_batch 2 --rollout.tempreature 0.6")
    assert explanation.plan["micro_batch_per_device"] == 2
    assert "keys.abbreviated" in codes(explanation)
    [typo] = notes_with(explanation, "keys.unknown")
    assert "--rollout.temperature" in typo.message
    assert explanation.spec.sampling.temperature == 1.0
    assert any(e.key == "rollout.tempreature" for e in explanation.spec.extras)


def test_bash_array_of_flags_is_expanded() -> None:
    # "${ARGS[@]}" reaches the reader as one word; flag names never contain blanks, so it is split.
    script = (
        "ARGS=(\n  --rollout_batch_size 32\n  --n_samples_per_prompt 4\n)\n"
        "python3 -m openrlhf.cli.train_ppo_ray --vllm_num_engines 8 --colocate_all_models "
        '"${ARGS[@]}" --train_batch_size 128\n'
    )
    plan = translator.load(Source(script, "run.sh")).plan
    assert (plan["prompts_per_step"], plan["samples_per_prompt"]) == (32, 4)


# ------------------------------------------------------------------ algorithm [§5]


@pytest.mark.parametrize(
    "estimator,version,extra,canonical,std,scope",
    [
        ("gae", "0.11.2", "", "gae", True, "batch"),  # GAE, then global whitening
        ("reinforce", "0.11.2", "", "reinforce_plus_plus", True, "batch"),  # REINFORCE++: returns, whitening
        ("reinforce_baseline", "0.11.2", "", "reinforce_plus_plus_baseline", True, "batch"),
        (
            "reinforce_baseline",
            "0.11.2",
            "--algo.advantage.no_std_norm",
            "reinforce_plus_plus_baseline",
            False,
            "batch",
        ),
        ("rloo", "0.8.4", "", "rloo", True, "batch"),  # ≤ 0.8.4: everything but group_norm/dr_grpo whitened
        ("rloo", "0.8.5", "", "rloo", False, "group"),  # 0.8.5: RLOO lost the global whitening
        ("group_norm", "0.11.2", "", "grpo", True, "group"),  # (r − mean) / std per group
        ("group_norm", "0.11.2", "--algo.advantage.no_std_norm", "grpo", True, "group"),  # flag ignored
        ("dr_grpo", "0.11.2", "", "grpo", False, "group"),  # r − mean, no std
        ("flash_reinforce", "0.11.2", "", "flash_reinforce", False, "batch"),  # r − batch mean (0.11.2)
    ],
)
def test_advantage_estimators_map_to_canonical_names(
    estimator: str, version: str, extra: str, canonical: str, std: bool, scope: str
) -> None:
    if not at_least(version, "0.10.2"):
        flags = (
            f"--vllm_num_engines 8 --colocate_all_models --n_samples_per_prompt 4 --advantage_estimator "
            f"{estimator} --reward_pretrain rm --micro_rollout_batch_size 4 {extra}"
        )
    else:
        flags = (
            f"--vllm.num_engines 8 --train.colocate_all --rollout.n_samples_per_prompt 4 "
            f"--algo.advantage.estimator {estimator} --reward.model_name_or_path rm {extra}"
        )
    a = read(flags, version).spec.algorithm
    assert (a.advantage_estimator, a.advantage_std_normalization, a.advantage_normalization_scope) == (
        canonical,
        std,
        scope,
    )


def test_group_estimators_need_more_than_one_sample() -> None:
    # [§6 row 5] {rloo, reinforce_baseline, group_norm} assert n > 1; dr_grpo joined the assert in 0.11.0.
    one = "--vllm.num_engines 8 --train.colocate_all --algo.advantage.estimator "
    assert notes_with(read(one + "group_norm"), "algorithm.group-too-small")[0].severity == "error"
    assert not notes_with(read(one + "dr_grpo", "0.10.4"), "algorithm.group-too-small")
    assert notes_with(read(one + "dr_grpo", "0.11.0"), "algorithm.group-too-small")


def test_kl_placement_coefficient_and_estimator() -> None:
    base = (
        "--vllm.num_engines 8 --train.colocate_all --rollout.n_samples_per_prompt 4 "
        "--algo.advantage.estimator group_norm "
    )
    # Default: KL in the reward, init_coef 0.01, k1 [§5.2].
    a = read(base).spec.algorithm
    assert (a.kl_placement, a.kl_coef, a.kl_estimator) == ("reward", 0.01, "k1")
    # use_loss: KL × init_coef added to the actor loss.
    a = read(base + "--algo.kl.use_loss --algo.kl.estimator k3 --algo.kl.init_coef 0.001").spec.algorithm
    assert (a.kl_placement, a.kl_coef, a.kl_estimator) == ("loss", 0.001, "k3")
    # init_coef 0: no reference model, no KL; the effective coefficient is 0.0.
    a = read(base + "--algo.kl.use_loss --algo.kl.init_coef 0").spec.algorithm
    assert (a.kl_placement, a.kl_coef) == ("none", 0.0)
    # kl.target makes the coefficient adaptive; kl_coef is its start.
    explanation = read(base + "--algo.kl.target 6.0")
    assert explanation.spec.algorithm.kl_coef == 0.01 and "algorithm.adaptive-kl" in codes(explanation)


def test_loss_aggregation_scope_by_release() -> None:
    # [§5.3] token-mean per micro-batch up to 0.10.2; over the whole optimizer step from 0.10.4; GSPO forces
    # sequence-level aggregation; 0.11.2 adds --actor.loss_agg_mode.
    base = "--vllm.num_engines 8 --train.colocate_all "
    assert read(base, "0.10.2").spec.algorithm.loss_normalizer_scope == "micro_batch"
    assert read(base, "0.10.4").spec.algorithm.loss_normalizer_scope == "optimizer_step"
    a = read(base + "--actor.policy_loss_type gspo", "0.11.0").spec.algorithm
    assert (a.policy_loss, a.loss_aggregation) == ("gspo", "seq-mean-token-mean")
    assert (
        read(base + "--actor.loss_agg_mode seq-mean-token-mean").spec.algorithm.loss_aggregation
        == "seq-mean-token-mean"
    )


def test_asymmetric_clipping_and_entropy() -> None:
    a = read(
        "--vllm.num_engines 8 --train.colocate_all --actor.eps_clip_low_high 0.2 0.28 --actor.dual_clip 3 "
        "--actor.entropy_coef 0.001"
    ).spec.algorithm
    assert (a.clip_ratio_low, a.clip_ratio_high, a.clip_ratio_dual, a.entropy_coef) == (0.2, 0.28, 3.0, 0.001)


# ------------------------------------------------------------------ vllm_generate_batch_size eras [§3, §5.4]


def test_generate_batch_size_is_the_step_in_0_8() -> None:
    # 0.8.1–0.9.0: the prompt dataloader batch; without filtering one batch is one rollout step.
    explanation = read(
        "--vllm_num_engines 8 --colocate_all_models --rollout_batch_size 128 --vllm_generate_batch_size 256", "0.8.11"
    )
    assert explanation.plan["prompts_per_step"] == 256
    assert "semantics.generate-batch-is-step" in codes(explanation)
    # With dynamic filtering it is the generation round; a step keeps rollout_batch_size accepted groups.
    explanation = read(
        "--vllm_num_engines 8 --colocate_all_models --rollout_batch_size 128 --n_samples_per_prompt 8 "
        "--vllm_generate_batch_size 256 --dynamic_filtering --remote_rm_url r.py",
        "0.8.11",
    )
    assert explanation.plan["prompts_per_step"] == 128 and explanation.spec.generation.prompts_per_round == 256


def test_generate_batch_size_is_ignored_in_0_9_1_to_0_9_10() -> None:
    explanation = read(
        "--vllm_num_engines 8 --colocate_all_models --rollout_batch_size 128 --vllm_generate_batch_size 256", "0.9.5"
    )
    assert explanation.plan["prompts_per_step"] == 128 and "semantics.ignored-key" in codes(explanation)


def test_oversampling_needs_async_from_0_10_0() -> None:
    # [§6 row 21] vllm_generate_batch_size > rollout.batch_size without async is an assert.
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 --rollout.vllm_generate_batch_size 256"
    )
    assert notes_with(explanation, "generation.oversampling-needs-async")[0].severity == "error"
    # A smaller generate batch: one vLLM call of 64 prompts fills the step.
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 --rollout.vllm_generate_batch_size 64"
    )
    assert explanation.plan["prompts_per_step"] == 64


# ------------------------------------------------------------------ topology [§3 resources, §6 rows 26-27]


def test_colocated_and_separate_vllm_engines() -> None:
    colocated = read("--vllm.num_engines 4 --vllm.tensor_parallel_size 2 --train.colocate_all")
    assert colocated.spec.topology.rollout_gpus == 0
    separate = read("--vllm.num_engines 4 --vllm.tensor_parallel_size 2 --train.colocate_actor_ref")
    assert separate.spec.topology.rollout_gpus == 8
    # colocate_all (sync) needs actor GPUs == engines × TP: 8 vs 3 × 2 = 6.
    wrong = read("--vllm.num_engines 3 --vllm.tensor_parallel_size 2 --train.colocate_all")
    assert notes_with(wrong, "topology.colocation-mismatch")[0].severity == "error"
    missing = read("--train.colocate_all")
    assert "keys.missing" in codes(missing) and missing.spec.topology.rollout_gpus is None


# ------------------------------------------------------------------ secrets


def test_wandb_key_is_never_copied(tmp_path: Path) -> None:
    secret = "wandb-0123456789abcdef-secret"
    script = tmp_path / "run.sh"
    script.write_text(HEAD + f"--vllm_num_engines 8 --colocate_all_models --use_wandb {secret}\n")
    code, out, _ = run("explain", script, "--format", "json")
    assert code == 0 and secret not in out
    for target in ("openrlhf@0.11.2", "openrlhf@0.10.1", "verl", "trl"):
        code, out, _ = run("translate", script, "--to", target, "--format", "json")
        assert code in (0, 1) and secret not in out, target  # 1: written with error notes (gae has no TRL critic)
    written = translator.translate(translator.load(script), to="openrlhf@0.11.2").files["launch.sh"]
    assert '--logger.wandb.key "${WANDB_API_KEY}"' in written and 'export WANDB_API_KEY="${WANDB_API_KEY:-}"' in written


# ------------------------------------------------------------------ the writer


def test_writer_spells_each_era_and_reads_back_to_the_same_plan() -> None:
    source = read(
        "--vllm.num_engines 4 --vllm.tensor_parallel_size 2 --train.colocate_all --rollout.batch_size 128 "
        "--rollout.n_samples_per_prompt 8 --train.batch_size 256 --train.micro_batch_size 4 "
        "--rollout.micro_batch_size 8 --algo.advantage.estimator group_norm --algo.kl.use_loss "
        "--algo.kl.estimator k3 --algo.kl.init_coef 0.001 --data.max_len 3072 "
        "--rollout.max_new_tokens 2048 --reward.remote_url /rewards/math.py"
    )
    for version, present, absent in [
        (
            "0.11.2",
            [
                "--rollout.batch_size 128",
                "--train.batch_size 256",
                "--train.colocate_all \\",
                "--algo.kl.use_loss \\",
                "--data.max_len 3072",
            ],
            ["--rollout_batch_size"],
        ),
        (
            "0.10.1",
            [
                "--rollout_batch_size 128",
                "--train_batch_size 256",
                "--colocate_all_models \\",
                "--use_kl_loss \\",
                "--max_len 3072",
                "--max_new_tokens 2048",
            ],
            ["--rollout.batch_size"],
        ),
        # ≤ 0.9.7: prompt and response limits are separate flags.
        ("0.9.7", ["--prompt_max_len 1024", "--generate_max_len 2048"], ["--max_len", "--max_new_tokens"]),
    ]:
        translation = translator.translate(source, to=f"openrlhf@{version}")
        text = translation.files["launch.sh"]
        assert text.startswith("#!/usr/bin/env bash") and "ray job submit --address=http://127.0.0.1:8265 " in text
        assert "-- python3 -m openrlhf.cli.train_ppo_ray \\" in text
        for line in text.split("train_ppo_ray \\\n")[1].splitlines()[:-1]:
            assert line.startswith("   --") and line.endswith(" \\"), line  # one flag per line
        for word in present:
            assert word in text, (version, word)
        for word in absent:
            assert word not in text, (version, word)
        assert translation.plan == source.plan, version
        assert not [n for n in translation.notes if n.severity == "error"]


def test_writer_without_dynamic_batching_before_0_8_6_picks_a_micro_batch() -> None:
    # 8 GPUs, 1024 samples per optimizer step → 128 per rank; no token budget before 0.8.6: micro 4 (a
    # divisor of 128 closest to 4) is written with a warning, and the plan then has micro 4, GA 32.
    source = read(
        "--vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 --rollout.n_samples_per_prompt 8 "
        "--train.batch_size 1024 --train.dynamic_batch_enable --algo.advantage.estimator group_norm"
    )
    translation = translator.translate(source, to="openrlhf@0.8.5")
    assert "--micro_train_batch_size 4" in translation.files["launch.sh"]
    assert (translation.plan["micro_batch_per_device"], translation.plan["grad_accum_steps"]) == (4, 32)
    assert {"batch.token-budget-not-expressible", "plan.not-preserved"} <= {n.code for n in translation.notes}


def test_writer_caps_a_step_count_with_max_samples() -> None:
    # verl total_training_steps 50 × 64 prompts per step → data.max_samples 3200 prompts, one pass.
    verl = (
        "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=64 "
        "actor_rollout_ref.rollout.n=8 actor_rollout_ref.actor.ppo_mini_batch_size=16 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 actor_rollout_ref.rollout.name=vllm "
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 "
        "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 trainer.n_gpus_per_node=8 "
        "trainer.total_training_steps=50"
    )
    translation = translator.translate(Source(verl, "run.sh"), to="openrlhf", framework="verl@0.9.1")
    text = translation.files["launch.sh"]
    assert "--data.max_samples 3200" in text and "--train.num_episodes 1" in text
    assert "run-length.approximated" in {n.code for n in translation.notes}
    # OpenRLHF has no step limit of its own: the written config leaves total_steps open, with a note.
    assert [n.source_keys for n in translation.notes if n.code == "plan.not-preserved"] == [["plan.total_steps"]]


def test_own_extras_are_written_back_under_the_target_scheme() -> None:
    source = read("--vllm_num_engines 8 --colocate_all_models --save_path /out --ptx_coef 0.05 --flash_attn", "0.8.9")
    text = translator.translate(source, to="openrlhf@0.11.2").files["launch.sh"]
    assert "--ckpt.output_dir /out" in text
    assert "--ds.attn_implementation flash_attention_2" in text  # --flash_attn became a valued flag in 0.8.10
    assert "ptx_coef" not in text  # dropped in 0.10.2: noted
    translation = translator.translate(source, to="openrlhf@0.11.2")
    assert any("ptx_coef" in n.message for n in translation.notes if n.code == "keys.unknown-in-version")


def test_foreign_extras_are_one_note() -> None:
    verl = translator.load(
        next(c.path for c in CASES if case_id(c) == "verl/grpo_fixed_micro_tp2"),
        **next(c for c in CASES if case_id(c) == "verl/grpo_fixed_micro_tp2").load_kwargs(),
    )
    translation = translator.translate(verl, to="openrlhf")
    assert len([n for n in translation.notes if n.code == "keys.not-translated"]) == 1


# ------------------------------------------------------------------ bad input: ConfigError, no traceback


def _script(tmp_path: Path, flags: str) -> Path:
    script = tmp_path / "run.sh"
    script.write_text("set -x\n" + HEAD + flags + "\n")
    return script


@pytest.mark.parametrize(
    "value,problem",
    [("abc", "whole number"), ("0", "greater than 0"), ("-64", "greater than 0"), ("12.5", "whole number")],
)
def test_bad_batch_value_names_the_flag_and_line(tmp_path: Path, value: str, problem: str) -> None:
    script = _script(tmp_path, f"--vllm_num_engines 8 --rollout_batch_size {value}")
    assert_input_error(["explain", script], "--rollout_batch_size", problem, "run.sh:2")


def test_bad_dotted_value_names_the_dotted_flag(tmp_path: Path) -> None:
    script = _script(tmp_path, "--vllm.num_engines 8 --train.micro_batch_size four")
    assert_input_error(["explain", script], "--train.micro_batch_size", "whole number")


def test_bad_two_value_flag(tmp_path: Path) -> None:
    script = _script(tmp_path, "--vllm.num_engines 8 --actor.eps_clip_low_high low high")
    assert_input_error(["explain", script], "--actor.eps_clip_low_high", "two numbers")


@pytest.mark.parametrize(
    "flags,expected",
    [
        ("--vllm.num_engines 8 --rollout.batch_size", "--rollout.batch_size expects a value"),
        (
            "--vllm.num_engines 8 --actor.eps_clip_low_high 0.2 --train.batch_size 64",
            "--actor.eps_clip_low_high expects two values",
        ),
    ],
)
def test_missing_flag_values_are_argparse_errors(tmp_path: Path, flags: str, expected: str) -> None:
    # argparse: "expected one argument" / "expected 2 arguments".
    assert_input_error(["explain", _script(tmp_path, flags)], expected, "run.sh:2")


def test_unresolved_variable_is_named(tmp_path: Path) -> None:
    script = _script(tmp_path, "--vllm.num_engines 8 --rollout.batch_size $BATCH")
    # The prompts per step (and every count built on them) are unknown, naming the variable and what to pass.
    code, out, _ = run("explain", script, "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["plan"]["prompts_per_step"] is None
    assert "--env BATCH=" in json.dumps(document["certainty"]["prompts_per_step"])
    code, out, _ = run("explain", script, "--env", "BATCH=64", "--format", "json")
    assert code == 0 and json.loads(out)["plan"]["prompts_per_step"] == 64


def test_no_launch_command(tmp_path: Path) -> None:
    script = tmp_path / "notes.sh"
    script.write_text("# see openrlhf.cli.train_ppo_ray for the real run\necho hello\n")
    # A comment names no framework (detection reads commands, not comments): said to be OpenRLHF, it has no launch.
    assert_input_error(["explain", script], "cannot tell which framework")
    assert_input_error(["explain", script, "--from", "openrlhf"], "no OpenRLHF launch command")


def test_parallelism_larger_than_the_actor(tmp_path: Path) -> None:
    script = _script(tmp_path, "--actor.num_gpus_per_node 2 --ds.ring_attn_size 4 --vllm.num_engines 2")
    assert_input_error(["explain", script], "--ds.ring_attn_size", "exceeds")


def test_unknown_version(tmp_path: Path) -> None:
    script = _script(tmp_path, "--vllm.num_engines 8")
    assert_input_error(
        ["explain", script, "--from", "openrlhf@0.3.8"], "older than the oldest supported version, 0.4.0"
    )


def test_0_4_is_read_not_written(tmp_path: Path) -> None:
    # 0.4.x is read (docs/frameworks/openrlhf.md §13 band 0); the writer starts at 0.5.0 and says so.
    script = _script(tmp_path, "--vllm_num_engines 8 --rollout_batch_size 512 --micro_rollout_batch_size 8")
    assert read("--vllm_num_engines 8", "0.4.2.post1").spec.version == "0.4.2"  # a post release: its release
    assert_input_error(
        ["translate", script, "--from", "openrlhf@0.4.3", "--to", "openrlhf@0.4.3", "-o", str(tmp_path / "out")],
        "rlconf reads OpenRLHF 0.4.3 but writes OpenRLHF 0.5.0 and newer",
        "--to openrlhf@0.5.0",
    )


def test_0_4_rollout_batch_counts_samples() -> None:
    # [§13 band 0] 0.4.3: 512 // (8 GPUs × micro_rollout 8) = 8 loader batches of 8 samples per rank = 512 samples
    # per step, whatever n; n 4 is 4 copies of each prompt in the dataset → 1 sample per prompt, 4 passes an episode.
    # 0.4.5 (band A): 512 // 8 = 64 prompts per rank → 512 prompts × 4 = 2048 samples.
    flags = "--vllm_num_engines 8 --rollout_batch_size 512 --micro_rollout_batch_size 8 --n_samples_per_prompt 4"
    early, later = read(flags, "0.4.3"), read(flags, "0.4.5")
    assert (early.plan["prompts_per_step"], early.plan["samples_per_prompt"], early.plan["samples_per_step"]) == (
        512,
        1,
        512,
    )
    assert early.spec.run_length.dataset_passes == 4 and "semantics.samples-not-grouped" in codes(early)
    assert (later.plan["prompts_per_step"], later.plan["samples_per_prompt"], later.plan["samples_per_step"]) == (
        512,
        4,
        2048,
    )
    assert later.spec.run_length.dataset_passes == 1


def test_detected_and_aliased() -> None:
    assert translator.dialects.get("OpenRLHF/OpenRLHF").name == "openrlhf"
    source = Source("nohup " + HEAD + "--vllm.num_engines 8 &\n", "x.sh")
    assert translator.dialects.detect(source).name == "openrlhf"


# ------------------------------------------------------------------ round trips through verl and TRL

# Fields the first leg (OpenRLHF → other) cannot keep, and why.
LOSSY_FIRST_LEG = {
    # verl runs ceil(400 / 128) = 4 mini-batches per epoch (× 2 epochs = 8); OpenRLHF floors to 3 per epoch
    # (each rank's 100 samples = 12 micro-batches of 8, 4 per optimizer step) → 6.
    # ... and verl's Megatron validate_config needs DP 4 × micro to divide the 400 samples per step: micro 8 → 4
    # (grad accumulation 128 / 4 / 4 = 8).
    ("ds_tp_rounding_v0910", "verl"): {"optimizer_steps_per_step", "micro_batch_per_device", "grad_accum_steps"},
    # TRL needs micro × 4 processes to divide both 128 and 400 samples: micro 4, GAS 8; TRL then counts
    # 400 / 128 = 3.125 updates per epoch (6.25), where OpenRLHF's drop_last floor gives 6.
    ("ds_tp_rounding_v0910", "trl"): {"optimizer_steps_per_step", "micro_batch_per_device", "grad_accum_steps"},
    # PPO with one sample per prompt: TRL's GRPO needs num_generations ≥ 2, so the group doubles and the
    # prompts halve (1024 samples per step kept).
    ("ppo_critic_colocated_v0101", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_separate_engines_v089", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_per_rank_v059", "trl"): {"prompts_per_step", "samples_per_prompt"},
    # ... the same for 0.4.x, whose steps hold one sample per prompt (the n copies are in the dataset, §13).
    ("ppo_pin_v043", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("copy_v043", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_loader_batch_floor_v040", "trl"): {"prompts_per_step", "samples_per_prompt"},
    # Token-budget micro-batches: TRL has only a per-device sample count.
    ("reinforce_baseline_ring_dynamic_v0111", "trl"): {"micro_batch_per_device", "grad_accum_steps"},
    # 25 prompts × 4 = 100 samples per update do not split over verl's 8 ranks (0.9 asserts it): a multiple of
    # 8 / gcd(8, 4) = 2 prompts dividing the 96 per step, nearest 25 → 24 (96 samples; accumulation 96 / 8 / 4 = 3,
    # OpenRLHF's floored 3 again).
    ("train_batch_indivisible_v0112", "verl"): {"samples_per_optimizer_step"},
    # TRL writes whole accumulation steps: 3 × 4 × 8 = 96 samples per optimizer step, not 100.
    ("train_batch_indivisible_v0112", "trl"): {"samples_per_optimizer_step"},
}
# Fields still different after the whole round trip (the rest come back).
LOSSY_ROUND_TRIP = {
    # Back in OpenRLHF with micro 4: each rank's 100 samples are 25 micro-batches, 8 per update → 3.125 per
    # epoch (the partial window carries over), 6.25 per step instead of 12 // 4 = 3 per epoch (6).
    ("ds_tp_rounding_v0910", "verl"): {"micro_batch_per_device", "grad_accum_steps", "optimizer_steps_per_step"},
    ("ds_tp_rounding_v0910", "trl"): {"optimizer_steps_per_step", "micro_batch_per_device", "grad_accum_steps"},
    ("ppo_critic_colocated_v0101", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_per_rank_v059", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_separate_engines_v089", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_pin_v043", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("copy_v043", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("ppo_loader_batch_floor_v040", "trl"): {"prompts_per_step", "samples_per_prompt"},
    ("reinforce_baseline_ring_dynamic_v0111", "trl"): {"micro_batch_per_device", "grad_accum_steps"},
    ("train_batch_indivisible_v0112", "trl"): {"samples_per_optimizer_step"},
    ("train_batch_indivisible_v0112", "verl"): {"samples_per_optimizer_step"},
}
OPENRLHF_CASES = [c for c in CASES if c.framework == "openrlhf"]


@pytest.mark.parametrize("other", ["verl", "trl"])
@pytest.mark.parametrize("case", OPENRLHF_CASES, ids=case_id)
def test_round_trip_through_verl_and_trl(case: Case, other: str) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    there = translator.translate(source, to=other)
    # 0.4.x fixtures come back in the oldest release rlconf writes (0.5.0)
    version = translator.dialects.get("openrlhf").writable(source.version)
    back = translator.translate(
        Source(there.files["launch.sh"], "launch.sh", None, there.files),
        to=f"openrlhf@{version}",
    )
    assert back.version == version
    first_leg = differing(source.plan, there.plan)
    assert first_leg == LOSSY_FIRST_LEG.get((case.name, other), set())
    assert noted(there) == first_leg, "every plan change of the first leg has a note"
    assert differing(source.plan, back.plan) == LOSSY_ROUND_TRIP.get((case.name, other), set())


@pytest.mark.parametrize("version", ["0.8.11", "0.9.7", "0.10.1", "0.10.2", "0.11.2"])
@pytest.mark.parametrize("case", OPENRLHF_CASES, ids=case_id)
def test_rewriting_for_another_release_keeps_the_plan(case: Case, version: str) -> None:
    # Every fixture's plan is expressible in every band from 0.8.6 on (dynamic batching exists there).
    source = translator.load(case.path, **case.load_kwargs())
    translation = translator.translate(source, to=f"openrlhf@{version}")
    assert translation.plan == source.plan
    assert not noted(translation)


def test_critic_has_its_own_data_parallel_ranks() -> None:
    # [§3 resources] the critic group has its own world size: 5 GPUs → critic dp 5. Train batch 96, micro 4:
    # the actor's 8 ranks take 96 // 4 // 8 = 3 (96 = 4 × 3 × 8, fine); the critic's 5 ranks would need
    # 96 = 4 × GA × 5, which no whole GA gives → DeepSpeed rejects the critic (error note naming the critic).
    explanation = read(
        "--vllm.num_engines 8 --train.colocate_actor_ref --critic.num_gpus_per_node 5 "
        "--reward.model_name_or_path rm --train.batch_size 96 --train.micro_batch_size 4 "
        "--rollout.batch_size 96 --rollout.micro_batch_size 4"
    )
    [note] = notes_with(explanation, "batch.indivisible")
    assert "critic" in note.message and note.severity == "error"
    assert explanation.plan["grad_accum_steps"] == 3
    assert explanation.spec.critic.model == "rm"  # no critic flag, no remote reward: the first reward model


# ------------------------------------------------------------------ random valid plans


@st.composite
def openrlhf_scripts(draw: st.DrawFn) -> str:
    """A dotted launch line whose plan verl and TRL can express: every batch divides evenly.

    With P = dp × micro × accumulation × n samples per optimizer step and k optimizer steps per epoch,
    a step has S = P × k samples = (dp × micro × accumulation × k) prompts × n.
    """
    n = draw(st.integers(2, 16))
    dp = draw(st.sampled_from([1, 2, 4, 8]))
    ring = draw(st.sampled_from([1, 2]))
    micro = draw(st.sampled_from([1, 2, 4, 8]))
    accumulation = draw(st.integers(1, 4))
    k = draw(st.integers(1, 4))
    epochs = draw(st.integers(1, 3))
    per_opt = dp * micro * accumulation * n
    return HEAD + (
        f"--actor.num_gpus_per_node {dp * ring} --ds.ring_attn_size {ring} --vllm.num_engines {dp * ring} "
        f"--train.colocate_all --algo.advantage.estimator group_norm --rollout.n_samples_per_prompt {n} "
        f"--rollout.batch_size {dp * micro * accumulation * k} --train.batch_size {per_opt} "
        f"--train.micro_batch_size {micro} --rollout.micro_batch_size {micro} "
        f"--train.max_epochs {epochs} --algo.kl.use_loss --algo.kl.estimator k3 --algo.kl.init_coef 0.001\n"
    )


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(openrlhf_scripts())
def test_random_openrlhf_plans_survive_verl_and_trl(script: str) -> None:
    source = translator.load(Source(script, "launch.sh"), framework="openrlhf@0.11.2")
    # By construction: k × epochs optimizer steps per step, accumulation × n micro-batches per step and rank.
    plan = source.plan
    assert (
        plan["optimizer_steps_per_step"]
        == plan["samples_per_step"] // plan["samples_per_optimizer_step"] * plan["epochs_per_step"]
    )
    for other in ("verl", "trl"):
        there = translator.translate(source, to=other)
        back = translator.translate(
            Source(there.files["launch.sh"], "launch.sh", None, there.files),
            to="openrlhf@0.11.2",
        )
        assert there.plan == source.plan, other
        assert back.plan == source.plan, other


# ------------------------------------------------------------------ releases 0.5–0.7 (docs/frameworks/openrlhf.md)


def _errors(translation) -> list[str]:
    """The written script checked against the target release's own rules: their error messages."""
    report = translator.check(
        Source(translation.files["launch.sh"], "launch.sh"), framework=f"openrlhf@{translation.version}"
    )
    return [f.message for f in report.errors]


def test_early_flags_bound_the_version() -> None:
    # --use_kl_estimator_k3 exists 0.5.0–0.6.0 and --colocate_all_models from 0.5.8: the newest release with
    # both is 0.6.0 (cli/train_ppo_ray.py of each wheel).
    explanation = translator.load(
        Source(
            HEAD + "--actor_num_gpus_per_node 8 --vllm_num_engines 8 --colocate_all_models --use_kl_estimator_k3\n",
            "launch.sh",
        )
    )
    assert explanation.spec.version == "0.6.0"
    assert explanation.spec.algorithm.kl_estimator == "k3" and explanation.spec.algorithm.kl_placement == "reward"


def test_0_5_0_has_no_estimator_flag_and_always_trains_gae() -> None:
    explanation = read("--actor_num_gpus_per_node 8 --vllm_num_engines 8 --reward_pretrain rm/x", "0.5.0")
    assert explanation.spec.algorithm.advantage_estimator == "gae" and explanation.spec.critic.enabled
    # warmup fixed at ceil(max_steps × 0.03) before --lr_warmup_ratio (0.5.3)
    assert explanation.spec.optimizer.warmup_ratio == 0.03
    assert "keys.unknown-in-version" in codes(
        read(
            "--actor_num_gpus_per_node 8 --vllm_num_engines 8 --advantage_estimator gae --reward_pretrain rm/x", "0.5.0"
        )
    )


def test_prompt_split_is_missing_in_0_7_0_to_0_7_3() -> None:
    # 0.7.0 dropped --prompt_split (blending_datasets' default "train"), 0.7.4 brought it back.
    assert flag_exists("prompt_split", "0.6.4") and flag_exists("prompt_split", "0.7.4")
    assert not flag_exists("prompt_split", "0.7.0") and not flag_exists("prompt_split", "0.7.3")


@pytest.mark.parametrize("version", ["0.5.9", "0.6.4", "0.7.0", "0.7.3", "0.7.5"])
def test_writer_for_early_releases_passes_their_own_checks(version: str) -> None:
    source = translator.load(FIXTURES / "openrlhf" / "grpo_group_norm_v0112.sh")
    translation = translator.translate(source, to=f"openrlhf@{version}")
    text = translation.files["launch.sh"]
    assert "--rollout_batch_size 128" in text and "--remote_rm_url /openrlhf/examples/python/reward_func.py" in text
    assert _errors(translation) == []
    assert translation.plan == source.plan
    if version == "0.5.9":
        # group_norm arrived in 0.6.0; rloo (0.5.3) keeps a per-prompt baseline for the 8 samples of a group, and
        # KL as a loss arrived in 0.6.0 (written as a KL penalty in the reward).
        assert "--advantage_estimator rloo" in text and "--use_kl_loss" not in text
        assert {"algorithm.estimator-changed", "algorithm.not-expressible"} <= codes(translation)


def test_writer_rounds_the_prompts_to_the_per_rank_loaders() -> None:
    # 0.5.6–0.7.0 assert rollout_batch_size % actor GPUs == 0: 100 prompts on 8 ranks → 96 or 104; 100 / 8 = 12.5
    # rounds (half to even) to 12 → 96.
    source = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all --rollout.batch_size 100 "
        "--rollout.n_samples_per_prompt 8 --train.batch_size 200 --train.micro_batch_size 5 "
        "--algo.advantage.estimator group_norm --reward.remote_url http://rm:5000"
    )
    translation = translator.translate(source, to="openrlhf@0.6.4")
    assert "--rollout_batch_size 96" in translation.files["launch.sh"]
    assert "batch.changed" in codes(translation) and _errors(translation) == []


def test_writer_refuses_a_non_power_of_two_world_before_0_5_6() -> None:
    source = read(
        "--actor.num_gpus_per_node 6 --vllm.num_engines 6 --train.colocate_all --rollout.batch_size 96 "
        "--rollout.n_samples_per_prompt 4 --train.batch_size 96 --train.micro_batch_size 4 "
        "--algo.advantage.estimator reinforce --reward.remote_url http://rm:5000"
    )
    with pytest.raises(translator.ConfigError, match="power of 2"):
        translator.translate(source, to="openrlhf@0.5.5")
    assert _errors(translator.translate(source, to="openrlhf@0.5.6")) == []


# ------------------------------------------------------------------ never write what OpenRLHF rejects


def test_group_norm_with_one_sample_is_written_as_reinforce() -> None:
    # group_norm asserts n_samples_per_prompt > 1; REINFORCE++ (batch-whitened returns) needs no group.
    source = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 "
        "--rollout.n_samples_per_prompt 1 --train.batch_size 128 --train.micro_batch_size 4 "
        "--algo.advantage.estimator group_norm --reward.remote_url /r.py"
    )
    translation = translator.translate(source, to="openrlhf@0.11.2")
    assert "--algo.advantage.estimator reinforce \\" in translation.files["launch.sh"]
    [note] = notes_with(translation, "algorithm.estimator-changed")
    assert "one completion per prompt" in note.message
    assert _errors(translation) == []


def test_eval_data_and_filtering_are_dropped_without_a_remote_reward() -> None:
    # train_ppo_ray asserts an eval dataset and dynamic filtering only with --reward.remote_url / an agent.
    source = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 "
        "--rollout.n_samples_per_prompt 8 --train.batch_size 128 --train.micro_batch_size 4 "
        "--algo.advantage.estimator group_norm --reward.model_name_or_path OpenRLHF/rm "
        "--eval.dataset data/eval.jsonl --eval.steps 5 --algo.dynamic_filtering_enable"
    )
    translation = translator.translate(source, to="openrlhf@0.11.2")
    text = translation.files["launch.sh"]
    assert "--eval.dataset" not in text and "--algo.dynamic_filtering_enable" not in text
    assert "--reward.model_name_or_path OpenRLHF/rm" in text
    assert {"evaluation.not-expressible", "generation.not-expressible"} <= codes(translation)
    assert _errors(translation) == []


def test_reward_function_file_is_hooked_up_with_the_signature() -> None:
    explanation = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all "
        "--rollout.n_samples_per_prompt 8 --algo.advantage.estimator group_norm"
    )
    explanation.spec.reward.function_path, explanation.spec.reward.function_name = "rewards/math.py", "compute_score"
    translation = translator.translate(explanation, to="openrlhf@0.10.1")
    assert "--remote_rm_url rewards/math.py" in translation.files["launch.sh"]
    [note] = notes_with(translation, "reward.function-signature")
    assert "reward_func(queries, prompts, labels)" in note.message and "compute_score" in note.message
    # Before 0.5.8 --remote_rm_url is an HTTP server only: nothing is written, and OpenRLHF cannot start.
    early = translator.translate(explanation, to="openrlhf@0.5.7")
    assert "remote_rm_url" not in early.files["launch.sh"]
    assert {"reward.not-expressible", "reward.missing"} <= codes(early)


# ------------------------------------------------------------------ the run beyond the batch plan

RUN_PARTS = (
    "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 "
    "--rollout.n_samples_per_prompt 8 --train.batch_size 128 --train.micro_batch_size 4 "
    "--algo.advantage.estimator group_norm --reward.remote_url http://rm:5000/get_reward "
    "--data.prompt_dataset org/math,data/extra.jsonl --data.prompt_probs 0.7,0.3 --data.prompt_split test "
    "--data.input_key question --data.label_key answer --data.max_samples 4096 "
    "--eval.dataset org/aime --eval.steps 10 --ckpt.save_steps 25 --ckpt.path /ckpt/run --ckpt.save_hf "
    "--ckpt.max_num 5 --ckpt.load_enable --logger.wandb.key KEY --logger.wandb.project proj "
    "--logger.wandb.run_name run1 --actor.min_lr_ratio 0.05"
)


def test_run_parts_are_read() -> None:
    spec = read(RUN_PARTS).spec
    assert spec.reward.remote_url == "http://rm:5000/get_reward"
    assert spec.data.train_sources == ["org/math", "data/extra.jsonl"] and spec.data.train_weights == [0.7, 0.3]
    assert (spec.data.train_split, spec.data.prompt_key, spec.data.answer_key) == ("test", "question", "answer")
    # --data.max_samples caps the prompts read (and the eval set, which blending_datasets cuts the same way)
    assert spec.data.max_train_prompts == 4096 and spec.data.max_eval_prompts == 4096
    assert spec.data.eval_sources == ["org/aime"] and spec.evaluation.every_steps == 10
    # --ckpt.save_steps counts global_step, one per rollout step
    c = spec.checkpointing
    assert (c.every_steps, c.directory, c.hf_format, c.keep_last, c.resume) == (25, "/ckpt/run", True, 5, "auto")
    assert (spec.logging.project, spec.logging.run_name, spec.logging.backends) == (
        "proj",
        "run1",
        ["console", "wandb"],
    )
    assert spec.optimizer.min_lr_ratio == 0.05 and spec.topology.rollout_engines == 8


@pytest.mark.parametrize(
    "version, present, absent",
    [
        (
            "0.10.1",
            [
                "--prompt_data org/math,data/extra.jsonl",
                "--prompt_data_probs 0.7,0.3",
                "--prompt_split test",
                "--input_key question",
                "--label_key answer",
                "--max_samples 4096",
                "--eval_dataset org/aime",
                "--eval_steps 10",
                "--save_steps 25",
                "--ckpt_path /ckpt/run",
                "--save_hf_ckpt",
                "--max_ckpt_num 5",
                "--load_checkpoint",
                '--use_wandb "${WANDB_API_KEY}"',
                "--wandb_project proj",
                "--wandb_run_name run1",
                "--remote_rm_url http://rm:5000/get_reward",
            ],
            [],
        ),
        # 0.7.0–0.7.3 read the train split only
        ("0.7.2", ["--eval_dataset org/aime", "--save_steps 25"], ["--prompt_split"]),
        # no evaluation before 0.7.0
        ("0.6.4", ["--prompt_split test", "--save_steps 25"], ["--eval_dataset", "--eval_steps"]),
    ],
)
def test_run_parts_are_written(version: str, present: list[str], absent: list[str]) -> None:
    translation = translator.translate(read(RUN_PARTS), to=f"openrlhf@{version}")
    text = translation.files["launch.sh"]
    for word in present:
        assert word in text, word
    for word in absent:
        assert word not in text, word
    assert _errors(translation) == []


def test_written_gpus_equal_the_sources_when_vllm_has_gpus_of_its_own() -> None:
    # Open-Instruct: 6 learner GPUs + 10 vLLM engines of 1 GPU. OpenRLHF: actor 6 (the reference model shares
    # them via colocate_actor_ref), vLLM 10 → 16, as in the source.
    source = translator.load(FIXTURES / "open-instruct" / "grpo_fast_8b_mason.sh")
    translation = translator.translate(source, to="openrlhf@0.11.2")
    text = translation.files["launch.sh"]
    assert "--actor.num_gpus_per_node 6" in text and "--vllm.num_engines 10" in text
    assert "topology.gpus-changed" not in codes(translation)


def test_written_gpus_differ_with_a_critic_and_separate_vllm() -> None:
    # GAE needs a critic group of its own unless colocate_all also takes vLLM: the note says how many GPUs.
    source = read(
        "--actor.num_gpus_per_node 4 --vllm.num_engines 2 --algo.advantage.estimator gae "
        "--critic.model_name_or_path c --critic.num_gpus_per_node 4 --ref.num_gpus_per_node 4 "
        "--train.colocate_actor_ref --reward.remote_url http://rm --rollout.batch_size 64 "
        "--train.batch_size 64 --train.micro_batch_size 4"
    )
    source.spec.framework = "verl"  # as if another framework had placed it: training 4 + rollout 2
    translation = translator.translate(source, to="openrlhf@0.11.2")
    [note] = notes_with(translation, "topology.gpus-changed")
    assert "places 10 GPUs (actor 4 + critic 4 + vLLM 2)" in note.message and "on 6" in note.message


def test_is_correction_flags_follow_the_release() -> None:
    # 0.11.2 replaced --algo.advantage.is_correction_{enable,type} by level/mode/gating; its help text names the
    # schemes: TIS = token clip, ICEPOP = token mask, seq-mask-tis = seq mask.
    source = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all "
        "--rollout.n_samples_per_prompt 8 --algo.advantage.estimator group_norm --reward.remote_url /r.py "
        "--algo.advantage.is_correction_enable --algo.advantage.is_correction_type seq-mask-tis",
        "0.11.1",
    )
    text = translator.translate(source, to="openrlhf@0.11.2").files["launch.sh"]
    assert "--algo.advantage.is_correction_level seq" in text and "--algo.advantage.is_correction_mode mask" in text
    assert "is_correction_enable" not in text and "is_correction_type" not in text
    back = translator.translate(
        translator.load(Source(text, "launch.sh"), framework="openrlhf@0.11.2"), to="openrlhf@0.10.1"
    ).files["launch.sh"]
    assert "--enable_vllm_is_correction" in back and "--vllm_is_correction_type seq-mask-tis" in back


def test_ray_head_address_is_the_launch_host() -> None:
    # `ray job submit --address=http://HEAD:8265 -- python3 -m openrlhf.cli.train_ppo_ray ...`: the Ray head.
    script = (
        'ray job submit --address="http://10.1.2.3:8265" -- python3 -m openrlhf.cli.train_ppo_ray '
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all --reward.remote_url /r.py "
        "--rollout.n_samples_per_prompt 8 --algo.advantage.estimator group_norm\n"
    )
    source = translator.load(Source(script, "launch.sh"))
    assert source.spec.launch.main_process_host == "10.1.2.3"
    text = translator.translate(source, to="openrlhf@0.10.1").files["launch.sh"]
    assert "ray job submit --address=http://10.1.2.3:8265 " in text


def test_a_runtime_env_ray_cannot_parse_stops_the_job_before_it_starts() -> None:
    # Ray's job CLI json.loads --runtime-env-json before submitting (parse_runtime_env_args): "working_dir":
    # pkg/openrlhf" lacks its opening quote, so the job is never submitted; quoted, the env_vars reach the job
    job = 'ray job submit --runtime-env-json=\'{{"working_dir": {}, "env_vars": {{"A": "1"}}}}\' -- python3 -m '
    flags = "openrlhf.cli.train_ppo_ray --actor.num_gpus_per_node 8 --rollout.n_samples_per_prompt 8\n"
    with pytest.raises(ConfigError, match=r"--runtime-env-json is not JSON \(Expecting value: line 1 column 17"):
        translator.load(Source(job.format('pkg/openrlhf"') + flags, "launch.sh"), framework="openrlhf@0.9.0")
    read = translator.load(Source(job.format('"pkg/openrlhf"') + flags, "launch.sh"), framework="openrlhf@0.9.0")
    assert read.spec.plan.samples_per_prompt == 8


def test_several_datasets_need_probabilities_up_to_0_6_4() -> None:
    # blending_datasets@v0.6.4 asserts len(probabilities) == len(datasets), and --prompt_data_probs defaults to
    # "1.0": two datasets without probabilities stop the run; from 0.7.0 (default None) they are concatenated.
    line = (
        "--actor_num_gpus_per_node 8 --vllm_num_engines 8 --colocate_all_models --remote_rm_url http://rm "
        "--prompt_data a,b --advantage_estimator reinforce"
    )
    assert "data.weights-mismatch" in codes(read(line, "0.6.4"))
    later = read(line, "0.7.3")
    assert "data.weights-mismatch" not in codes(later) and later.spec.data.train_weights is None
    written = translator.translate(later, to="openrlhf@0.6.4")
    assert "--prompt_data_probs 0.5,0.5" in written.files["launch.sh"]
    assert "data.equal-probabilities" in codes(written)


def test_a_run_length_in_optimizer_steps_becomes_prompts() -> None:
    # 128 prompts × 8 = 1024 samples per step, train batch 256 → 4 optimizer steps per rollout step; a source that
    # stops after 400 optimizer steps runs 100 rollout steps = 100 × 128 = 12800 prompts in one pass.
    source = read(
        "--actor.num_gpus_per_node 8 --vllm.num_engines 8 --train.colocate_all --rollout.batch_size 128 "
        "--rollout.n_samples_per_prompt 8 --train.batch_size 256 --train.micro_batch_size 4 "
        "--algo.advantage.estimator group_norm --reward.remote_url /r.py"
    )
    source.spec.run_length.total_optimizer_steps = 400
    text = translator.translate(source, to="openrlhf@0.11.2").files["launch.sh"]
    assert "--data.max_samples 12800" in text and "--train.num_episodes 1" in text
    assert source.spec.plan.total_steps is None  # the source is left as it was


def test_an_estimator_choice_bounds_the_version() -> None:
    # --use_kl_estimator_k3 exists up to 0.6.0: with group_norm (0.6.0+) the newest fitting release is 0.6.0; with
    # dr_grpo (0.6.4+) no release has both, and the note says so.
    base = HEAD + "--actor_num_gpus_per_node 8 --vllm_num_engines 8 --use_kl_estimator_k3 --n_samples_per_prompt 4 "
    assert translator.load(Source(base + "--advantage_estimator group_norm\n", "x.sh")).spec.version == "0.6.0"
    mixed = translator.load(Source(base + "--advantage_estimator dr_grpo\n", "x.sh"))
    [note] = notes_with(mixed, "version.assumed")
    assert "no release has all of them" in note.message


def test_a_node_count_the_script_never_sets_leaves_only_the_counts_built_on_it_unknown() -> None:
    # --actor_num_nodes $NNODES (never set): the data-parallel size is unknown, and with it OpenRLHF's accumulation
    # (train_batch_size // (micro × DP), ppo_actor.py) and the optimizer steps per step it decides; the rollout
    # (64 prompts × 8 = 512 samples) and the global batch (--train_batch_size 128 samples) do not depend on it.
    text = (
        "python3 -m openrlhf.cli.train_ppo_ray --ref_num_nodes 1 --ref_num_gpus_per_node 8 "
        "--actor_num_nodes $NNODES --actor_num_gpus_per_node 8 --vllm_num_engines $ENGINES "
        "--vllm_tensor_parallel_size 1 --colocate_all_models --pretrain Qwen/Qwen2.5-7B --micro_train_batch_size 4 "
        "--train_batch_size 128 --micro_rollout_batch_size 8 --rollout_batch_size 64 --n_samples_per_prompt 8 "
        "--advantage_estimator group_norm --prompt_data data.jsonl --input_key prompt\n"
    )
    plan = translator.load(Source(text, "run.sh"), framework="openrlhf@0.8.5").plan
    assert (plan["prompts_per_step"], plan["samples_per_step"], plan["samples_per_optimizer_step"]) == (64, 512, 128)
    assert plan["data_parallel_size"] is None and plan["grad_accum_steps"] is None
    # Given the nodes: 1 × 8 GPUs = 8 ranks; 128 // (4 × 8) = 4 micro-batches per optimizer step; 512 / 128 = 4.
    given = translator.load(Source(text, "run.sh"), framework="openrlhf@0.8.5", env={"NNODES": "1", "ENGINES": "8"})
    assert (given.plan["data_parallel_size"], given.plan["grad_accum_steps"]) == (8, 4)
    assert given.plan["optimizer_steps_per_step"] == 4


COPY_LAUNCH = (
    "python3 -m openrlhf.cli.train_ppo_ray --actor_num_nodes 1 --actor_num_gpus_per_node 8 --ref_num_nodes 1 "
    "--ref_num_gpus_per_node 8 --colocate_all_models --vllm_num_engines 4 --vllm_tensor_parallel_size 2 "
    "--pretrain m --remote_rm_url r.py --n_samples_per_prompt 8 --rollout_batch_size 128 "
    "--micro_rollout_batch_size 16 --train_batch_size 128 --micro_train_batch_size 8 --prompt_data d "
    "--input_key q --advantage_estimator group_norm {extra}\n"
)


def _copy_project(root: Path, extra: str, declared: tuple[str, ...]) -> Path:
    """A project keeping its own OpenRLHF (version.txt 0.9.11 beside openrlhf/) whose train_ppo_ray parser
    declares the launch's flags and ``declared``; the launch adds ``extra``."""
    (root / ".git").mkdir(parents=True)
    (root / "version.txt").write_text("0.9.11\n")
    cli = root / "openrlhf" / "cli"
    cli.mkdir(parents=True)
    (root / "openrlhf" / "__init__.py").write_text("")
    (cli / "__init__.py").write_text("")
    flags = [w for w in COPY_LAUNCH.split() if w.startswith("--")] + list(declared)
    body = "".join(f"parser.add_argument({flag!r})\n" for flag in flags)
    (cli / "train_ppo_ray.py").write_text(
        f"import argparse\n\nparser = argparse.ArgumentParser()\n{body}args = parser.parse_args()\n"
    )
    (root / "run.sh").write_text(COPY_LAUNCH.format(extra=extra))
    return root / "run.sh"


def test_a_flag_the_projects_copy_does_not_declare_stops_the_launch(tmp_path: Path) -> None:
    # the copy's train_ppo_ray declares --enable_vllm_is_correction, not --vllm_enable_is_correction, and no option
    # starts with the latter (argparse's prefix matching): parse_args exits with "unrecognized arguments"
    script = _copy_project(tmp_path / "a", "--vllm_enable_is_correction", ("--enable_vllm_is_correction",))
    with pytest.raises(translator.ConfigError, match=r"declares no '--vllm_enable_is_correction'.*unrecognized"):
        translator.explain(str(script))
    # a flag of the copy's own, and a unique prefix of one (argparse takes --enable_vllm for the full option), read
    own = _copy_project(tmp_path / "b", "--my_flag 1 --enable_vllm", ("--my_flag", "--enable_vllm_is_correction"))
    # 128 prompts × 8 = 1024 samples, 128 per update: 8 optimizer steps per step
    assert translator.explain(str(own)).spec.plan.optimizer_steps_per_step == 8


def test_openrlhfs_other_programs_are_no_rl_launch() -> None:
    # openrlhf.cli.train_sft shares flags with the PPO entry (--pretrain, --micro_train_batch_size) but trains no RL
    # policy: no plan is read from it, and the message says which program it is
    script = (
        "read -r -d '' training_commands <<EOF\nopenrlhf.cli.train_sft \\\n   --pretrain m \\\n"
        "   --micro_train_batch_size 2\nEOF\ndeepspeed --module $training_commands\n"
    )
    with pytest.raises(translator.ConfigError, match=r"openrlhf\.cli\.train_sft is OpenRLHF's program of another kind"):
        translator.load(script, framework="openrlhf")


_OWN_ENTRY = """import argparse

from openrlhf.trainer import PPOTrainer

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rollout_batch_size", type=int, default=512)
    parser.add_argument("--micro_rollout_batch_size", type=int, default=8)
    parser.add_argument("--train_batch_size", type=int, default=128)
    parser.add_argument("--micro_train_batch_size", type=int, default=4)
    parser.add_argument("--actor_num_gpus_per_node", type=int, default=8)
    parser.add_argument("--pretrain", type=str)
    HELPER
    args = parser.parse_args()
    PPOTrainer(args).fit()
"""


@pytest.mark.parametrize(
    ("helper", "extra", "refused"),
    [
        ("", "", False),
        ("", " --pad_token '<unk>'", True),  # declared nowhere: parse_args() exits before training
        ("", " --pretr m2", False),  # a unique prefix of --pretrain: argparse's allow_abbrev takes it
        ("add_more_arguments(parser)", " --pad_token '<unk>'", False),  # a helper may declare it: not certain
    ],
)
def test_a_flag_the_projects_own_entry_script_never_declares_stops_the_launch(
    tmp_path: Path, helper: str, extra: str, refused: bool
) -> None:
    # examples/train_ppo.py builds its parser in that file alone and calls parse_args(), whose 'unrecognized
    # arguments' error ends the run at start-up for any other flag
    (tmp_path / ".git").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "train_ppo.py").write_text(_OWN_ENTRY.replace("HELPER", helper or "pass"))
    (tmp_path / "run.sh").write_text(
        "python3 examples/train_ppo.py --rollout_batch_size 64 --micro_rollout_batch_size 8 --train_batch_size 32 "
        f"--micro_train_batch_size 4 --actor_num_gpus_per_node 2 --pretrain m{extra}\n"
    )
    if refused:
        with pytest.raises(ConfigError, match=r"declares no --pad_token: .*unrecognized arguments: --pad_token"):
            translator.explain(str(tmp_path / "run.sh"), "openrlhf@0.7.5")
    else:
        # 64 prompts per step, one sample each: 64 samples, 32 per update (the global train batch)
        plan = translator.explain(str(tmp_path / "run.sh"), "openrlhf@0.7.5").spec.plan
        assert (plan.prompts_per_step, plan.samples_per_optimizer_step) == (64, 32)


_STRAY_LAUNCH = (
    'ARGS="--actor_num_nodes 1 --actor_num_gpus_per_node 8 --rollout_batch_size 64 --n_samples_per_prompt 4 '
    '--train_batch_size 64 --micro_train_batch_size 2 --micro_rollout_batch_size 4 --use_wandb *"\n'
    "python3 -m {entry} $ARGS\n"
)


@pytest.mark.parametrize(("pattern", "refused"), [("*", True), ("*.parquet", False)])
def test_a_glob_an_unquoted_expansion_leaves_is_expanded_and_its_files_stop_argparse(
    tmp_path: Path, pattern: str, refused: bool
) -> None:
    # `--use_wandb *` inside $ARGS, expanded unquoted: bash splits it and expands `*` to the folder's files, sorted
    # (a.txt b.txt run.sh; not .git), so --use_wandb takes a.txt and b.txt and run.sh are left over:
    # train_ppo_ray's parse_args() stops ("unrecognized arguments: b.txt run.sh"). A pattern no file matches
    # stays as written (bash without nullglob): --use_wandb '*.parquet', and the launch reads.
    (tmp_path / ".git").mkdir()
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("")
    script = tmp_path / "run.sh"
    script.write_text(_STRAY_LAUNCH.format(entry="openrlhf.cli.train_ppo_ray").replace("*", pattern))
    if refused:
        with pytest.raises(translator.ConfigError, match=r"unrecognized arguments: b\.txt run\.sh\)") as error:
            translator.explain(str(script))
        assert error.value.line == 2
    else:
        assert translator.explain(str(script)).plan["samples_per_prompt"] == 4


@pytest.mark.parametrize(("declares", "refused"), [("", True), ("parser.add_argument('inputs', nargs='*')\n", False)])
def test_a_projects_entry_whose_parser_takes_no_positional_stops_on_a_stray_word(
    tmp_path: Path, declares: str, refused: bool
) -> None:
    # The project's own entry builds its parser in one file; a word no option takes (a second value of
    # --use_wandb) is left over unless the parser declares a positional argument.
    (tmp_path / ".git").mkdir()
    (tmp_path / "train.py").write_text(
        "import argparse\nparser = argparse.ArgumentParser()\n"
        + "".join(
            f"parser.add_argument('--{flag}')\n"
            for flag in (
                "actor_num_nodes",
                "actor_num_gpus_per_node",
                "rollout_batch_size",
                "n_samples_per_prompt",
                "train_batch_size",
                "micro_train_batch_size",
                "micro_rollout_batch_size",
                "use_wandb",
            )
        )
        + declares
        + "args = parser.parse_args()\n"
    )
    script = tmp_path / "run.sh"
    script.write_text(_STRAY_LAUNCH.format(entry="train").replace("*", "key extra"))
    if refused:
        with pytest.raises(translator.ConfigError, match="takes no positional argument"):
            translator.explain(str(script), framework="openrlhf")
    else:
        translator.explain(str(script), framework="openrlhf")
