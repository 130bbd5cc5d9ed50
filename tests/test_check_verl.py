"""`rlconf check` for verl: each rule against a hand-derived violation, its suggestions re-checked.

Every expectation below is worked out from docs/frameworks/verl.md (and the release sources it cites),
never from rlconf's output: the comment of each case says why verl rejects or silently changes the config.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.conftest import CASES, FIXTURES, Case, findings_of
from translator import check
from translator.checks import CheckReport
from translator.cli import main
from translator.sources.files import Source

AR = "actor_rollout_ref"
ACTOR, ROLLOUT, REF = f"{AR}.actor", f"{AR}.rollout", f"{AR}.ref"

# A valid GRPO run on one node of 8 GPUs: 256 prompts × n 8 = 2048 samples (2048 % 8 = 0); mini 64 × 8 = 512
# samples (512 / 8 DP = 64 per rank, 64 % micro 8 = 0); rollout TP 2 divides 8; KL loss → a reference model.
BASE: dict[str, Any] = {
    "algorithm.adv_estimator": "grpo",
    "data.train_batch_size": 256,
    "data.max_prompt_length": 512,
    "data.max_response_length": 1024,
    f"{AR}.model.path": "Qwen/Qwen2.5-7B-Instruct",
    f"{ACTOR}.ppo_mini_batch_size": 64,
    f"{ACTOR}.ppo_micro_batch_size_per_gpu": 8,
    f"{ACTOR}.use_kl_loss": True,
    f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu": 16,
    f"{REF}.log_prob_micro_batch_size_per_gpu": 16,
    f"{ROLLOUT}.name": "vllm",
    f"{ROLLOUT}.tensor_model_parallel_size": 2,
    f"{ROLLOUT}.n": 8,
    "trainer.n_gpus_per_node": 8,
    "trainer.nnodes": 1,
}


def hydra(value: Any) -> str:
    if value is None:
        return "null"
    return str(value)


def render(settings: dict[str, Any]) -> str:
    """A launch line as verl users write it: one Hydra override per setting."""
    return "python3 -m verl.trainer.main_ppo " + " ".join(f"{k}={hydra(v)}" for k, v in settings.items())


def run(settings: dict[str, Any], version: str) -> CheckReport:
    return check(Source(render(settings), "launch.sh"), framework=f"verl@{version}")


@dataclass
class Violation:
    name: str
    version: str
    changes: dict[str, Any]  # applied to BASE
    rule: str
    severity: str
    message: str
    why: str  # the framework's reason, with the reference section
    drop: tuple[str, ...] = ()  # BASE keys to leave out
    extra_rules: set[str] = field(default_factory=set)  # other findings the config is expected to have

    def settings(self) -> dict[str, Any]:
        settings = {k: v for k, v in BASE.items() if k not in self.drop}
        settings.update(self.changes)
        return settings


# verl 0.9's separate_async on top of BASE (trainer_separate_async.py@v0.9.1
# __init__): 256 prompts = parameter_sync_step
# 4 × mini 64, a standalone rollout pool of 1 × 8 GPUs, and a weight-transfer backend other than the default naive.
V1 = "trainer.v1"
SEPARATE: dict[str, Any] = {
    f"{V1}.trainer_mode": "separate_async",
    f"{V1}.separate_async.parameter_sync_step": 4,
    f"{ROLLOUT}.nnodes": 1,
    f"{ROLLOUT}.n_gpus_per_node": 8,
    f"{ROLLOUT}.checkpoint_engine.backend": "nccl",
}

VIOLATIONS = [
    # §2.6 trainer_separate_async.py@v0.9.1 __init__: each local update is exactly one mini-batch; 4 × 32 = 128 ≠ 256.
    Violation(
        "separate-async-batch",
        "0.9.1",
        {**SEPARATE, f"{ACTOR}.ppo_mini_batch_size": 32},
        "verl.separate-async-batch",
        "error",
        "train_batch_size must equal parameter_sync_step * ppo_mini_batch_size in separate async training, but "
        "got train_batch_size=256, parameter_sync_step=4, ppo_mini_batch_size=32",
        "PPOTrainerSeparateAsync assert",
    ),
    # §2.6: rollout.nnodes defaults to 0; separate_async needs a standalone pool.
    Violation(
        "separate-async-pool",
        "0.9.1",
        {k: v for k, v in SEPARATE.items() if k != f"{ROLLOUT}.nnodes"},
        "verl.separate-async-rollout-pool",
        "error",
        "nnodes must be > 0 in separate async training",
        "PPOTrainerSeparateAsync assert",
    ),
    # §2.6: checkpoint_engine.backend defaults to naive, which cannot reach a separate pool (0.9.0 too).
    Violation(
        "separate-async-backend",
        "0.9.0",
        {k: v for k, v in SEPARATE.items() if k != f"{ROLLOUT}.checkpoint_engine.backend"},
        "verl.separate-async-backend",
        "error",
        "please use nccl/nixl/mooncake, etc. backend for separate async training",
        "PPOTrainerSeparateAsync assert",
    ),
    # §2.6 trainer_base.py@v0.9.1 get_trainer_cls: 'async' is no registered trainer.
    Violation(
        "trainer-mode",
        "0.9.1",
        {f"{V1}.trainer_mode": "async"},
        "verl.trainer-mode",
        "error",
        "Unknown trainer 'async'. Available trainers: colocate_async, separate_async, sync.",
        "get_trainer_cls",
    ),
    # §2.6 replay_buffer.py ReplayBuffer.__init__ (built in every v1 mode): a positive threshold; 0.9.1 also takes null.
    Violation(
        "off-policy-threshold",
        "0.9.1",
        {f"{V1}.sampler.max_off_policy_threshold": 0},
        "verl.off-policy-threshold",
        "error",
        "Invalid max off policy threshold: 0, must be an integer greater "
        "than 0, or null to disable off-policy version control",
        "ReplayBuffer assert",
    ),
    Violation(
        "off-policy-threshold-null-0.9.0",
        "0.9.0",
        {f"{V1}.sampler.max_off_policy_threshold": None},
        "verl.off-policy-threshold",
        "error",
        "Invalid max off policy threshold: None, must be an integer greater than 0",
        "ReplayBuffer assert (0.9.0)",
    ),
    Violation(
        "off-policy-strategy",
        "0.9.1",
        {f"{V1}.sampler.max_off_policy_strategy": "lifo"},
        "verl.off-policy-strategy",
        "error",
        "Invalid max off policy strategy: lifo, must be one of ['drop', 'wait']",
        "ReplayBuffer assert",
    ),
    # §3.1 #2: real_train_batch_size = 250 × 5 = 1250; FSDP minimal_bsz = N = 8 GPUs; 1250 % 8 = 2.
    # (250 % mini 64 also leaves a padded last mini-batch: a warning in 0.9.)
    Violation(
        "real-batch",
        "0.9.1",
        {"data.train_batch_size": 250, f"{ROLLOUT}.n": 5},
        "verl.real-batch-divisible",
        "error",
        "real_train_batch_size (1250) must be divisible by minimal possible batch size (8)",
        "validate_config asserts (train_batch_size × n) % n_gpus == 0",
        extra_rules={"verl.mini-batch-remainder"},
    ),
    # §3.3: 0.3.0 checks the same against all GPUs with its own wording.
    Violation(
        "real-batch-0.3",
        "0.3.0",
        {"data.train_batch_size": 250, f"{ROLLOUT}.n": 5},
        "verl.real-batch-divisible",
        "error",
        "real_train_batch_size (1250) must be divisible by total n_gpus (8).",
        "0.3 _validate_config: real_train_batch_size % n_gpus",
        extra_rules={"verl.mini-batch-remainder"},
    ),
    # §3.1 #1: Megatron TP 3 × PP 1 × CP 1 does not divide 8 GPUs.
    Violation(
        "megatron",
        "0.9.1",
        {"model_engine": "megatron", f"{ACTOR}.megatron.tensor_model_parallel_size": 3},
        "verl.megatron-parallel-divisible",
        "error",
        "n_gpus (8) must be divisible by model_parallel_size (3) times context_parallel_size (1)",
        "validate_config asserts N % (TP·PP·CP) == 0 for the Megatron actor",
    ),
    # §3.1 ActorConfig.__post_init__: both the deprecated global micro-batch and the per-GPU one are set.
    Violation(
        "actor-both",
        "0.9.1",
        {f"{ACTOR}.ppo_micro_batch_size": 64},
        "verl.micro-batch-both-set",
        "error",
        "[actor] You have set both 'actor.ppo_micro_batch_size' AND 'actor.ppo_micro_batch_size_per_gpu'. "
        "Please remove 'actor.ppo_micro_batch_size' because only '*_ppo_micro_batch_size_per_gpu' is supported "
        "(the former is deprecated).",
        "mutually exclusive micro-batch keys",
    ),
    # 0.4.1 _validate_config, ref section (KL loss → reference model): its message lacks a space ("'is").
    Violation(
        "ref-both-0.4",
        "0.4.1",
        {f"{REF}.log_prob_micro_batch_size": 128},
        "verl.micro-batch-both-set",
        "error",
        f"[{REF}] You have set both '{REF}.log_prob_micro_batch_size' AND "
        f"'{REF}.log_prob_micro_batch_size_per_gpu'. Please remove '{REF}.log_prob_micro_batch_size' because "
        "only '*_log_prob_micro_batch_size_per_gpu'is supported (the former is deprecated).",
        "check_mutually_exclusive in 0.4.1 ray_trainer",
    ),
    # §3.1 #4: without dynamic batch sizes the rollout (old log-prob) micro-batch must be set.
    Violation(
        "rollout-missing",
        "0.9.1",
        {},
        "verl.micro-batch-missing",
        "error",
        f"[{ROLLOUT}] Please set at least one of '{ROLLOUT}.log_prob_micro_batch_size' or "
        f"'{ROLLOUT}.log_prob_micro_batch_size_per_gpu'.",
        "validate_config check_mutually_exclusive",
        drop=(f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu",),
    ),
    # §3.1 ActorConfig.validate: 32 prompts per step cannot hold a 64-prompt mini-batch.
    Violation(
        "mini-gt-train",
        "0.9.1",
        {"data.train_batch_size": 32},
        "verl.mini-batch-larger-than-train",
        "error",
        "train_batch_size (32) must be >= actor.ppo_mini_batch_size (64)",
        "ActorConfig.validate",
    ),
    # §3.3: ≤ 0.5 the same check is a bare assert in _validate_config.
    Violation(
        "mini-gt-train-0.5",
        "0.5.0",
        {"data.train_batch_size": 32},
        "verl.mini-batch-larger-than-train",
        "error",
        "AssertionError: assert config.data.train_batch_size >= "
        "config.actor_rollout_ref.actor.ppo_mini_batch_size (32 < 64)",
        "bare assert before 0.6",
    ),
    # §3.2 engine_workers: mini 3 × n 5 = 15 samples over 8 DP ranks; the engine asserts divisibility.
    # 24 × 5 = 120 % 8 = 0 and 24 % 3 = 0, micro 1 divides anything: only this rule breaks.
    Violation(
        "mini-dp",
        "0.9.1",
        {
            "data.train_batch_size": 24,
            f"{ROLLOUT}.n": 5,
            f"{ACTOR}.ppo_mini_batch_size": 3,
            f"{ACTOR}.ppo_micro_batch_size_per_gpu": 1,
        },
        "verl.mini-batch-dp-divisible",
        "error",
        "Got mini_batch_size=15 and self.engine.get_data_parallel_size()=8",
        "TrainingWorker.train_mini_batch asserts mini_batch_size % dp == 0",
    ),
    # §2.1: the legacy workers floor 15 // 8 = 1 sample per rank: 8 samples per update, not 15.
    Violation(
        "mini-floor",
        "0.7.1",
        {
            "data.train_batch_size": 24,
            f"{ROLLOUT}.n": 5,
            f"{ACTOR}.ppo_mini_batch_size": 3,
            f"{ACTOR}.ppo_micro_batch_size_per_gpu": 1,
        },
        "verl.mini-batch-floor-division",
        "warning",
        "ppo_mini_batch_size 3 × rollout.n 5 = 15 samples do not split over 8 data-parallel ranks: "
        "verl ≤ 0.7 floors it to 1 per rank, so an optimizer step uses 8 samples, not 15",
        "fsdp_workers: ppo_mini_batch_size //= dp, no divisibility assert",
    ),
    # §2.1: 1 × 5 = 5 samples // 8 ranks = 0, which the legacy worker asserts against.
    Violation(
        "mini-zero",
        "0.7.1",
        {
            "data.train_batch_size": 8,
            f"{ROLLOUT}.n": 5,
            f"{ACTOR}.ppo_mini_batch_size": 1,
            f"{ACTOR}.ppo_micro_batch_size_per_gpu": 1,
        },
        "verl.mini-batch-zero",
        "error",
        "ppo_mini_batch_size 0 should be larger than 0 after normalization",
        "assert ppo_mini_batch_size > 0",
    ),
    # §2.1: local mini = 64 × 8 / 8 = 64 samples; 64 % micro 24 = 16.
    Violation(
        "micro-legacy",
        "0.7.1",
        {f"{ACTOR}.ppo_micro_batch_size_per_gpu": 24},
        "verl.micro-batch-divides-mini",
        "error",
        "normalized ppo_mini_batch_size 64 should be divisible by ppo_micro_batch_size_per_gpu 24",
        "legacy fsdp_workers assert",
    ),
    # §3.2 engine/utils.py:125 (0.9): the same split asserted by the engine, without numbers in the text.
    Violation(
        "micro-engine",
        "0.9.1",
        {f"{ACTOR}.ppo_micro_batch_size_per_gpu": 24},
        "verl.micro-batch-divides-mini",
        "error",
        "data size must be divisible by force_group_size * micro_batch_size_per_gpu",
        "prepare_micro_batches assert",
    ),
    # engine/utils.py@v0.8.0 prepare_micro_batches: the same assert from 0.7.1 on (0.8's default engine workers).
    Violation(
        "micro-engine-0.8",
        "0.8.0",
        {f"{ACTOR}.ppo_micro_batch_size_per_gpu": 24},
        "verl.micro-batch-divides-mini",
        "error",
        "data size must be divisible by force_group_size * micro_batch_size_per_gpu",
        "prepare_micro_batches assert",
    ),
    # §1 / §3.2: rollout TP 3 × DP 1 × PP 1 does not divide the 8 colocated GPUs.
    Violation(
        "rollout-tp",
        "0.9.1",
        {f"{ROLLOUT}.tensor_model_parallel_size": 3},
        "verl.rollout-tp-divisible",
        "error",
        "rollout world_size: 8 is not divisible by infer_world_size: 3",
        "the worker builds the rollout mesh",
    ),
    # ≤ 0.5 the rollout mesh is (dp, infer_tp) and says so.
    Violation(
        "rollout-tp-0.5",
        "0.5.0",
        {f"{ROLLOUT}.tensor_model_parallel_size": 3},
        "verl.rollout-tp-divisible",
        "error",
        "rollout world_size: 8 is not divisible by infer_tp: 3",
        "0.5 fsdp_workers._build_rollout",
    ),
    # §3.1 ActorConfig.__post_init__: seq-mean is not a loss_agg_mode.
    Violation(
        "loss-agg",
        "0.9.1",
        {f"{ACTOR}.loss_agg_mode": "seq-mean"},
        "verl.loss-agg-mode",
        "error",
        "Invalid loss_agg_mode: seq-mean",
        "valid modes list",
    ),
    # token-sum is new in 0.9: 0.8 still rejects it.
    Violation(
        "loss-agg-0.8",
        "0.8.0",
        {f"{ACTOR}.loss_agg_mode": "token-sum"},
        "verl.loss-agg-mode",
        "error",
        "Invalid loss_agg_mode: token-sum",
        "four modes before 0.9",
    ),
    # §3.1 core_algos: dual-clip bound must exceed 1 (asserted in the first policy-loss computation).
    Violation(
        "clip-c",
        "0.9.1",
        {f"{ACTOR}.clip_ratio_c": 1.0},
        "verl.clip-ratio-c",
        "error",
        "The lower bound of the clip_ratio_c for dual-clip PPO should be greater than 1.0, but get the value: 1.0.",
        "compute_policy_loss assert",
    ),
    # §5: rollout.name is ??? (mandatory) since 0.6.
    Violation(
        "rollout-name",
        "0.9.1",
        {},
        "verl.rollout-name-missing",
        "error",
        f"Missing mandatory value: {ROLLOUT}.name",
        "OmegaConf MISSING",
        drop=(f"{ROLLOUT}.name",),
    ),
    # §5 GRPO math: n = 1 gives groups of one (mean 0, std 1): no baseline; verl accepts it.
    Violation(
        "grpo-n1",
        "0.9.1",
        {f"{ROLLOUT}.n": 1},
        "verl.group-size-one",
        "warning",
        "algorithm.adv_estimator=grpo with rollout.n=1: each group holds one sample, which verl scores against "
        "mean 0 (and std 1), so there is no group baseline",
        "compute_grpo_outcome_advantage",
    ),
    # §3.1 ActorConfig.validate: deprecated global micro 4 (samples) × sp 1 < 8 GPUs.
    Violation(
        "deprecated-micro",
        "0.6.1",
        {f"{ACTOR}.ppo_micro_batch_size": 4},
        "verl.deprecated-micro-too-small",
        "error",
        "ppo_micro_batch_size (4) * ulysses_sequence_parallel_size (1) must be >= n_gpus (8)",
        "ActorConfig.validate",
        drop=(f"{ACTOR}.ppo_micro_batch_size_per_gpu",),
    ),
    # §2.1: 0.8 engine workers no longer convert the global micro-batch; they assert the per-GPU key.
    Violation(
        "deprecated-0.8",
        "0.8.0",
        {f"{ACTOR}.ppo_micro_batch_size": 64},
        "verl.deprecated-micro-batch-unsupported",
        "error",
        "AssertionError: assert self.config.actor.ppo_micro_batch_size_per_gpu is not None",
        "engine_workers assert",
        drop=(f"{ACTOR}.ppo_micro_batch_size_per_gpu",),
    ),
    # §3.1 FSDPActorConfig.validate: Ulysses 2 without remove-padding (default False before 0.7).
    Violation(
        "sp-padding",
        "0.6.1",
        {f"{ACTOR}.ulysses_sequence_parallel_size": 2},
        "verl.sequence-parallel-remove-padding",
        "error",
        "When using sequence parallelism for actor/ref policy, you must enable `use_remove_padding`.",
        "FSDPActorConfig.validate",
    ),
    # §3.2 v1 trainer: 256 prompts are fetched in whole gen_batch_size pieces; 256 % 96 = 64.
    Violation(
        "gen-batch",
        "0.9.1",
        {"data.gen_batch_size": 96},
        "verl.gen-batch-divisible",
        "error",
        "num_prompts (256) must be a positive multiple of gen_batch_size (96); it is submitted in whole "
        "gen_batch_size dataloader fetches.",
        "trainer_base assert",
    ),
    # §3.1 #6: sampled validation at temperature 0.
    Violation(
        "val-temperature",
        "0.9.1",
        {f"{ROLLOUT}.val_kwargs.do_sample": True, f"{ROLLOUT}.temperature": 0},
        "verl.validation-temperature",
        "error",
        "validation gen temperature should be greater than 0 when enabling do_sample",
        "validate_config",
    ),
    # §8: the engine clips with optim.clip_grad; actor.grad_clip is read by nothing in 0.8+.
    Violation(
        "grad-clip",
        "0.8.0",
        {f"{ACTOR}.grad_clip": 0.5},
        "verl.grad-clip-ignored",
        "warning",
        "actor.grad_clip 0.5 is read by nothing in verl 0.8.0; the engine clips with actor.optim.clip_grad (1.0)",
        "dead key in the engine",
    ),
    # §8: clip_ratio is only a fallback once clip_ratio_low/high exist (0.4+, defaults 0.2/0.2).
    Violation(
        "clip-ratio",
        "0.7.1",
        {f"{ACTOR}.clip_ratio": 0.3},
        "verl.clip-ratio-ignored",
        "warning",
        "actor.clip_ratio 0.3 has no effect: clip_ratio_low/high (0.2/0.2) take precedence since verl 0.4",
        "vanilla loss reads clip_ratio_low/high",
    ),
]


@pytest.mark.parametrize("case", VIOLATIONS, ids=lambda v: v.name)
def test_violation_is_found_and_each_suggestion_fixes_it(case: Violation) -> None:
    settings = case.settings()
    report = run(settings, case.version)
    found = findings_of(report, case.rule)
    assert len(found) == 1, (case.why, report.to_dict())
    item = found[0]
    assert item.severity == case.severity
    assert item.message == case.message
    assert set(item.keys) <= set(item.values)
    others = {f.rule for f in report.errors + report.warnings} - {case.rule}
    assert others <= case.extra_rules, others
    assert item.suggestions, "every rule suggests at least one fix"
    for suggestion in item.suggestions:
        fixed = run({**settings, **suggestion.changes}, case.version)
        assert not findings_of(fixed, case.rule), (suggestion, fixed.to_dict())
        assert not fixed.errors, (suggestion, fixed.to_dict())


def test_real_batch_suggestions_keep_the_gpus_and_offer_two_ways() -> None:
    # 250 × 5 % 8: change the prompts (256 also clears the padded last mini-batch) or the group size.
    report = run({**BASE, "data.train_batch_size": 250, f"{ROLLOUT}.n": 5}, "0.9.1")
    item = findings_of(report, "verl.real-batch-divisible")[0]
    assert [s.changes for s in item.suggestions] == [{"data.train_batch_size": 256}, {f"{ROLLOUT}.n": 4}]
    assert "8 GPUs" in item.suggestions[0].text and "250 prompts per step" in item.suggestions[1].text


def test_group_size_suggestion_keeps_samples_per_step() -> None:
    # n 1 → 8 with 256 / 8 = 32 prompts and mini 64 / 8 = 8 keeps 256 samples per step and 64 per update.
    item = findings_of(run({**BASE, f"{ROLLOUT}.n": 1}, "0.9.1"), "verl.group-size-one")[0]
    first = item.suggestions[0]
    assert first.changes == {f"{ROLLOUT}.n": 8, "data.train_batch_size": 32, f"{ACTOR}.ppo_mini_batch_size": 8}
    assert "256 samples per step" in first.text and "64 samples per optimizer step" in first.text


@pytest.mark.parametrize("version", ["0.3.0", "0.4.1", "0.5.0", "0.6.1", "0.7.1", "0.8.0", "0.9.1"])
def test_valid_config_has_no_error_in_any_release(version: str) -> None:
    report = run(BASE, version)
    assert not report.errors and not report.warnings, report.to_dict()


def test_rules_follow_the_release() -> None:
    # rollout.name defaults to vllm before 0.6; dual-clip and loss_agg_mode do not exist in 0.3.
    assert not run({k: v for k, v in BASE.items() if k != f"{ROLLOUT}.name"}, "0.5.0").errors
    assert not findings_of(run({**BASE, f"{ACTOR}.clip_ratio_c": 1.0}, "0.3.0"), "verl.clip-ratio-c")
    # dynamic batch sizes skip the micro-batch and real-batch checks from 0.6 (§3.1)...
    dynamic = {**BASE, "data.train_batch_size": 250, f"{ROLLOUT}.n": 5, f"{ACTOR}.use_dynamic_bsz": True}
    assert not findings_of(run(dynamic, "0.9.1"), "verl.real-batch-divisible")
    # ...but not in 0.5, where the assert is unconditional (§3.3).
    assert findings_of(run(dynamic, "0.5.0"), "verl.real-batch-divisible")


VERL_CASES = [c for c in CASES if c.framework == "verl"]


@pytest.mark.parametrize("fixture", VERL_CASES, ids=lambda c: c.name)
def test_fixtures_check_without_exception(fixture: Case) -> None:
    report = check(str(fixture.path), **fixture.load_kwargs())
    assert report.framework == "verl"
    rules = {f.rule for f in report.errors + report.warnings}
    if fixture.name == "deprecated_global_micro":
        # The fixture sets actor.clip_ratio=0.3 alone; clip_ratio_low/high 0.2/0.2 win from 0.4 (§8).
        assert rules == {"verl.clip-ratio-ignored"}
    else:
        assert not report.errors, report.to_dict()


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.stdout


def test_cli_exit_codes_and_json(tmp_path: Path) -> None:
    clean = FIXTURES / "verl" / "grpo_fixed_micro_tp2.sh"
    assert cli(str(clean), "--from", "verl@0.7.1", "--env", "HOME=/h")[0] == 0
    broken = tmp_path / "broken.sh"
    broken.write_text(render({**BASE, f"{ROLLOUT}.tensor_model_parallel_size": 3}) + "\n")
    code, out = cli(str(broken), "--from", "verl@0.9.1", "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert {"framework", "version", "errors", "warnings"} <= set(document)
    assert document["framework"] == "verl" and document["version"] == "0.9.1"
    item = document["errors"][0]
    assert {"rule", "message", "keys", "values", "suggestions"} <= set(item)
    assert item["rule"] == "verl.rollout-tp-divisible"
    assert item["suggestions"][0]["changes"] == {f"{ROLLOUT}.tensor_model_parallel_size": 4}
    warned = FIXTURES / "verl" / "deprecated_global_micro.sh"
    assert cli(str(warned))[0] == 0
    assert cli(str(warned), "--strict")[0] == 1


def test_text_output_names_rule_and_fix(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sh"
    broken.write_text(render({**BASE, "data.train_batch_size": 32}) + "\n")
    code, out = cli(str(broken), "--from", "verl@0.9.1")
    assert code == 1
    assert "error [verl.mini-batch-larger-than-train] train_batch_size (32) must be >= " in out
    assert f"fix: {ACTOR}.ppo_mini_batch_size=32" in out


def test_a_yaml_config_is_checked_too(tmp_path: Path) -> None:
    # The same rule through a Hydra YAML config (nested keys, quoted 'n').
    config = {
        "data": {"train_batch_size": 250},
        "actor_rollout_ref": {
            "actor": {"ppo_mini_batch_size": 50, "ppo_micro_batch_size_per_gpu": 10},
            "rollout": {"n": 5, "name": "vllm", "log_prob_micro_batch_size_per_gpu": 10},
        },
        "algorithm": {"adv_estimator": "grpo"},
        "trainer": {"n_gpus_per_node": 8, "nnodes": 1},
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    report = check(str(path), framework="verl@0.9.1")
    assert [f.rule for f in report.errors] == ["verl.real-batch-divisible", "verl.mini-batch-dp-divisible"]


# verl's fully asynchronous trainer (docs/frameworks/verl.md §2.7): the rollouter's start-up asserts,
# fully_async_rollouter.py@v0.9.1:350-356. A valid run: train_batch_size 0, gen_batch_size 1, no hybrid engine.
FULLY_ASYNC: dict[str, Any] = {
    **BASE,
    "data.train_batch_size": 0,
    "data.gen_batch_size": 1,
    f"{AR}.hybrid_engine": False,
    "rollout.nnodes": 1,
    "rollout.n_gpus_per_node": 8,
    "async_training.staleness_threshold": 0.5,
    "async_training.trigger_parameter_sync_step": 4,
}
FULLY_ASYNC_ENTRY = "python3 -m verl.experimental.fully_async_policy.fully_async_main "


def run_fully_async(settings: dict[str, Any]) -> CheckReport:
    line = FULLY_ASYNC_ENTRY + " ".join(f"{k}={hydra(v)}" for k, v in settings.items())
    return check(Source(line, "launch.sh"), framework="verl@0.9.1")


def test_a_valid_fully_async_run_breaks_no_rule() -> None:
    # train_batch_size 0 < ppo_mini_batch_size 64 is no error: fully_async_main runs no validate_config.
    report = run_fully_async(FULLY_ASYNC)
    assert not report.errors and not report.warnings, report.to_dict()


@pytest.mark.parametrize(
    "changes,rule,message",
    [
        ({"data.train_batch_size": 256}, "verl.fully-async-train-batch", "train_batch_size must be zero"),
        ({"data.gen_batch_size": 4}, "verl.fully-async-gen-batch", "gen_batch_size must be one"),
        (
            {f"{AR}.hybrid_engine": True},
            "verl.fully-async-hybrid-engine",
            "AssertionError: assert not self.hybrid_engine (the fully asynchronous trainer needs "
            "actor_rollout_ref.hybrid_engine=False)",
        ),
        (
            {"async_training.staleness_threshold": -0.1},
            "verl.fully-async-staleness",
            "staleness_threshold must larger than 0",
        ),
        (
            {"async_training.trigger_parameter_sync_step": 0},
            "verl.fully-async-sync-step",
            "trigger_parameter_sync_step must larger or equal than 1",
        ),
        ({f"{ROLLOUT}.calculate_log_probs": False}, "verl.fully-async-log-probs", "must rollout calculate log_probs"),
    ],
    ids=lambda x: x if isinstance(x, str) and x.startswith("verl.") else None,
)
def test_fully_async_start_up_asserts(changes: dict[str, Any], rule: str, message: str) -> None:
    settings = {**FULLY_ASYNC, **changes}
    report = run_fully_async(settings)
    found = findings_of(report, rule)
    assert len(found) == 1 and found[0].message == message, report.to_dict()
    assert {f.rule for f in report.errors} == {rule}
    for suggestion in found[0].suggestions:
        assert not run_fully_async({**settings, **suggestion.changes}).errors, suggestion


def test_the_default_train_batch_size_is_refused_by_the_fully_async_rollouter() -> None:
    # fully_async_ppo_trainer.yaml@v0.9.1 keeps ppo_trainer's data.train_batch_size 1024; the rollouter asserts 0.
    settings = {k: v for k, v in FULLY_ASYNC.items() if k != "data.train_batch_size"}
    assert findings_of(run_fully_async(settings), "verl.fully-async-train-batch")


def test_a_rule_whose_value_is_not_given_is_skipped_not_judged(tmp_path: Path) -> None:
    # data.train_batch_size comes from $BS, which the script never sets: verl 0.4.1's assert
    # train_batch_size >= ppo_mini_batch_size (docs/frameworks/verl.md §3.1) cannot be judged, so the rule is
    # skipped, naming what to pass, instead of judging a stand-in (0 < 64 would be a false error).
    script = tmp_path / "run.sh"
    overrides = " ".join(f"{k}={v}" for k, v in {**BASE, "data.train_batch_size": "$BS"}.items())
    script.write_text(f"python3 -m verl.trainer.main_ppo {overrides}\n")
    report = check(script, framework="verl@0.4.1")
    assert not report.errors
    skipped = [s for s in report.skipped if s.rule == "verl.mini-batch-larger-than-train"]
    assert skipped and "data.train_batch_size" in skipped[0].needs and "--env BS=VALUE" in skipped[0].hint
    # Given a value below the mini-batch (32 < 64 prompts), verl's assert fails.
    given = check(script, framework="verl@0.4.1", env={"BS": "32"})
    assert [f.rule for f in given.errors] == ["verl.mini-batch-larger-than-train"]


def test_the_06_engine_runs_a_short_last_micro_batch() -> None:
    # engine/utils.py@v0.6.1 (use_legacy_worker_impl=disable): data.split(24) of a rank's 64 samples (64 prompts × 8
    # ÷ 8 ranks) gives 24, 24 and 16, with no assert: a warning, not an error. (Not among VIOLATIONS: the oracle
    # composes those at the installed release, whose config has no use_legacy_worker_impl.)
    settings = {**BASE, f"{ACTOR}.ppo_micro_batch_size_per_gpu": 24, "trainer.use_legacy_worker_impl": "disable"}
    report = run(settings, "0.6.1")
    found = [f for f in report.errors + report.warnings if f.rule == "verl.micro-batch-divides-mini"]
    assert [(f.severity, f.message) for f in found] == [
        ("warning", "64 samples per rank do not split into micro-batches of 24: the engine runs 2 of 24 and one of 16")
    ]
