"""`rlconf check` for EasyR1: each rule against a hand-derived violation, its suggestions re-checked.

Expectations come from EasyR1's sources at each band's commit (docs/frameworks/easyr1.md "Checks" names the
file of each message), band by band; never from rlconf's output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import CASES, Case, findings_of
from translator import check
from translator.checks import CheckReport
from translator.cli import main
from translator.frameworks.easyr1.checks import View, detect
from translator.frameworks.easyr1.tables import FEB, MARCH
from translator.sources.files import Source

ACTOR, CRITIC, ROLLOUT = "worker.actor", "worker.critic", "worker.rollout"
BANDS = (FEB, MARCH, "0.3.0", "0.3.1", "0.3.2", "0.3.3.dev0")

# A valid GRPO run on 8 GPUs: 128 prompts × n 4 = 512 samples (512 % 8 = 0; 128 prompts % 8 = 0); global
# 32 prompts × 4 = 128 samples → 16 per device, % micro 4 = 0; 512 % experience micro 8 = 0; 128 % 32 = 0;
# rollout TP 2 divides 8; 1024 + 2048 tokens ≤ max_num_batched_tokens 8192.
BASE: dict[str, Any] = {
    "data.rollout_batch_size": 128,
    "data.max_prompt_length": 1024,
    "data.max_response_length": 2048,
    f"{ACTOR}.model.model_path": "Qwen/Qwen2.5-7B-Instruct",
    f"{ACTOR}.global_batch_size": 32,
    f"{ACTOR}.micro_batch_size_per_device_for_update": 4,
    f"{ACTOR}.micro_batch_size_per_device_for_experience": 8,
    f"{ROLLOUT}.n": 4,
    f"{ROLLOUT}.tensor_parallel_size": 2,
    "algorithm.adv_estimator": "grpo",
    "trainer.n_gpus_per_node": 8,
    "trainer.nnodes": 1,
}
# 2 GPUs, global 3 prompts × n 3 = 9 samples over 2 ranks: floored to 4 per rank (§1); 6 prompts × 3 = 18.
FLOORED = {
    "data.rollout_batch_size": 6,
    f"{ACTOR}.global_batch_size": 3,
    f"{ROLLOUT}.n": 3,
    f"{ACTOR}.micro_batch_size_per_device_for_update": 1,
    f"{ACTOR}.micro_batch_size_per_device_for_experience": 2,
    f"{ROLLOUT}.tensor_parallel_size": 1,
    "trainer.n_gpus_per_node": 2,
}


def dotlist(value: Any) -> str:
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else str(value)


def render(settings: dict[str, Any]) -> str:
    """An EasyR1 launch line without config=: dataclass defaults under the dotlist overrides."""
    return "python3 -m verl.trainer.main " + " ".join(f"{k}={dotlist(v)}" for k, v in settings.items())


def run_parts(version: str) -> dict[str, Any]:
    """What every run needs besides the batch: both data sets (always loaded) and, from 0.3.0, a reward file
    (workers/reward/function.py raises without one); before, the built-in scorer name."""
    reward = (
        {"worker.reward.compute_score": "math"}
        if version in (FEB, MARCH)
        else {"worker.reward.score_function": "./examples/score_function/math.py:compute_score"}
        if version == "0.3.0"
        else {"worker.reward.reward_function": "./examples/reward_function/math.py:compute_score"}
    )
    return {"data.train_files": "hiyouga/math12k@train", "data.val_files": "hiyouga/math12k@test", **reward}


def run(settings: dict[str, Any], version: str) -> CheckReport:
    return check(Source(render({**run_parts(version), **settings}), "launch.sh"), framework=f"easyr1@{version}")


@dataclass
class Violation:
    name: str
    version: str
    changes: dict[str, Any]
    rule: str
    severity: str
    message: str
    why: str
    extra_rules: set[str] = field(default_factory=set)


VIOLATIONS = [
    # §3 driver: 128 prompts % global 48 = 32; one step must be whole optimizer mini-batches.
    Violation(
        "rollout-batch",
        "0.3.2",
        {f"{ACTOR}.global_batch_size": 48},
        "easyr1.rollout-batch-divisible",
        "error",
        "Rollout batch size must be divisible by actor global batch size.",
        "ray_trainer ValueError",
    ),
    # The 2025-03 driver said it without the role.
    Violation(
        "rollout-batch-march",
        MARCH,
        {f"{ACTOR}.global_batch_size": 48},
        "easyr1.rollout-batch-divisible",
        "error",
        "Rollout batch size must be divisible by global batch size.",
        "6618637 ray_trainer",
    ),
    # With GAE the critic's global batch is checked too (128 % 48).
    Violation(
        "critic-batch",
        "0.3.2",
        {"algorithm.adv_estimator": "gae", f"{CRITIC}.global_batch_size": 48},
        "easyr1.rollout-batch-divisible",
        "error",
        "Rollout batch size must be divisible by critic global batch size.",
        "use_critic branch",
    ),
    # §3: 128 × 4 = 512 samples % experience micro 12 = 8 (a global count against a per-device size).
    Violation(
        "experience",
        "0.3.2",
        {f"{ACTOR}.micro_batch_size_per_device_for_experience": 12},
        "easyr1.experience-micro-divisible",
        "error",
        "Rollout batch size * rollout.n must be divisible by actor micro batch size for experience.",
        "ray_trainer ValueError",
    ),
    # §3: GRPO with n = 1 is rejected at the driver from 0.3.0.
    Violation(
        "grpo-n1",
        "0.3.2",
        {f"{ROLLOUT}.n": 1},
        "easyr1.group-size-one",
        "error",
        "GRPO and RLOO algorithm need `config.worker.rollout.n > 1`.",
        "ray_trainer ValueError",
    ),
    # Before 0.3.0 a group of one is scored against mean 0, std 1 (core_algos): accepted, no baseline.
    Violation(
        "grpo-n1-march",
        MARCH,
        {f"{ROLLOUT}.n": 1},
        "easyr1.group-size-one",
        "warning",
        "algorithm.adv_estimator=grpo with worker.rollout.n=1: each group holds one sample, scored against mean "
        "0 (and std 1), so there is no group baseline",
        "no driver check yet",
    ),
    # §3 fsdp_workers: 32 × 4 // 8 = 16 samples per device % micro 3 = 1.
    Violation(
        "micro-update",
        "0.3.2",
        {f"{ACTOR}.micro_batch_size_per_device_for_update": 3},
        "easyr1.micro-batch-divisible",
        "error",
        "actor global batch size per device must be divisible by the micro batch size.",
        "_init_dist_mesh",
    ),
    # The initial commit asserted the same without a message.
    Violation(
        "micro-update-feb",
        FEB,
        {f"{ACTOR}.micro_batch_size_per_device_for_update": 3},
        "easyr1.micro-batch-divisible",
        "error",
        "AssertionError: assert global_batch_size_per_device % micro_batch_size_per_device_for_update == 0 (16 % 3)",
        "b3d72a7 bare assert",
    ),
    # §3: CPU offload needs one micro-batch per optimizer step (16 per device ≠ micro 4).
    Violation(
        "cpu-offload",
        "0.3.2",
        {f"{ACTOR}.fsdp.enable_cpu_offload": True},
        "easyr1.cpu-offload-grad-accum",
        "error",
        "actor cannot use FSDP's CPU offload when gradient accumulation is enabled.",
        "_init_dist_mesh",
    ),
    # §3 _build_rollout: 8 GPUs % TP 3.
    Violation(
        "rollout-tp",
        "0.3.2",
        {f"{ROLLOUT}.tensor_parallel_size": 3},
        "easyr1.rollout-tp-divisible",
        "error",
        "rollout world size 8 is not divisible by tp size 3.",
        "ValueError since 0.3.1",
    ),
    Violation(
        "rollout-tp-feb",
        FEB,
        {f"{ROLLOUT}.tensor_parallel_size": 3},
        "easyr1.rollout-tp-divisible",
        "error",
        "rollout world_size: 8 is not divisible by tp_size: 3",
        "b3d72a7 assert",
    ),
    # §3, EasyR1#44 verbatim: 512 prompts chunked over 6 GPUs. (384 samples // 6 = 64 per device, % 4 = 0.)
    Violation(
        "equal-chunk",
        "0.3.2",
        {
            "data.rollout_batch_size": 512,
            f"{ACTOR}.global_batch_size": 128,
            f"{ROLLOUT}.n": 3,
            "trainer.n_gpus_per_node": 6,
        },
        "easyr1.equal-chunk",
        "error",
        "only support equal chunk. Got size of DataProto 512 and chunk 6.",
        "DataProto.chunk assert",
    ),
    # §3 vLLM rollout: 1024 + 8192 tokens > max_num_batched_tokens 8192 (dataclass default).
    Violation(
        "batched-tokens",
        "0.3.2",
        {"data.max_response_length": 8192},
        "easyr1.max-num-batched-tokens",
        "error",
        "max_num_batched_tokens should be greater than prompt_length + response_length.",
        "vLLMRollout init",
    ),
    # §1: 9 samples // 2 ranks = 4 per rank: an optimizer step uses 8 samples; 0.3.1 has no split assert.
    Violation(
        "floor",
        "0.3.1",
        FLOORED,
        "easyr1.mini-batch-floor-division",
        "warning",
        "global_batch_size 3 prompts × n 3 = 9 samples do not split evenly over 2 data-parallel ranks: EasyR1 "
        "floors it to 4 per rank, so an optimizer step uses 8 samples",
        "global_batch_size_per_device floor",
    ),
    # §3: from 0.3.2 DataProto.split asserts an equal split: 18 / 2 = 9 samples per rank into pieces of 4.
    Violation(
        "equal-split",
        "0.3.2",
        FLOORED,
        "easyr1.equal-split",
        "error",
        "only support equal split. Got size of DataProto 9 and split 4.",
        "protocol.py split assert",
        extra_rules={"easyr1.mini-batch-floor-division"},
    ),
    # §3: 2 rounds of 32 prompts never reach 128 without filtering; the first step raises.
    Violation(
        "rounds",
        "0.3.1",
        {"data.mini_rollout_batch_size": 32, "trainer.max_try_make_batch": 2},
        "easyr1.too-few-rounds",
        "error",
        "num_try_make_batch=2 >= max_try_make_batch=2. Generated too many. Please check your data.",
        "_make_batch_data RuntimeError",
    ),
    # §3: grpo_pass is not an AdvantageEstimator.
    Violation(
        "estimator",
        "0.3.2",
        {"algorithm.adv_estimator": "grpo_pass"},
        "easyr1.unknown-estimator",
        "error",
        "Unknown advantage estimator: grpo_pass.",
        "NotImplementedError",
    ),
]


@pytest.mark.parametrize("case", VIOLATIONS, ids=lambda v: v.name)
def test_violation_is_found_and_each_suggestion_fixes_it(case: Violation) -> None:
    settings = {**BASE, **case.changes}
    report = run(settings, case.version)
    found = findings_of(report, case.rule)
    assert len(found) == 1, (case.why, report.to_dict())
    item = found[0]
    assert (item.severity, item.message) == (case.severity, case.message)
    assert set(item.keys) <= set(item.values)
    assert {f.rule for f in report.errors + report.warnings} - {case.rule} <= case.extra_rules
    assert item.suggestions
    for suggestion in item.suggestions:
        fixed = run({**settings, **suggestion.changes}, case.version)
        assert not findings_of(fixed, case.rule), (suggestion, fixed.to_dict())
        assert not fixed.errors, (suggestion, fixed.to_dict())


def test_equal_chunk_suggests_whole_chunks_or_another_gpu_count() -> None:
    # 512 prompts: the nearest multiple of lcm(6 GPUs, global 128) = 384 is 384 or 768; or 8 / 4 GPUs per node.
    item = findings_of(
        run(
            {
                **BASE,
                "data.rollout_batch_size": 512,
                f"{ACTOR}.global_batch_size": 128,
                f"{ROLLOUT}.n": 3,
                "trainer.n_gpus_per_node": 6,
            },
            "0.3.2",
        ),
        "easyr1.equal-chunk",
    )[0]
    changes = [s.changes for s in item.suggestions]
    assert changes[0] in ({"data.rollout_batch_size": 384}, {"data.rollout_batch_size": 768})
    assert changes[1] == {"trainer.n_gpus_per_node": 8}
    assert "keeps 512 prompts per step" in item.suggestions[1].text


def test_too_small_global_batch_rule() -> None:
    # §3: 1 prompt × n 2 = 2 samples // 8 ranks = 0. The reader already refuses this config (ConfigError), so
    # the rule is exercised on the view directly.
    view = View({**BASE, f"{ACTOR}.global_batch_size": 1, f"{ROLLOUT}.n": 2, "data.rollout_batch_size": 8}, "0.3.2")
    found = [f for f in detect(view) if f.rule == "easyr1.global-batch-too-small"]
    assert [f.message for f in found] == ["actor global batch size * ulysses size must be larger than num gpus."]


@pytest.mark.parametrize("version", BANDS)
def test_valid_config_has_no_finding_in_any_band(version: str) -> None:
    report = run(BASE, version)
    assert not report.errors and not report.warnings, report.to_dict()


EASYR1_CASES = [c for c in CASES if c.framework == "easyr1"]


@pytest.mark.parametrize("fixture", EASYR1_CASES, ids=lambda c: c.name)
def test_fixtures_check_without_exception(fixture: Case) -> None:
    report = check(str(fixture.path), **fixture.load_kwargs())
    assert report.framework == "easyr1"
    if fixture.name == "v032_no_reward_function":
        # reward_function keeps its default None: workers/reward/function.py@v0.3.2 raises at start-up.
        assert [(f.rule, f.message) for f in report.errors] == [
            ("easyr1.reward-missing", "Reward function is not provided.")
        ]
    else:
        assert not report.errors, report.to_dict()


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.stdout


def test_cli_exit_codes_and_json(tmp_path: Path) -> None:
    clean, broken, warned = (tmp_path / f"{name}.sh" for name in ("clean", "broken", "warned"))
    clean.write_text(render({**run_parts("0.3.2"), **BASE}) + "\n")
    broken.write_text(
        render(
            {
                **run_parts("0.3.2"),
                **BASE,
                "trainer.n_gpus_per_node": 6,
                "data.rollout_batch_size": 512,
                f"{ACTOR}.global_batch_size": 128,
                f"{ROLLOUT}.n": 3,
            }
        )
        + "\n"
    )
    warned.write_text(render({**run_parts("0.3.1"), **BASE, **FLOORED}) + "\n")
    assert cli(str(clean), "--from", "easyr1@0.3.2")[0] == 0
    code, out = cli(str(broken), "--from", "easyr1@0.3.2", "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert (document["framework"], document["version"]) == ("easyr1", "0.3.2")
    assert document["warnings"] == []
    item = document["errors"][0]
    assert {"rule", "message", "keys", "values", "suggestions"} <= set(item)
    assert item["rule"] == "easyr1.equal-chunk" and item["values"]["trainer.n_gpus_per_node"] == 6
    assert cli(str(warned), "--from", "easyr1@0.3.1")[0] == 0
    assert cli(str(warned), "--from", "easyr1@0.3.1", "--strict")[0] == 1


@pytest.mark.parametrize(
    ("version", "key", "message"),
    [
        ("0.3.0", "worker.reward.score_function", "Score function is not provided."),
        ("0.3.1", "worker.reward.reward_function", "Reward function is not provided."),
        ("0.3.3.dev0", "worker.reward.reward_function", "Reward function is not provided."),
    ],
)
def test_missing_reward_file_is_an_error_from_0_3_0(version: str, key: str, message: str) -> None:
    # workers/reward/function.py at v0.3.0 / v0.3.1 / HEAD: the manager raises when the file key is None (its
    # default). Before 0.3.0 compute_score defaults to the built-in 'math' scorer: nothing to check.
    settings = {k: v for k, v in run_parts(version).items() if not k.startswith("worker.reward")}
    report = check(Source(render({**settings, **BASE}), "launch.sh"), framework=f"easyr1@{version}")
    found = findings_of(report, "easyr1.reward-missing")
    assert [(f.message, f.keys, f.severity) for f in found] == [(message, [key], "error")]
    assert found[0].suggestions and key in found[0].suggestions[0].changes
    march = {k: v for k, v in run_parts(MARCH).items() if not k.startswith("worker.reward")}
    assert not run({**march, **BASE}, MARCH).errors


def test_data_files_and_resume_path_rules() -> None:
    # trainer/data_loader.py builds both data sets at start-up; ray_trainer._load_checkpoint wants global_step_N.
    report = run({**BASE, "data.val_files": "", "trainer.load_checkpoint_path": "/ckpt/run/step_40"}, "0.3.2")
    assert [f.keys for f in findings_of(report, "easyr1.data-missing")] == [["data.val_files"]]
    # from 0.3.1 TrainerConfig.post_init drops a path that does not exist when the run starts (config.py@v0.3.1):
    # the stop happens only if it exists on the user's machine, so the finding warns; 0.3.0 stops on it always
    resume = findings_of(report, "easyr1.resume-path")
    assert [(f.severity, f.message.split(" (")[0]) for f in resume] == [
        ("warning", "`load_checkpoint_path` should end with `global_step_*`.")
    ]
    assert "only if the path exists when the run starts" in resume[0].message
    before = run({**BASE, "trainer.load_checkpoint_path": "/ckpt/run/step_40"}, "0.3.0")
    assert [(f.severity, f.message) for f in findings_of(before, "easyr1.resume-path")] == [
        ("error", "`load_checkpoint_path` should end with `global_step_*`.")
    ]
    fine = run({**BASE, "trainer.load_checkpoint_path": "/ckpt/run/global_step_40/"}, "0.3.2")
    assert not findings_of(fine, "easyr1.resume-path")
