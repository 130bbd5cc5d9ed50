"""EasyR1: its batch semantics by schema band, its notes, bad input, and round trips through verl and TRL.

Every expected number is worked out by hand from EasyR1's source at the band's commit (docs/frameworks/easyr1.md
names the file for each rule; a § in a comment is a numbered section of that page), never copied from
rlconf's output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import translator
from tests.conftest import CASES, FIXTURES, Case, case_id, differing, has_group, noted
from tests.test_cli import assert_input_error
from translator import dialects
from translator.api import Translation
from translator.sources.files import Source

EASYR1_CASES = [c for c in CASES if c.framework == "easyr1"]


def load(text: str, name: str = "run.sh", framework: str | None = "easyr1", **kwargs) -> translator.Explanation:
    return translator.load(Source(text, name), framework=framework, **kwargs)


def codes(explanation: translator.Explanation | Translation) -> set[str]:
    return {n.code for n in explanation.notes}


def launch(*overrides: str, base: str | None = None) -> str:
    """An EasyR1 launch line; the base YAML (if any) is given to Source as an in-memory sibling."""
    words = ["python3 -m verl.trainer.main", *([f"config={base}"] if base else []), *overrides]
    return " \\\n    ".join(words) + "\n"


# ------------------------------------------------------------------ detection and registry
def test_easyr1_is_told_apart_from_verl_by_launcher_and_keys() -> None:
    easyr1 = translator.load(Source(launch("data.rollout_batch_size=64", "worker.rollout.n=4"), "run.sh"))
    assert easyr1.framework == "easyr1"
    verl = translator.load(
        Source(
            "python3 -m verl.trainer.main_ppo data.train_batch_size=64 "
            "actor_rollout_ref.rollout.n=4 actor_rollout_ref.rollout.name=vllm\n",
            "run.sh",
        )
    )
    assert verl.framework == "verl"
    assert translator.load(Source("worker:\n  rollout:\n    n: 4\n", "c.yaml")).framework == "easyr1"
    assert translator.load(Source("actor_rollout_ref:\n  rollout:\n    n: 4\n", "c.yaml")).framework == "verl"
    # Every verl fixture is still detected as verl although EasyR1 is asked first.
    for case in CASES:
        if case.framework == "verl":
            kwargs = case.load_kwargs()
            kwargs.pop("framework")
            assert translator.load(case.path, **kwargs).framework == "verl", case.name


def test_aliases_and_registry_order() -> None:
    assert dialects.names()[0] == "easyr1" and dialects.names().index("easyr1") < dialects.names().index("verl")
    for alias in ("easyr1", "hiyouga/easyr1", "easy-r1", "EasyR1"):
        assert dialects.get(alias).name == "easyr1"
    easyr1 = dialects.get("easyr1")
    # 0.3.3 exists only as the development head; '0.2.0' names two schema bands, so it is refused.
    assert easyr1.resolve_version("0.3.3") == "0.3.3.dev0" and easyr1.resolve_version("v0.3.1") == "0.3.1"
    with pytest.raises(translator.ConfigError, match="known versions"):
        easyr1.resolve_version("0.2.0")


# ------------------------------------------------------------------ units and per-device arithmetic
def test_global_batch_size_counts_prompts_multiplied_by_n() -> None:
    # §1, EasyR1#259: 8 GPUs, global_batch_size 16, rollout.n 8 → 16 × 8 = 128 samples per update,
    # 128 // 8 = 16 per device; era micro 4 → 4 micro-batches; rollout 512 / 16 = 32 updates per step.
    explanation = load(
        launch(
            "data.rollout_batch_size=512",
            "worker.actor.global_batch_size=16",
            "worker.rollout.n=8",
            "worker.actor.micro_batch_size_per_device_for_update=4",
        ),
        framework="easyr1@0.3.1",
    )
    plan = explanation.plan
    assert plan["samples_per_optimizer_step"] == 128
    assert plan["grad_accum_steps"] == 4
    assert plan["optimizer_steps_per_step"] == 32
    assert "units.prompts-vs-samples" in codes(explanation)


def test_ulysses_divides_the_data_parallel_ranks() -> None:
    # §7 row 18 (qwen3_14b_dapo17k_dapo.sh): 8 GPUs ÷ ulysses 8 = 1 DP rank; gbs 32 × n 16 = 512 samples all on
    # that rank; 512 / 32 = 16 updates per step; 512 × 16 = 8192 samples per step; token budget (dynamic,
    # micro 1 from examples/config.yaml) = 1 × (2048 + 20480) = 22528 tokens.
    explanation = load(
        launch(
            "data.max_prompt_length=2048",
            "data.max_response_length=20480",
            "data.rollout_batch_size=512",
            "data.mini_rollout_batch_size=256",
            "worker.actor.ulysses_size=8",
            "worker.actor.global_batch_size=32",
            "worker.actor.micro_batch_size_per_device_for_update=1",
            "worker.rollout.n=16",
            "worker.rollout.tensor_parallel_size=4",
            "trainer.n_gpus_per_node=8",
        )
    )
    plan = explanation.plan
    assert plan["data_parallel_size"] == 1
    assert (plan["samples_per_step"], plan["samples_per_optimizer_step"], plan["optimizer_steps_per_step"]) == (
        8192,
        512,
        16,
    )
    assert explanation.spec.token_budget.max_tokens_per_device == 22528
    assert explanation.spec.generation.prompts_per_round == 256
    assert explanation.spec.derivations["plan.data_parallel_size"].text.endswith("÷ Ulysses 8")


@pytest.mark.parametrize(
    "version,samples,floored",
    [
        # 8 GPUs, ulysses 2 (4 DP ranks), global 9 prompts × n 4 = 36 samples (§1 formula history):
        ("0.3.0", 32, True),  # 36 // 8 × 2 = 8 per rank → 8 × 4 = 32: the floor loses 4 samples
        ("0.3.1", 36, False),  # 36 × 2 // 8 = 9 per rank → 36
        ("0.3.2", 36, False),  # 36 // (8 ÷ 2) = 9 per rank → 36
    ],
)
def test_per_device_floor_division_follows_the_band(version: str, samples: int, floored: bool) -> None:
    sp_key = "ulysses_sequence_parallel_size" if version == "0.3.0" else "ulysses_size"
    explanation = load(
        launch(
            "data.rollout_batch_size=72",
            "worker.actor.global_batch_size=9",
            "worker.rollout.n=4",
            f"worker.actor.{sp_key}=2",
            "worker.actor.micro_batch_size_per_device_for_update=1",
            "worker.actor.micro_batch_size_per_device_for_experience=1",
        ),
        framework=f"easyr1@{version}",
    )
    assert explanation.plan["data_parallel_size"] == 4
    assert explanation.plan["samples_per_optimizer_step"] == samples
    assert ("batch.floor-division" in codes(explanation)) == floored


def test_dynamic_batching_is_on_by_default_from_0_3_2() -> None:
    # §1, §1: the same line. 0.3.1 has no dynamic batching: micro 4 (dataclass default) samples, 256 × 2 // 8 = 64
    # per rank → 16 micro-batches. 0.3.2 turns the micro size into a budget: 4 × (512 + 512) = 4096 tokens.
    text = launch("worker.rollout.n=2", "trainer.n_gpus_per_node=8")
    static = load(text, framework="easyr1@0.3.1")
    assert (static.plan["micro_batch_per_device"], static.plan["grad_accum_steps"]) == (4, 16)
    dynamic = load(text, framework="easyr1@0.3.2")
    assert (dynamic.plan["micro_batch_per_device"], dynamic.plan["grad_accum_steps"]) == (None, None)
    assert dynamic.spec.token_budget.max_tokens_per_device == 4096
    assert dynamic.spec.token_budget.logprob_max_tokens_per_device == 16 * 1024
    assert "batch.token-budget" in codes(dynamic)
    off = load(
        launch("worker.rollout.n=2", "trainer.n_gpus_per_node=8", "worker.actor.dynamic_batching=false"),
        framework="easyr1@0.3.2",
    )
    assert off.plan["micro_batch_per_device"] == 4


def test_mini_rollout_batch_size_is_a_generation_round_not_the_step() -> None:
    # §1, §4: rounds of 128 prompts until ≥ 512 groups are held; the step trains on 512 prompts. 4 rounds × 128
    # = 512 exactly, so the data is read total_epochs 3 times (no wrap).
    explanation = load(
        launch(
            "data.rollout_batch_size=512",
            "data.mini_rollout_batch_size=128",
            "worker.actor.global_batch_size=128",
            "worker.rollout.n=4",
            "trainer.total_epochs=3",
        )
    )
    assert explanation.plan["prompts_per_step"] == 512
    assert explanation.spec.generation.prompts_per_round == 128
    assert explanation.spec.generation.max_rounds_per_step == 20  # trainer.max_try_make_batch default
    assert explanation.spec.run_length.dataset_passes == 3
    assert "run-length.data-wraps" not in codes(explanation)
    # 20 rounds × 16 prompts = 320 < 512: EasyR1 gives up ("Generated too many").
    few = load(
        launch(
            "data.rollout_batch_size=512",
            "data.mini_rollout_batch_size=16",
            "worker.actor.global_batch_size=128",
            "worker.rollout.n=4",
        )
    )
    assert "generation.too-few-rounds" in codes(few)


@pytest.mark.parametrize(
    "overrides,placement,coef,estimator",
    [
        # §5: one kl_coef and one kl_penalty serve whichever place use_kl_loss picks.
        (
            ["algorithm.use_kl_loss=true", "algorithm.kl_coef=0.02", "algorithm.kl_penalty=low_var_kl"],
            "loss",
            0.02,
            "k3",
        ),
        (["algorithm.use_kl_loss=false", "algorithm.kl_coef=0.02", "algorithm.kl_penalty=kl"], "reward", 0.02, "k1"),
        # disable_kl: no reference model at all, whatever the other keys say.
        (["algorithm.disable_kl=true", "algorithm.use_kl_loss=true", "algorithm.kl_coef=0.02"], "none", 0.0, None),
        # dataclass defaults: use_kl_loss false, kl_coef 1e-3, kl_penalty kl → in the reward.
        ([], "reward", 0.001, "k1"),
    ],
)
def test_kl_in_the_loss_or_the_reward(overrides: list[str], placement: str, coef: float, estimator: str | None) -> None:
    a = load(launch("worker.rollout.n=4", *overrides)).spec.algorithm
    assert (a.kl_placement, a.kl_coef, a.kl_estimator) == (placement, coef, estimator)


def test_kl_under_the_actor_before_march_24() -> None:
    # §5 history: until 93abce2 the actor had use_kl_loss (default True) / kl_loss_coef / kl_loss_type; with
    # use_kl_loss false the reward KL used algorithm.kl_coef and algorithm.kl_penalty.
    loss = load(
        launch("worker.rollout.n=4", "worker.actor.kl_loss_coef=0.05", "algorithm.kl_coef=0.5"),
        framework="easyr1@0.2.0.dev20250316",
    ).spec.algorithm
    assert (loss.kl_placement, loss.kl_coef, loss.kl_estimator) == ("loss", 0.05, "k3")
    reward = load(
        launch(
            "worker.rollout.n=4",
            "worker.actor.use_kl_loss=false",
            "worker.actor.kl_loss_coef=0.05",
            "algorithm.kl_coef=0.5",
        ),
        framework="easyr1@0.2.0.dev20250316",
    ).spec.algorithm
    assert (reward.kl_placement, reward.kl_coef, reward.kl_estimator) == ("reward", 0.5, "k1")


def test_setting_the_actor_kl_copies_in_the_current_schema_has_no_effect() -> None:
    # PPOConfig.post_init copies algorithm.{use_kl_loss,kl_coef,kl_penalty,disable_kl} into worker.actor.
    explanation = load(
        launch("worker.rollout.n=4", "worker.actor.kl_coef=0.5", "worker.actor.use_kl_loss=true"),
        framework="easyr1@0.3.2",
    )
    assert explanation.spec.algorithm.kl_placement == "reward" and explanation.spec.algorithm.kl_coef == 0.001
    ignored = [n for n in explanation.notes if n.code == "semantics.ignored-key"]
    assert {k for n in ignored for k in n.source_keys} >= {"worker.actor.kl_coef", "worker.actor.use_kl_loss"}
    assert not [e for e in explanation.spec.extras if e.key.startswith("worker.actor.kl")]


def test_clip_defaults_and_loss_modes() -> None:
    # §5: clip_ratio_high defaults to 0.3 (asymmetric since 39cab8f); before v0.3.0 one symmetric clip_ratio 0.2.
    current = load(launch("worker.rollout.n=4")).spec.algorithm
    assert (current.clip_ratio_low, current.clip_ratio_high, current.clip_ratio_dual) == (0.2, 0.3, 3.0)
    early = load(launch("worker.rollout.n=4"), framework="easyr1@0.2.0.dev20250316").spec.algorithm
    assert (early.clip_ratio_low, early.clip_ratio_high, early.clip_ratio_dual) == (0.2, 0.2, None)
    # loss_avg_mode token → token-mean, seq → seq-mean-token-mean; since 0.3.2 the micro-batch losses are
    # weighted by tokens over the whole mini-batch (optimizer_step), before they were averaged (micro_batch).
    seq = load(launch("worker.rollout.n=4", "worker.actor.loss_avg_mode=seq")).spec.algorithm
    assert (seq.loss_aggregation, seq.loss_normalizer_scope) == ("seq-mean-token-mean", "optimizer_step")
    token = load(launch("worker.rollout.n=4", "worker.actor.loss_avg_mode=token"), framework="easyr1@0.3.1")
    assert (token.spec.algorithm.loss_aggregation, token.spec.algorithm.loss_normalizer_scope) == (
        "token-mean",
        "micro_batch",
    )


def test_max_steps_counts_rollout_steps_and_overrides_epochs() -> None:
    # §4: "if specified, total_epochs is ignored"; a training step is one rollout batch.
    explanation = load(launch("worker.rollout.n=4", "trainer.max_steps=300", "trainer.total_epochs=2"))
    assert explanation.plan["total_steps"] == 300
    assert explanation.spec.run_length.dataset_passes is None
    assert "semantics.ignored-key" in codes(explanation)
    # Warmup is counted in rollout steps (one scheduler step per update_actor call, §1).
    warm = load(launch("worker.rollout.n=4", "worker.actor.optim.lr_warmup_steps=7")).spec.optimizer
    assert (warm.warmup_steps, warm.warmup_unit) == (7, "steps")


def test_the_run_length_key_the_config_names_is_read_in_either_era() -> None:
    # trainer.total_epochs became 0.3.1's name for 0.3.0's total_episodes (default 10). Read as 0.3.0 (a 0.3.1.dev0
    # copy is), a config naming total_epochs 1 runs on code that has that name: 1 pass, not total_episodes' 10
    early = load(launch("worker.rollout.n=4", "trainer.total_epochs=1"), framework="easyr1@0.3.0")
    assert early.spec.run_length.dataset_passes == 1
    assert load(launch("worker.rollout.n=4"), framework="easyr1@0.3.0").spec.run_length.dataset_passes == 10


def _project_holding(root: Path, name: str, text: str) -> Path:
    """A project at ``root`` holding one file; the path of its (not yet written) launch script."""
    (root / ".git").mkdir()
    (root / name).parent.mkdir(parents=True)
    (root / name).write_text(text)
    return root / "run.sh"


def test_a_reward_file_missing_from_its_folder_in_the_project_stops_the_read(tmp_path: Path) -> None:
    # examples/reward_function/ holds math.py only: a launch naming ./examples/reward_function/gone.py:score stops
    # at start-up (RewardConfig.post_init drops the missing file, then "Reward function is not provided.")
    script = _project_holding(tmp_path, "examples/reward_function/math.py", "def score(reports):\n    return []\n")
    script.write_text(
        launch("worker.rollout.n=4", "worker.reward.reward_function=./examples/reward_function/gone.py:score")
    )
    with pytest.raises(translator.ConfigError, match=r"gone\.py, which is not in the project"):
        translator.load(str(script), framework="easyr1@0.3.2")
    script.write_text(
        launch("worker.rollout.n=4", "worker.reward.reward_function=./examples/reward_function/math.py:score")
    )
    assert translator.load(str(script), framework="easyr1@0.3.2").spec.reward.function_name == "score"
    # a folder the project lacks as well (made by the user's setup, or a lone script) is not judged
    script.write_text(launch("worker.rollout.n=4", "worker.reward.reward_function=./rewards/mine.py:score"))
    assert translator.load(str(script), framework="easyr1@0.3.2").spec.reward.function_path == "./rewards/mine.py"
    # so is one under a folder the project holds (examples/) when the project has no copy of EasyR1's code
    script.write_text(
        launch("worker.rollout.n=4", "worker.reward.reward_function=./examples/score_function/story.py:score")
    )
    assert translator.load(str(script), framework="easyr1@0.3.2").spec.reward.function_name == "score"


def test_a_template_file_missing_from_its_folder_is_dropped_not_refused(tmp_path: Path) -> None:
    # examples/format_prompt/ holds math.jinja only: DataConfig.post_init sets a format_prompt that does not exist
    # to None (verl/trainer/config.py@v0.3.1, since 7f9d952) and the run trains on the bare prompts: the plan is
    # read, with a warning naming the file
    script = _project_holding(tmp_path, "examples/format_prompt/math.jinja", "{{ content }}\n")
    script.write_text(launch("worker.rollout.n=4", "data.format_prompt=./examples/format_prompt/gone.jinja"))
    explanation = translator.load(str(script), framework="easyr1@0.3.2")
    assert explanation.spec.plan.samples_per_prompt == 4
    warning = next(n for n in explanation.notes if n.code == "data.template-dropped")
    assert "gone.jinja" in warning.message
    script.write_text(launch("worker.rollout.n=4", "data.format_prompt=./examples/format_prompt/math.jinja"))
    assert "data.template-dropped" not in {n.code for n in translator.load(str(script), "easyr1@0.3.2").notes}


def test_critic_batch_for_gae() -> None:
    # §1: the critic normalises like the actor: global 64 prompts × n 2 = 128 samples, 128 // 8 = 16 per GPU.
    explanation = load(
        launch(
            "algorithm.adv_estimator=gae",
            "worker.rollout.n=2",
            "data.rollout_batch_size=256",
            "worker.actor.global_batch_size=64",
            "worker.critic.global_batch_size=64",
            "worker.critic.model.model_path=Qwen/Qwen2.5-0.5B",
        )
    )
    critic = explanation.spec.critic
    assert critic.enabled and critic.samples_per_optimizer_step == 128 and critic.model == "Qwen/Qwen2.5-0.5B"
    assert explanation.spec.algorithm.advantage_normalization_scope == "batch"


# ------------------------------------------------------------------ keys: typos, bands, extras
def test_typo_and_out_of_band_keys_are_noted() -> None:
    explanation = load(
        launch("worker.rollout.n=4", "worker.actor.global_batch_sise=64", "trainer.test_freq=5"),
        framework="easyr1@0.3.2",
    )
    unknown = [n for n in explanation.notes if n.code == "keys.unknown"]
    assert len(unknown) == 1 and "worker.actor.global_batch_size" in unknown[0].message
    band = [n for n in explanation.notes if n.code == "keys.unknown-in-version"]
    assert band and band[0].source_keys == ["trainer.test_freq"]
    assert {e.key for e in explanation.spec.extras} >= {"worker.actor.global_batch_sise", "trainer.test_freq"}


def test_values_a_band_rejects_are_noted_and_not_carried() -> None:
    # reward_type was read by nothing up to 0.3.0 ('function' in the examples); 0.3.1 dispatches on batch|sequential.
    explanation = load(launch("worker.rollout.n=4", "worker.reward.reward_type=function"), framework="easyr1@0.3.1")
    assert "keys.invalid-value" in codes(explanation)
    march = translator.load(FIXTURES / "easyr1" / "march_kl_in_reward_sp2.yaml")
    written = translator.translate(march, to="easyr1@0.3.1")
    assert "reward_type" not in yaml.safe_load(written.files["config.yaml"])["worker"].get("reward", {})
    assert any("reward_type" in n.message for n in written.notes if n.code == "keys.not-translated")


def test_version_is_inferred_from_the_keys() -> None:
    cases = {
        "trainer.test_freq=5": "0.2.0.dev20250223",
        "worker.actor.entropy_coeff=0.0": "0.2.0.dev20250316",
        "worker.reward.score_function=./r.py:main": "0.3.0",
        "worker.actor.loss_type=gspo": "0.3.3.dev0",
    }
    for override, version in cases.items():
        explanation = load(launch("worker.rollout.n=4", override), framework=None)
        assert explanation.version == version, override
        assert "version.assumed" in codes(explanation)


def test_base_yaml_then_overrides_with_lines(tmp_path: Path) -> None:
    # Merge order §6: dataclass defaults ← config= YAML ← dotlist; the base is resolved next to the script.
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "base.yaml").write_text(
        "data:\n  rollout_batch_size: 128\nworker:\n  rollout:\n    n: 4\n    val_override_config:\n"
        "      temperature: 0.6\n      n: 1\n  actor:\n    global_batch_size: 32\n"
    )
    script = tmp_path / "run.sh"
    script.write_text(
        launch("worker.rollout.n=8", "worker.rollout.val_override_config='{\"n\":16}'", base="examples/base.yaml")
    )
    explanation = translator.explain(script)
    assert explanation.plan["prompts_per_step"] == 128 and explanation.plan["samples_per_prompt"] == 8
    extras = {e.key: e.value for e in explanation.spec.extras}
    # OmegaConf merges the dict key by key: temperature stays, n is replaced.
    assert extras["worker.rollout.val_override_config.temperature"] == 0.6
    assert extras["worker.rollout.val_override_config.n"] == 16
    (tmp_path / "examples" / "base.yaml").write_text("data:\n  rollout_batch_size: 0\n")
    with pytest.raises(translator.ConfigError) as error:
        translator.explain(script)
    assert error.value.key == "data.rollout_batch_size" and error.value.line == 2
    assert error.value.file.endswith("base.yaml")


def test_omegaconf_interpolations_resolve() -> None:
    # OmegaConf resolves ${a.b} and ${oc.env:NAME,default} when it builds the PPOConfig (§6).
    files = {
        "base.yaml": "data:\n  max_response_length: 1024\n  max_prompt_length: ${data.max_response_length}\n"
        "worker:\n  rollout:\n    n: 4\n  actor:\n    max_grad_norm: ${oc.env:CLIP,0.5}\n"
    }
    explanation = translator.load(Source(launch(base="base.yaml"), "run.sh", None, files), framework="easyr1")
    assert explanation.spec.lengths.max_prompt_tokens == 1024
    assert explanation.spec.optimizer.grad_clip == 0.5
    # dynamic batching: 4 (default micro) × (1024 + 1024) = 8192 tokens.
    assert explanation.spec.token_budget.max_tokens_per_device == 8192


# ------------------------------------------------------------------ bad input
def test_bad_input_is_a_config_error_with_where_and_hint(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(launch("data.rollout_batch_size=0"))
    assert_input_error(["explain", script], "run.sh:1", "data.rollout_batch_size", "greater than 0")
    script.write_text(launch("worker.actor.global_batch_size=many"))
    assert_input_error(["explain", script], "worker.actor.global_batch_size", "whole number")
    script.write_text(launch("worker.rollout.n=4", base="examples/missing.yaml"))
    assert_input_error(["explain", script], "examples/missing.yaml", "not found")
    (tmp_path / "broken.yaml").write_text("data:\n  rollout_batch_size: [1, 2\nworker: {}\n")
    script.write_text(launch("worker.rollout.n=4", base="broken.yaml"))
    assert_input_error(["explain", script], "broken.yaml", "broken YAML")
    script.write_text("python3 train.py --lr 1e-6\n")
    assert_input_error(["explain", script, "--from", "easyr1"], "no EasyR1 launch command")
    # 1 prompt × n 1 = 1 sample cannot give each of 8 ranks a sample (fsdp_workers raises).
    script.write_text(launch("worker.actor.global_batch_size=1", "data.rollout_batch_size=8"))
    assert_input_error(["explain", script], "worker.actor.global_batch_size", "less than one per data-parallel rank")
    script.write_text(launch("worker.actor.ulysses_size=16", "worker.rollout.n=4"))
    assert_input_error(["explain", script], "worker.actor.ulysses_size", "larger than the 8 GPUs")
    assert_input_error(["explain", script, "--from", "easyr1@0.1"], "older than the oldest supported version")


def test_framework_rejections_are_warnings() -> None:
    # §3: checks EasyR1 makes at start-up that do not stop rlconf from explaining the plan.
    explanation = load(
        launch(
            "data.rollout_batch_size=96",
            "worker.actor.global_batch_size=64",
            "worker.rollout.n=1",
            "worker.rollout.tensor_parallel_size=3",
        )
    )
    found = codes(explanation)
    assert {"batch.indivisible", "algorithm.group-too-small", "topology.indivisible"} <= found


# ------------------------------------------------------------------ the writer
def test_written_config_is_nested_yaml_with_units_and_explicit_knobs() -> None:
    verl_case = FIXTURES / "verl" / "grpo_fixed_micro_tp2.sh"
    translation = translator.translate(verl_case, to="easyr1", framework="verl@0.7.1", env={"HOME": "/home/me"})
    files = translation.files
    assert set(files) == {"config.yaml", "launch.sh"}
    assert "config=config.yaml" in files["launch.sh"] and "verl.trainer.main " in files["launch.sh"]
    config = yaml.safe_load(files["config.yaml"])
    actor = config["worker"]["actor"]
    # verl's symmetric 0.2 clip must be written: EasyR1's own clip_ratio_high default is 0.3.
    assert actor["clip_ratio_high"] == translation.source.spec.algorithm.clip_ratio_high
    assert actor["dynamic_batching"] is False  # a sample-count micro-batch, not EasyR1's default token budget
    assert "# prompts per optimizer step" in files["config.yaml"]
    assert translation.plan == translation.source.plan


def test_writing_each_band_reads_back_to_the_same_plan() -> None:
    source = translator.load(FIXTURES / "easyr1" / "march_kl_in_reward_sp2.yaml")
    for version in dialects.get("easyr1").versions:
        written = translator.translate(source, to=f"easyr1@{version}")
        assert written.plan == source.plan, version
        assert written.spec.algorithm.kl_placement == "reward", version
    old = translator.translate(source, to="easyr1@0.2.0.dev20250223").files["config.yaml"]
    config = yaml.safe_load(old)
    # Extras follow renames into the older spelling; KL stays under the actor's switch.
    assert config["trainer"]["test_freq"] == 5 and "val_freq" not in config["trainer"]
    assert config["worker"]["actor"]["offload"]["param_offload"] is True
    assert config["worker"]["actor"]["use_kl_loss"] is False and config["algorithm"]["kl_coef"] == 0.005
    assert config["trainer"]["total_episodes"] == 2


# ------------------------------------------------------------------ round trips
# Fields the first leg (EasyR1 → B) cannot keep, and why.
LOSSY_FIRST_LEG = {
    # TRL has no token-budget micro-batching: a per-device count of completions is chosen instead.
    ("trl", "head_math_grpo_dynamic"): {"micro_batch_per_device", "grad_accum_steps"},
    ("trl", "v032_dataclass_defaults"): {"micro_batch_per_device", "grad_accum_steps"},
    ("trl", "head_run_parts_local_data"): {"micro_batch_per_device", "grad_accum_steps"},
    ("trl", "v032_no_reward_function"): {"micro_batch_per_device", "grad_accum_steps"},
}
# Fields that stay different after the whole round trip: the fixed micro-batch TRL needed comes back as a
# fixed micro-batch (EasyR1 writes dynamic_batching false for it).
LOSSY_ROUND_TRIP = dict(LOSSY_FIRST_LEG)


@pytest.mark.parametrize("other", ["verl", "trl"])
@pytest.mark.parametrize("case", [c for c in EASYR1_CASES if has_group(c)], ids=case_id)
def test_round_trip_easyr1_other_easyr1(case: Case, other: str) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    there = translator.translate(source, to=other)
    back = translator.translate(
        Source(there.files["launch.sh"], "launch.sh", None, there.files),
        to=f"easyr1@{source.version}",
    )
    key = (other, case.name)
    first_leg = differing(source.plan, there.plan)
    assert first_leg == LOSSY_FIRST_LEG.get(key, set())
    assert noted(there) == first_leg, "every plan change of the first leg has a note"
    assert differing(source.plan, back.plan) == LOSSY_ROUND_TRIP.get(key, set())
    assert back.version == source.version
    if back.plan != source.plan:
        assert noted(back) | noted(there) >= differing(source.plan, back.plan)


def test_dynamic_budget_survives_the_verl_round_trip() -> None:
    # EasyR1 1 × (2048 + 4096) = 6144 tokens → verl ppo_max_token_len_per_gpu 6144 → EasyR1 micro 6144 / 6144 = 1.
    source = translator.load(FIXTURES / "easyr1" / "head_math_grpo_dynamic" / "launch.sh")
    there = translator.translate(source, to="verl")
    assert "ppo_max_token_len_per_gpu=6144" in there.files["launch.sh"]
    back = translator.translate(
        Source(there.files["launch.sh"], "launch.sh", None, there.files), to="easyr1", framework=f"verl@{there.version}"
    )
    assert yaml.safe_load(back.files["config.yaml"])["worker"]["actor"]["micro_batch_size_per_device_for_update"] == 1
    assert back.spec.token_budget.max_tokens_per_device == 6144


def test_verl_token_budget_becomes_the_largest_micro_within_it() -> None:
    # verl 24000 tokens, lengths 1024 + 3072 = 4096 → 24000 // 4096 = 5; 5 does not divide the 1024 / 8 = 128
    # samples per rank, so the largest divisor of 128 not above 5 is 4 → 4 × 4096 = 16384 tokens.
    translation = translator.translate(FIXTURES / "verl" / "grpo_dynamic_bsz.sh", to="easyr1", env={"HOME": "/home/me"})
    actor = yaml.safe_load(translation.files["config.yaml"])["worker"]["actor"]
    assert actor["micro_batch_size_per_device_for_update"] == 4 and actor["dynamic_batching"] is True
    assert translation.spec.token_budget.max_tokens_per_device == 16384
    assert "translation.changed" in codes(translation)


# ------------------------------------------------------------------ the run beyond the batch
RUN_PARTS = FIXTURES / "easyr1" / "head_run_parts_local_data" / "launch.sh"


def test_data_source_forms() -> None:
    # utils/dataset.py: 'path@split' (split 'train' without '@'); a Hub id when it is neither a dir nor a file.
    from translator.frameworks.easyr1.dialect import split_source

    assert split_source("hiyouga/math12k@test") == ("hiyouga/math12k", "test")
    assert split_source("hiyouga/math12k") == ("hiyouga/math12k", "train")
    assert split_source("/data/gui/train.jsonl") == ("/data/gui/train.jsonl", None)
    assert split_source("./data/geo3k@validation") == ("./data/geo3k", "validation")


def test_run_parts_survive_an_easyr1_round_trip() -> None:
    source = translator.load(RUN_PARTS)
    written = translator.translate(source, to="easyr1")
    config = yaml.safe_load(written.files["config.yaml"])
    data, trainer, actor = config["data"], config["trainer"], config["worker"]["actor"]
    assert (data["train_files"], data["val_files"]) == ("/data/gui/train.jsonl", "/data/gui/test.jsonl")
    assert (data["prompt_key"], data["answer_key"]) == ("instruction", "gt_action")
    # No ':' in the source → EasyR1 calls main; written explicitly. The kwargs dict travels as an extra.
    reward = config["worker"]["reward"]
    assert reward["reward_function"] == "./examples/reward_function/android_gui.py:main"
    assert reward["reward_function_kwargs"] == {"format_weight": 0.1}
    assert (trainer["save_freq"], trainer["save_checkpoint_path"], trainer["find_last_checkpoint"]) == (
        10,
        "/ckpt/gui",
        False,
    )
    assert (trainer["val_freq"], trainer["val_before_train"]) == (-1, False)
    assert trainer["logger"] == ["console", "tensorboard"]
    assert (actor["optim"]["lr_scheduler_type"], actor["optim"]["min_lr_ratio"]) == ("cosine", 0.1)
    assert actor["model"]["tokenizer_path"] == "/models/qwen2_5_vl_tokenizer"
    assert config["worker"]["rollout"]["gpu_memory_utilization"] == 0.75
    for section in ("reward", "data", "checkpointing", "evaluation", "logging"):
        assert getattr(written.spec, section) == getattr(source.spec, section), section
    assert not [n for n in written.notes if n.severity != "info"], [n.message for n in written.notes]


def foreign(path: Path = RUN_PARTS) -> translator.Explanation:
    """A fixture's canonical model as if another framework had been read (its EasyR1 extras dropped)."""
    explanation = translator.load(path)
    explanation.spec.framework, explanation.spec.version = "trl", "1.16.0"
    explanation.spec.extras = []
    return explanation


def test_foreign_run_parts_are_converted_or_noted() -> None:
    source = foreign()
    s = source.spec
    s.data.train_sources, s.data.train_split, s.data.train_subset = ["AI-MO/NuminaMath-TIR"], "train", "default"
    s.data.eval_sources, s.data.max_train_prompts = None, 1000
    s.checkpointing.resume, s.checkpointing.keep_last, s.checkpointing.hf_format = "auto", 2, True
    s.logging.backends = ["wandb", "trackio"]
    s.evaluation.before_training, s.launch.main_process_host = None, "10.0.0.1"
    written = translator.translate(source, to="easyr1@0.3.1")
    config = yaml.safe_load(written.files["config.yaml"])
    # Hub id + split → 'id@split'; EasyR1 always loads val_files, so the training data is written there.
    assert config["data"]["train_files"] == config["data"]["val_files"] == "AI-MO/NuminaMath-TIR@train"
    assert config["trainer"]["val_before_train"] is False  # only the final validation pass over it
    # 1000 prompts // 32 per step = 31 steps per pass × 3 passes = 93 rollout steps.
    assert config["trainer"]["max_steps"] == 93
    assert config["trainer"]["save_limit"] == 2 and "find_last_checkpoint" not in config["trainer"]
    assert config["trainer"]["logger"] == ["wandb"]
    found = codes(written)
    assert {
        "data.eval-required",
        "data.not-expressible",
        "data.max-prompts-as-steps",
        "checkpointing.not-expressible",
        "checkpointing.hf-export",
        "logging.not-expressible",
        "reward.signature",
        "launch.ray-cluster",
    } <= found
    # cosine needs a release after 0.3.2: the floor is not written, the schedule change is noted.
    assert "min_lr_ratio" not in config["worker"]["actor"]["optim"] and "optimizer.not-expressible" in found


@pytest.mark.parametrize(
    ("version", "builtin", "key", "written"),
    [
        ("0.2.0.dev20250316", ["r1v"], "compute_score", "r1v"),
        ("0.3.0", ["math"], "score_function", "./examples/score_function/math.py:compute_score"),
        ("0.3.2", ["dapo"], "reward_function", "./examples/reward_function/dapo.py:compute_score"),
    ],
)
def test_builtin_scorers_map_to_easyr1_s_own(version: str, builtin: list[str], key: str, written: str) -> None:
    # workers/reward/custom.py (March: math | r1v); examples/score_function (0.3.0), examples/reward_function.
    source = foreign()
    source.spec.reward.function_path = source.spec.reward.function_name = None
    source.spec.reward.builtin = builtin
    translation = translator.translate(source, to=f"easyr1@{version}")
    assert yaml.safe_load(translation.files["config.yaml"])["worker"]["reward"][key] == written
    assert not [n for n in translation.notes if n.code.startswith("reward.") and n.severity != "info"]


def test_reward_file_hookup_per_band() -> None:
    # 0.3.0 names the file with score_function; before 0.3.0 only a built-in scorer can be named, so the
    # default 'math' runs and the loss of the source's function is a warning.
    source = foreign()
    v030 = translator.translate(source, to="easyr1@0.3.0")
    assert (
        yaml.safe_load(v030.files["config.yaml"])["worker"]["reward"]["score_function"]
        == "./examples/reward_function/android_gui.py:main"
    )
    signature = [n.message for n in v030.notes if n.code == "reward.signature"]
    assert signature and "fn(predict: str, ground_truth: str" in signature[0]
    march = translator.translate(source, to="easyr1@0.2.0.dev20250316")
    assert yaml.safe_load(march.files["config.yaml"])["worker"]["reward"]["compute_score"] == "math"
    assert any(n.code == "reward.not-expressible" and n.severity == "warning" for n in march.notes)


def test_a_missing_reward_is_an_error_note_naming_what_to_add() -> None:
    source = foreign()
    source.spec.reward.function_path = source.spec.reward.function_name = None
    source.spec.reward.builtin = ["accuracy", "format"]
    translation = translator.translate(source, to="easyr1@0.3.2")
    missing = [n for n in translation.notes if n.code == "reward.missing"]
    assert missing and missing[0].severity == "error"
    assert "worker.reward.reward_function=path/to/reward.py:function" in missing[0].message
    assert "Reward function is not provided." in missing[0].message
    # The target's own rule fires on the written config too: the rejection is never silent.
    assert any("easyr1.reward-missing" in n.message for n in translation.notes if n.code == "target.rejected")
    # Read from EasyR1 itself, the missing reward is noted when explaining.
    assert "reward.missing" in codes(translator.load(FIXTURES / "easyr1" / "v032_no_reward_function.sh"))


def test_checkpoint_cadence_and_resume_are_never_dropped() -> None:
    source = foreign()
    source.spec.checkpointing.every_steps, source.spec.checkpointing.resume = 0, "/ckpt/gui/step_40"
    source.spec.evaluation.every_steps, source.spec.evaluation.before_training = 25, True
    translation = translator.translate(source, to="easyr1")
    trainer = yaml.safe_load(translation.files["config.yaml"])["trainer"]
    assert (trainer["save_freq"], trainer["load_checkpoint_path"]) == (-1, "/ckpt/gui/step_40")
    assert (trainer["val_freq"], trainer["val_before_train"]) == (25, True)
    assert {"checkpointing.final-save", "checkpointing.resume-path"} <= codes(translation)


def test_unknown_keys_are_errors_naming_the_closest_key() -> None:
    # main.py merges into OmegaConf.structured(PPOConfig()): an unknown key raises ConfigKeyError.
    assert dialects.get("easyr1").rejects_unknown_keys is True
    explanation = load(launch("worker.rollout.n=4", "trainer.save_frq=5"), framework="easyr1@0.3.2")
    unknown = [n for n in explanation.notes if n.code == "keys.unknown"]
    assert len(unknown) == 1
    assert "Key 'save_frq' not in 'TrainerConfig'" in unknown[0].message
    assert "did you mean 'trainer.save_freq'" in unknown[0].message
    # OmegaConf names the first part its dataclasses lack and the dataclass it looked in.
    from translator.frameworks.easyr1.dialect import key_error

    assert key_error("trainr.save_freq") == "Key 'trainr' not in 'PPOConfig'"
    assert key_error("worker.critic.optim.lr_warmup") == "Key 'lr_warmup' not in 'OptimConfig'"
    assert key_error("worker.actor.model.lora.rnk") == "Key 'rnk' not in 'LoraConfig'"


def test_every_version_says_what_changed() -> None:
    dialect = dialects.get("easyr1")
    assert set(dialect.changes) == set(dialect.versions)
    assert all(dialect.changes[v].strip() for v in dialect.versions)
    assert "reward_type removed" in dialect.changes["0.3.3.dev0"] and "lora" in dialect.changes["0.3.3.dev0"]


def test_checkpoint_and_validation_keys_bound_the_version() -> None:
    # find_last_checkpoint arrived in 0.3.2, save_model_only in 0.3.1, save_limit in 0.3.0 (TrainerConfig).
    cases = {
        "trainer.find_last_checkpoint=false": "0.3.3.dev0",
        "trainer.remove_previous_ckpt=true": MARCH_BAND,
        "trainer.save_model_only=true": "0.3.3.dev0",
    }
    for override, version in cases.items():
        assert load(launch("worker.rollout.n=4", override), framework=None).version == version, override
    both = load(launch("worker.rollout.n=4", "trainer.save_limit=2", "trainer.total_episodes=3"), framework=None)
    assert both.version == "0.3.0"


MARCH_BAND = "0.2.0.dev20250316"


# ------------------------------------------------------------------ never write what EasyR1 rejects
def case_named(framework: str, name: str) -> Case:
    return next(c for c in CASES if c.framework == framework and c.name == name)


def rejected(translation: Translation) -> list[str]:
    return [
        n.message
        for n in translation.notes
        if n.code == "target.rejected" and "reward-missing" not in n.message and "data-missing" not in n.message
    ]


def test_an_indivisible_update_batch_becomes_the_nearest_divisor() -> None:
    # OpenRLHF: 96 prompts × 4 per step, 100 samples per update → 25 prompts; EasyR1 needs 96 % gbs == 0
    # (ray_trainer.py) and the nearest divisor of 96 to 25 is 24 (96 samples per update, 4 updates per step).
    case = case_named("openrlhf", "train_batch_indivisible_v0112")
    translation = translator.translate(case.path, to="easyr1", **case.load_kwargs())
    actor = yaml.safe_load(translation.files["config.yaml"])["worker"]["actor"]
    assert actor["global_batch_size"] == 24 and translation.plan["samples_per_optimizer_step"] == 96
    assert "target.adjusted" in codes(translation) and not rejected(translation)


def test_long_sequences_raise_max_num_batched_tokens() -> None:
    # vLLM rollout (from 2025-03): max_num_batched_tokens (default 8192) must hold prompt + response.
    case = case_named("verl", "v09_fetch_granularity_sp2")
    translation = translator.translate(case.path, to="easyr1", **case.load_kwargs())
    config = yaml.safe_load(translation.files["config.yaml"])
    width = config["data"]["max_prompt_length"] + config["data"]["max_response_length"]
    assert width > 8192 and config["worker"]["rollout"]["max_num_batched_tokens"] == width
    assert not rejected(translation) and translation.plan == translation.source.plan


@pytest.mark.parametrize(
    "override",
    [
        "trainer.save_freq=often",
        "trainer.val_before_train=maybe",
        "trainer.save_limit=[1,2]",
        "worker.rollout.gpu_memory_utilization=most",
        "trainer.val_freq=true",
    ],
)
def test_bad_run_part_values_are_config_errors(override: str) -> None:
    with pytest.raises(translator.ConfigError) as error:
        load(launch("worker.rollout.n=4", override), framework="easyr1@0.3.2")
    assert error.value.key == override.split("=")[0]


def test_odd_run_part_values_never_raise_internal_errors() -> None:
    explanation = load(
        launch(
            "worker.rollout.n=4",
            "trainer.logger=5",
            "data.train_files=@",
            "trainer.save_freq=0",
            "worker.reward.reward_function=:",
            "data.val_files=a/b/c@",
        ),
        framework="easyr1@0.3.2",
    )
    assert "logging.unknown-backend" in codes(explanation)
    assert explanation.spec.checkpointing.every_steps == 0
    # 'file:' with an empty file part: RewardConfig.post_init drops it, so EasyR1 has no reward function.
    assert explanation.spec.reward.function_path is None and "reward.missing" in codes(explanation)


def test_model_only_checkpoints_are_noted_and_carried() -> None:
    # trainer/config.py@v0.3.1: save_model_only drops the optimizer state; no canonical field, so an extra.
    explanation = load(launch("worker.rollout.n=4", "trainer.save_model_only=true"), framework="easyr1@0.3.2")
    assert "checkpointing.model-only" in codes(explanation)
    assert [e.value for e in explanation.spec.extras if e.key == "trainer.save_model_only"] == [True]


def test_no_warm_up_is_written_as_ratio_zero() -> None:
    """EasyR1's config refuses lr_warmup_steps 0 ('must be greater than 0'): a source without warm-up (verl
    lr_warmup_steps=0) is written as lr_warmup_ratio 0.0, and the written files read back."""
    source = Source(
        "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=8 "
        "actor_rollout_ref.rollout.n=4 actor_rollout_ref.rollout.name=vllm "
        "actor_rollout_ref.actor.ppo_mini_batch_size=8 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 "
        "actor_rollout_ref.actor.optim.lr_warmup_steps=0 trainer.n_gpus_per_node=4\n",
        "run.sh",
    )
    translation = translator.translate(source, to="easyr1")
    config = translation.files["config.yaml"]
    assert "lr_warmup_ratio: 0.0" in config and "lr_warmup_steps" not in config


def test_a_vendored_copy_states_its_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A project keeps EasyR1 as pkg/verl (its verl/__init__.py says __version__ = "0.3.0", the string EasyR1 carries
    # from v0.3.0 until v0.3.1) and launches python3 -m pkg.verl.trainer.main. Read as 0.3.0, the micro-batch is
    # micro_batch_size_per_device_for_update samples (token-budget dynamic batching, on by default, came in 0.3.2):
    #   64 prompts × n 4 = 256 samples per step; global_batch_size 16 prompts × 4 = 64 samples per optimizer
    #   step → 256 / 64 = 4 optimizer steps; 8 GPUs → 64 / 8 = 8 samples per rank = 4 micro-batches of 2.
    (tmp_path / ".git").mkdir()
    copy = tmp_path / "pkg" / "verl"
    (copy / "trainer").mkdir(parents=True)
    (copy / "__init__.py").write_text('__version__ = "0.3.0"\n')
    (copy / "trainer" / "main.py").write_text("# the project's copy of EasyR1's entry\n")
    (tmp_path / "pkg" / "scripts").mkdir()
    script = tmp_path / "pkg" / "scripts" / "train.sh"
    script.write_text(
        "python3 -m pkg.verl.trainer.main config=pkg/scripts/config.yaml \\\n"
        "    data.rollout_batch_size=64 worker.rollout.n=4 worker.actor.global_batch_size=16 \\\n"
        "    worker.actor.micro_batch_size_per_device_for_update=2 \\\n"
        "    worker.reward.reward_function=./reward.py:score trainer.n_gpus_per_node=8 trainer.nnodes=1\n"
    )
    (tmp_path / "pkg" / "scripts" / "config.yaml").write_text("data:\n  max_prompt_length: 512\n")
    monkeypatch.chdir(tmp_path)  # run from the project's root, as its script expects
    explanation = translator.explain(str(script))
    assert explanation.version == "0.3.0"
    plan = explanation.plan
    assert (plan["samples_per_step"], plan["samples_per_optimizer_step"], plan["optimizer_steps_per_step"]) == (
        256,
        64,
        4,
    )
    assert (plan["data_parallel_size"], plan["micro_batch_per_device"], plan["grad_accum_steps"]) == (8, 2, 4)
    # without the copy's statement the keys fit 0.3.2 too, where the micro-batches are packed by tokens (unknown)
    (copy / "__init__.py").write_text("")
    assert translator.explain(str(script)).plan["micro_batch_per_device"] is None


COPY_CONFIG = """\
from dataclasses import dataclass, field
from typing import Any, Dict, Optional


@dataclass
class ActorConfig:
    global_batch_size: int = 256
    my_fork_coeff: float = 0.0
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class WorkerConfig:
    actor: ActorConfig = field(default_factory=ActorConfig)
    rollout: Optional["RolloutConfig"] = None


@dataclass
class RolloutConfig:
    n: int = 1


@dataclass
class DataConfig:
    rollout_batch_size: int = 512


@dataclass
class PPOConfig:
    data: DataConfig = field(default_factory=DataConfig)
    worker: WorkerConfig = field(default_factory=WorkerConfig)
"""


def _with_reward_config(field_line: str) -> str:
    """COPY_CONFIG with a RewardConfig holding one field (``field_line``) under worker.reward."""
    return COPY_CONFIG.replace(
        "@dataclass\nclass WorkerConfig:\n",
        f"@dataclass\nclass RewardConfig:\n    {field_line}\n\n\n"
        "@dataclass\nclass WorkerConfig:\n    reward: RewardConfig = field(default_factory=RewardConfig)\n",
    )


def _easyr1_copy(root: Path, config: str) -> None:
    """A project (top marked by .git) keeping its own EasyR1: verl/__init__.py 0.3.2 beside verl/trainer/, whose
    main.py is the entry and config.py holds ``config`` (its dataclasses)."""
    (root / ".git").mkdir()
    trainer = root / "verl" / "trainer"
    trainer.mkdir(parents=True)
    (root / "verl" / "__init__.py").write_text('__version__ = "0.3.2"\n')
    (trainer / "__init__.py").write_text("")
    (trainer / "main.py").write_text("from verl.trainer.config import PPOConfig\n")
    (trainer / "config.py").write_text(config)


@pytest.mark.parametrize(
    ("override", "refused"),
    [
        ("algorrithm.use_pad=true", "'algorrithm'"),  # a misspelt section: no field of PPOConfig
        ("worker.actor.entropy_coeff=0.01", "'worker.actor.entropy_coeff'"),  # upstream's, dropped by the copy
        ("worker.actor.my_fork_coeff=0.1", None),  # the fork's own field
        ("worker.actor.extra.anything=1", None),  # inside a dict field: any key
        ("worker.rollout.n=4", None),  # through Optional["RolloutConfig"]
    ],
)
def test_a_copys_own_dataclasses_decide_which_keys_stop_it(tmp_path: Path, override: str, refused: str | None) -> None:
    # the project's copy of EasyR1 (verl/__init__.py 0.3.2 beside verl/trainer/, verl/trainer/main.py the entry)
    # merges the config into its own PPOConfig: a key no dataclass of the copy declares raises ConfigKeyError
    _easyr1_copy(tmp_path, COPY_CONFIG)
    script = tmp_path / "run.sh"
    script.write_text(launch("data.rollout_batch_size=64", "worker.rollout.n=4", override))
    if refused is None:
        assert translator.explain(str(script)).spec.plan.prompts_per_step == 64
    else:
        with pytest.raises(translator.ConfigError, match=f"declares no {refused}"):
            translator.explain(str(script))


@pytest.mark.parametrize(
    ("field", "refused"),
    [("global_batch_size", "int"), ("my_fork_coeff", "float"), ("extra", None)],
)
def test_a_null_in_the_config_file_for_a_field_the_copy_types_stops_it(
    tmp_path: Path, field: str, refused: str | None
) -> None:
    # verl/trainer/main.py merges the config file into OmegaConf.structured(PPOConfig()) before the command line: a
    # null for a field the copy declares int or float raises ValidationError ("Incompatible value 'None' for field
    # of type 'int'", checked on omegaconf 2.3.0) even where the command line sets it; a Dict field takes None.
    _easyr1_copy(tmp_path, COPY_CONFIG)
    (tmp_path / "config.yaml").write_text(f"data:\n  rollout_batch_size: 64\nworker:\n  actor:\n    {field}: null\n")
    script = tmp_path / "run.sh"
    script.write_text(launch("worker.rollout.n=4", f"worker.actor.{field}=2", base="config.yaml"))
    if refused is None:
        assert translator.explain(str(script)).spec.plan.prompts_per_step == 64
    else:
        with pytest.raises(translator.ConfigError, match=f"declares it '{refused}', which takes no None") as stop:
            translator.explain(str(script))
        assert stop.value.line == 5


@pytest.mark.parametrize(
    ("opens", "override", "refused"),
    [
        ("OmegaConf.set_struct(config, False)\n", "algorrithm.use_pad=true", None),  # the root takes new keys
        ("OmegaConf.set_struct(config, False)\n", "worker.my_key=1", "'worker.my_key'"),  # its sections do not
        (
            "OmegaConf.set_struct(config, False)\nfor key in config:\n    OmegaConf.set_struct(config[key], False)\n",
            "worker.my_key=1",
            None,
        ),
        (  # a section's own dataclass below the top-level ones keeps its flag
            "OmegaConf.set_struct(config, False)\nfor key in config:\n    OmegaConf.set_struct(config[key], False)\n",
            "worker.actor.my_key=1",
            "'worker.actor.my_key'",
        ),
    ],
)
def test_a_copys_entry_that_opens_its_config_takes_new_keys(
    tmp_path: Path, opens: str, override: str, refused: str | None
) -> None:
    # OmegaConf.set_struct(node, False) lets a merge add keys to that node only: each dataclass node of
    # OmegaConf.structured(PPOConfig()) has its own flag (checked on omegaconf 2.4.0: opening the root alone, a new
    # key under data raises ConfigKeyError; opening data too, to_object sets it as an attribute)
    _easyr1_copy(tmp_path, COPY_CONFIG)
    main = tmp_path / "verl" / "trainer" / "main.py"
    built = "from omegaconf import OmegaConf\nconfig = OmegaConf.structured(PPOConfig())\n"
    main.write_text(main.read_text() + built + opens)
    script = tmp_path / "run.sh"
    script.write_text(launch("data.rollout_batch_size=64", "worker.rollout.n=4", override))
    if refused is None:
        translator.explain(str(script))
    else:
        with pytest.raises(translator.ConfigError, match=f"declares no {refused}"):
            translator.explain(str(script))


def test_a_copys_declared_keys_follow_its_config_dataclasses(tmp_path: Path) -> None:
    # PPOConfig holds worker: WorkerConfig, which holds actor: ActorConfig; a dict field is a leaf
    from translator.frameworks.easyr1.copy_schema import declared_keys

    (tmp_path / ".git").mkdir()
    package = tmp_path / "verl"
    package.mkdir()
    (package / "config.py").write_text(
        "from dataclasses import dataclass, field\n\n\n@dataclass\nclass ActorConfig:\n"
        "    dynamic_batching: bool = True\n    micro: int = 4\n\n\n@dataclass\nclass WorkerConfig:\n"
        "    actor: ActorConfig = field(default_factory=ActorConfig)\n"
        "    extra: dict = field(default_factory=dict)\n\n\n@dataclass\nclass PPOConfig:\n"
        "    worker: WorkerConfig = field(default_factory=WorkerConfig)\n    seed: int = 1\n"
    )
    assert declared_keys(str(package)) == {
        "worker.actor.dynamic_batching",
        "worker.actor.micro",
        "worker.extra",
        "seed",
    }


def test_a_copys_own_dataclass_defaults_are_the_runs(tmp_path: Path) -> None:
    # the copy's ActorConfig declares ppo_epochs: int = 2 (EasyR1's is 1, verl/workers/actor/config.py@v0.3.2) and
    # the launch does not set it: OmegaConf.structured(PPOConfig()) starts from the copy's defaults, so each
    # step's 64 prompts × 4 = 256 samples make 256 ÷ (global_batch_size 32 × n 4) = 2 updates per epoch, × 2 epochs
    _easyr1_copy(tmp_path, COPY_CONFIG.replace("    my_fork_coeff", "    ppo_epochs: int = 2\n    my_fork_coeff"))
    script = tmp_path / "run.sh"
    script.write_text(launch("data.rollout_batch_size=64", "worker.rollout.n=4", "worker.actor.global_batch_size=32"))
    explanation = translator.explain(str(script))
    assert (explanation.spec.plan.epochs_per_step, explanation.spec.plan.optimizer_steps_per_step) == (2, 4)
    assert any(n.code == "framework.copy-defaults" and "ppo_epochs=2" in n.message for n in explanation.notes)
    # set on the launch line, the value is the launch's
    script.write_text(
        launch(
            "data.rollout_batch_size=64",
            "worker.rollout.n=4",
            "worker.actor.global_batch_size=32",
            "worker.actor.ppo_epochs=1",
        )
    )
    assert translator.explain(str(script)).spec.plan.epochs_per_step == 1


def test_a_copys_reward_module_missing_under_a_folder_the_project_holds_stops_the_read(tmp_path: Path) -> None:
    # The copy says 0.3.0 (verl/__init__.py) but its RewardConfig declares 0.3.1's reward_function, which the launch
    # sets. The project holds examples/reward_function/math.py; ./examples/score_function/story.py is not there, nor
    # its folder: the copy's own code, which no setup writes, so RewardConfig.post_init drops it and the run stops
    # ("Reward function is not provided."). The module that is there is read.
    config = _with_reward_config("reward_function: Optional[str] = None")
    _easyr1_copy(tmp_path, config)
    (tmp_path / "verl" / "__init__.py").write_text('__version__ = "0.3.0"\n')
    (tmp_path / "examples" / "reward_function").mkdir(parents=True)
    (tmp_path / "examples" / "reward_function" / "math.py").write_text("def compute_score(reports):\n    return []\n")
    script = tmp_path / "run.sh"
    script.write_text(
        launch("worker.rollout.n=4", "worker.reward.reward_function=./examples/score_function/story.py:compute_score")
    )
    with pytest.raises(translator.ConfigError, match=r"worker\.reward\.reward_function names \./examples/score_funct"):
        translator.explain(str(script))
    script.write_text(
        launch("worker.rollout.n=4", "worker.reward.reward_function=./examples/reward_function/math.py:compute_score")
    )
    assert translator.explain(str(script)).spec.plan.samples_per_prompt == 4


@pytest.mark.parametrize(
    ("script", "refused"),
    [
        # a space after a line-ending backslash: bash ends the command at that line, with the word ' ' in it
        ("python3 -m verl.trainer.main \\\n    worker.rollout.n=4 \\ \n    data.rollout_batch_size=64\n", "' '"),
        (launch("worker.rollout.n=4", "--resume"), "'--resume'"),
    ],
)
def test_a_word_without_an_equals_sign_stops_easyr1(script: str, refused: str) -> None:
    # verl/trainer/main.py builds its config with OmegaConf.from_cli(), whose merge_with_dotlist reads a word without
    # '=' as a key with no value; merging that into the structured PPOConfig raises ConfigKeyError "Key ' ' not in
    # 'PPOConfig'" (checked with omegaconf 2.3.0). A word naming a config section ('trainer') is not judged.
    with pytest.raises(translator.ConfigError, match=rf"{re.escape(refused)} is not a key=value override.*Key"):
        translator.load(Source(script, "run.sh"))
    read = translator.load(Source(launch("worker.rollout.n=4", "trainer"), "run.sh"))
    assert "keys.unrecognised-argument" in {n.code for n in read.notes}


@pytest.mark.parametrize(("declared", "stops"), [("10240", False), ("", True), ("4096", False)])
def test_a_copys_own_default_for_a_key_the_checks_carry_is_the_runs(tmp_path: Path, declared: str, stops: bool) -> None:
    # vllm_rollout_spmd.py raises when max_num_batched_tokens < prompt_length + response_length; EasyR1's
    # RolloutConfig default is 8192 (verl/workers/rollout/config.py@v0.3.2). 6144 + 4096 = 10240 tokens: a copy
    # declaring max_num_batched_tokens: int = 10240 starts (10240 is not less than 10240); one that keeps
    # EasyR1's 8192 stops at start-up, and the read is refused. A copy declaring a default of its own that fails
    # the check (4096) may hold it for a path of its code the run never takes (a fork's rollout server): check
    # reports the error, the read is not refused on it.
    field = f"    max_num_batched_tokens: int = {declared}\n" if declared else ""
    lengths = "    max_prompt_length: int = 512\n    max_response_length: int = 512\n"
    config = COPY_CONFIG.replace("    n: int = 1\n", "    n: int = 1\n" + field)
    _easyr1_copy(
        tmp_path, config.replace("    rollout_batch_size: int = 512\n", "    rollout_batch_size: int = 512\n" + lengths)
    )
    rollout = tmp_path / "verl" / "workers" / "rollout"
    rollout.mkdir(parents=True)
    (rollout / "vllm_rollout_spmd.py").write_text(  # the copy keeps the check
        "def check(config):\n    if config.max_num_batched_tokens < config.prompt_length + config.response_length:\n"
        '        raise ValueError("max_num_batched_tokens should be greater than prompt_length + response_length.")\n'
    )
    script = tmp_path / "run.sh"
    script.write_text(
        launch(
            "data.rollout_batch_size=64",
            "worker.rollout.n=4",
            "data.max_prompt_length=6144",
            "data.max_response_length=4096",
        )
    )
    if stops:
        with pytest.raises(translator.ConfigError, match="max_num_batched_tokens should be greater"):
            translator.explain(str(script))
    else:
        assert translator.explain(str(script)).spec.plan.prompts_per_step == 64
        rules = {f.rule for f in translator.check(str(script)).errors}
        assert ("easyr1.max-num-batched-tokens" in rules) == (declared == "4096")


def test_a_copys_key_of_another_release_does_not_hide_its_start_up_stop(tmp_path: Path) -> None:
    # The copy calls itself 0.3.3.dev0, a release without worker.reward.reward_type, but its own RewardConfig declares
    # it: the key is the copy's, not a sign that the copy is a snapshot of another release. Its protocol.py keeps
    # DataProto.chunk's assert, so 4 prompts chunked over the default 8 GPUs (trainer.n_gpus_per_node 8, nnodes 1)
    # stop the first rollout: 4 % 8 != 0. With 8 prompts the chunk is equal and the plan is read.
    config = _with_reward_config('reward_type: str = "batch"')
    _easyr1_copy(tmp_path, config)
    (tmp_path / "verl" / "__init__.py").write_text('__version__ = "0.3.3.dev0"\n')
    (tmp_path / "verl" / "protocol.py").write_text(
        "def chunk(self, chunks):\n"
        '    assert len(self) % chunks == 0, f"only support equal chunk. Got size of DataProto {len(self)} and chunk '
        '{chunks}."\n'
    )
    script = tmp_path / "run.sh"
    script.write_text(launch("data.rollout_batch_size=4", "worker.rollout.n=1", "worker.reward.reward_type=batch"))
    with pytest.raises(translator.ConfigError, match=r"Got size of DataProto 4 and chunk 8.*verl/protocol\.py:2"):
        translator.explain(str(script))
    script.write_text(launch("data.rollout_batch_size=8", "worker.rollout.n=1", "worker.reward.reward_type=batch"))
    assert translator.explain(str(script)).spec.plan.prompts_per_step == 8


def test_a_copys_key_of_another_release_leaves_its_sections_checks_to_check(tmp_path: Path) -> None:
    # The copy says 0.3.1.dev0 and is read as 0.3.0, but its RewardConfig declares 0.3.1's reward_function (set here)
    # and its code raises "Reward function is not provided." without one: read as 0.3.0, the reward section has no
    # score_function, an error in the section whose keys are another release's. Not certain: the plan is read (check
    # reports it).
    config = _with_reward_config("reward_function: Optional[str] = None")
    _easyr1_copy(tmp_path, config)
    (tmp_path / "verl" / "__init__.py").write_text('__version__ = "0.3.1.dev0"\n')
    (tmp_path / "verl" / "workers" / "reward").mkdir(parents=True)
    (tmp_path / "verl" / "workers" / "reward" / "function.py").write_text(
        'def check(config):\n    if config.reward_function is None:\n        raise ValueError("Reward function is not '
        'provided.")\n'
    )
    (tmp_path / "r.py").write_text("def fn(reports):\n    return []\n")
    script = tmp_path / "run.sh"
    script.write_text(
        launch("data.rollout_batch_size=8", "worker.rollout.n=1", "worker.reward.reward_function=./r.py:fn")
    )
    assert translator.explain(str(script)).spec.plan.prompts_per_step == 8
