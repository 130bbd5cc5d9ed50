"""verl: the run parts (reward, data, checkpoint, evaluation, logging, placement, run length) read and written,
and the configs verl would reject refused or repaired.

Expected values are worked out by hand from verl's source at the release tag (docs/frameworks/verl.md names the
file for each rule), never copied from rlconf's output.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

import translator
from tests.conftest import FIXTURES, write_project
from translator.api import Translation
from translator.errors import ConfigError
from translator.sources.files import Source

VERL = FIXTURES / "verl"
RUN_PARTS = VERL / "v07_run_parts.sh"
REWARD_MODEL = VERL / "v04_reward_model_defaults.sh"
SIGNATURE = "compute_score(data_source, solution_str, ground_truth, extra_info)"


def codes(result: translator.Explanation | Translation, severity: str | None = None) -> set[str]:
    return {n.code for n in result.notes if severity is None or n.severity == severity}


def overrides(translation: Translation) -> dict[str, str]:
    """The key=value words of the written verl launch line (quotes removed as the shell would)."""
    words = shlex.split(translation.files["launch.sh"].split("python3 -m verl.trainer.main_ppo", 1)[1])
    return dict(w.lstrip("+").split("=", 1) for w in words if "=" in w)


def launch(*words: str) -> Source:
    return Source("python3 -m verl.trainer.main_ppo " + " ".join(words) + "\n", "run.sh")


BASE = (
    "algorithm.adv_estimator=grpo",
    "data.train_files=/d/train.parquet",
    "data.val_files=/d/test.parquet",
    "actor_rollout_ref.model.path=Qwen/Qwen2.5-7B",
    "actor_rollout_ref.rollout.name=vllm",
)


def test_run_parts_reach_easyr1() -> None:
    """The 0.7 reward section and the data list travel; EasyR1 takes one training file (a note for the rest)."""
    translation = translator.translate(RUN_PARTS, to="easyr1", framework="verl@0.7.1")
    text = translation.files["config.yaml"]
    assert "/work/rewards/math_reward.py:score_boxed" in text
    assert "train_files: /data/math/train.parquet" in text
    assert "reward.missing" not in codes(translation)
    assert "data.missing" not in codes(translation)


def test_run_parts_written_back_to_verl_0_9() -> None:
    """verl 0.7 → 0.9: the same run, each part under 0.9's key (reward.custom_reward_function from 0.7)."""
    written = overrides(translator.translate(RUN_PARTS, to="verl@0.9.1", framework="verl@0.7.1"))
    assert written["reward.custom_reward_function.path"] == "/work/rewards/math_reward.py"
    assert written["reward.custom_reward_function.name"] == "score_boxed"
    assert written["data.train_files"] == '["/data/math/train.parquet","/data/gsm8k/train.parquet"]'
    assert written["data.val_files"] == "/data/math/test.parquet"
    assert written["data.prompt_key"] == "question"
    assert written["data.train_max_samples"] == "2000"
    assert written["trainer.save_freq"] == "50"
    assert written["trainer.default_local_dir"] == "/ckpt/qwen3b_grpo"
    assert written["trainer.max_actor_ckpt_to_keep"] == "3"
    assert written["trainer.resume_mode"] == "resume_path"
    assert written["trainer.resume_from_path"] == "/ckpt/qwen3b_grpo/global_step_100"
    assert written["trainer.test_freq"] == "10"
    assert written["trainer.val_before_train"] == "False"
    assert written["trainer.logger"] == '["console","tensorboard"]'
    assert written["trainer.project_name"] == "math_rl"
    assert written["trainer.experiment_name"] == "qwen3b_grpo"
    assert written["actor_rollout_ref.actor.optim.min_lr_ratio"] == "0.1"
    assert written["actor_rollout_ref.rollout.gpu_memory_utilization"] == "0.7"


def test_reward_model_keys_follow_the_release() -> None:
    """reward_model.enable + model.path until 0.6; reward.reward_model.enable + model_path from 0.7."""
    old = overrides(translator.translate(REWARD_MODEL, to="verl@0.4.1", framework="verl@0.4.1"))
    assert old["reward_model.enable"] == "True"
    assert old["reward_model.model.path"] == "OpenAssistant/reward-model-deberta-v3-large-v2"
    assert old["actor_rollout_ref.actor.checkpoint.save_contents"] == '["model","optimizer","extra","hf_model"]'
    new = overrides(translator.translate(REWARD_MODEL, to="verl@0.9.1", framework="verl@0.4.1"))
    assert new["reward.reward_model.enable"] == "True"
    assert new["reward.reward_model.model_path"] == "OpenAssistant/reward-model-deberta-v3-large-v2"
    assert "reward_model.model.path" not in new


def test_top_level_reward_file_is_ignored_by_0_9() -> None:
    """0.9's main_ppo no longer migrates custom_reward_function.* (docs/frameworks/verl.md, Run parts)."""
    source = translator.load(launch(*BASE, "custom_reward_function.path=/r/reward.py"), framework="verl@0.9.1")
    assert source.spec.reward.function_path is None
    assert "reward.ignored-key" in codes(source, "warning")
    older = translator.load(launch(*BASE, "custom_reward_function.path=/r/reward.py"), framework="verl@0.7.1")
    assert older.spec.reward.function_path == "/r/reward.py"
    assert older.spec.reward.function_name == "compute_score"  # the YAML default name


def test_a_reward_file_from_another_framework_gets_verls_signature() -> None:
    easyr1 = FIXTURES / "easyr1" / "head_run_parts_local_data" / "launch.sh"
    source = translator.load(easyr1)
    translation = translator.translate(source, to="verl@0.9.1")
    written = overrides(translation)
    assert written["reward.custom_reward_function.path"] == source.spec.reward.function_path
    assert written["reward.custom_reward_function.name"] == source.spec.reward.function_name
    signature = [n for n in translation.notes if n.code == "reward.signature"]
    assert signature and SIGNATURE in signature[0].message and signature[0].severity == "info"


def test_builtin_scorers_and_no_reward() -> None:
    """Open-R1's named scorers have no verl counterpart: verl's default scorer (by data_source) runs, noted;
    no reward at all is a warning naming the keys to set."""
    trl = translator.translate(FIXTURES / "trl" / "openr1_server_zero2_g14" / "launch.sh", to="verl@0.9.1")
    builtin = [n for n in trl.notes if n.code == "reward.builtin"]
    assert builtin and "code, code_format" in builtin[0].message and "data_source" in builtin[0].message
    source = translator.load(RUN_PARTS, framework="verl@0.7.1")
    source.spec.reward.function_path = source.spec.reward.function_name = None
    bare = translator.translate(source, to="verl@0.9.1")
    missing = [n for n in bare.notes if n.code == "reward.missing"]
    assert missing and missing[0].severity == "warning" and "reward.custom_reward_function.path" in missing[0].message


def test_a_hub_dataset_id_must_become_parquet() -> None:
    source = translator.load(RUN_PARTS, framework="verl@0.7.1")
    source.spec.data.train_sources, source.spec.data.train_split = ["openai/gsm8k"], "train"
    translation = translator.translate(source, to="verl@0.9.1")
    notes = [n for n in translation.notes if n.code == "data.not-expressible"]
    assert notes and "openai/gsm8k" in notes[0].message and "parquet" in notes[0].message
    assert notes[0].severity == "warning"


def test_no_eval_data_reuses_training_data_with_validation_off() -> None:
    """RayPPOTrainer always builds a validation loader from data.val_files (default: a gsm8k file)."""
    source = translator.load(RUN_PARTS, framework="verl@0.7.1")
    source.spec.data.eval_sources = None
    written = overrides(translator.translate(source, to="verl@0.9.1"))
    assert written["data.val_files"] == written["data.train_files"]
    assert written["trainer.val_before_train"] == "False" and written["trainer.test_freq"] == "-1"


def test_a_step_limit_gets_enough_epochs_behind_it() -> None:
    """verl stops at total_epochs or total_training_steps, whichever first: 120 steps need ≥ 120 epochs when an
    epoch may be a single step."""
    source = translator.load(RUN_PARTS, framework="verl@0.7.1")
    source.spec.plan.total_steps, source.spec.run_length.dataset_passes = 120, None
    translation = translator.translate(source, to="verl@0.9.1")
    written = overrides(translation)
    assert written["trainer.total_training_steps"] == "120"
    assert written["trainer.total_epochs"] == "120"
    assert "run-length.epochs" in codes(translation)


def test_a_separate_rollout_server_is_folded_in_with_a_warning() -> None:
    """Open-R1 server mode: 7 training GPUs + 1 vLLM GPU; verl's main_ppo colocates them."""
    translation = translator.translate(FIXTURES / "trl" / "openr1_server_zero2_g14" / "launch.sh", to="verl@0.9.1")
    note = [n for n in translation.notes if n.code == "topology.rollout-colocated"]
    assert note and note[0].severity == "warning" and "7 GPU(s)" in note[0].message and "1 more" in note[0].message


# ---------------------------------------------------------------- what verl rejects
def dp96(train: int, mini: int, n: int = 8) -> Source:
    return launch(
        *BASE,
        f"data.train_batch_size={train}",
        f"actor_rollout_ref.actor.ppo_mini_batch_size={mini}",
        f"actor_rollout_ref.rollout.n={n}",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2",
        "trainer.n_gpus_per_node=8",
        "trainer.nnodes=12",
    )


def test_mini_batch_split_over_96_ranks_is_repaired() -> None:
    """576 prompts × 8 over 96 ranks; mini 128 × 8 = 1024 % 96 = 64. mini must be a multiple of
    96 / gcd(96, 8) = 12; the multiples of 12 dividing 576 nearest 128 are 144 (|16|) and 96 (|32|) → 144."""
    translation = translator.translate(dp96(576, 128), to="verl@0.9.1", framework="verl@0.9.1")
    assert overrides(translation)["actor_rollout_ref.actor.ppo_mini_batch_size"] == "144"
    note = [n for n in translation.notes if n.code == "batch.mini-changed"]
    assert note and "Got mini_batch_size=1024 and self.engine.get_data_parallel_size()=96" in note[0].message


def test_mini_batch_that_cannot_split_is_refused_with_alternatives() -> None:
    """8 prompts × n 1 over 96 ranks: mini must be a multiple of 96 prompts, more than the 8 per step."""
    source = translator.load(dp96(576, 128), framework="verl@0.9.1")
    source.spec.plan.prompts_per_step, source.spec.plan.samples_per_prompt = 8, 1
    source.spec.plan.samples_per_step = source.spec.plan.samples_per_optimizer_step = 8
    with pytest.raises(translator.ConfigError, match="multiple of 96 prompts") as error:
        translator.translate(source, to="verl@0.9.1")
    assert "data.train_batch_size=96" in str(error.value)


@pytest.mark.parametrize(
    "words, message",
    [
        (
            ("trainer.n_gpus_per_node=2", "actor_rollout_ref.actor.ulysses_sequence_parallel_size=4"),
            "Ulysses sequence-parallel size 4 exceeds the 2 GPUs",
        ),
        (
            (
                "model_engine=megatron",
                "trainer.n_gpus_per_node=3",
                "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4",
                "actor_rollout_ref.actor.megatron.context_parallel_size=2",
            ),
            r"n_gpus \(3\) must be divisible by model_parallel_size \(4\) times context_parallel_size \(2\)",
        ),
    ],
)
def test_no_data_parallel_rank_left_is_a_config_error(words: tuple[str, ...], message: str) -> None:
    source = launch(
        *BASE,
        "data.train_batch_size=16",
        "actor_rollout_ref.actor.ppo_mini_batch_size=16",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1",
        *words,
    )
    with pytest.raises(translator.ConfigError, match=message):
        translator.load(source, framework="verl@0.9.1")
    with pytest.raises(translator.ConfigError, match=message):
        translator.check(source, framework="verl@0.9.1")


def test_verl_0_3_saves_hf_weights_by_default() -> None:
    """0.3's actor.checkpoint.contents defaults to [model, hf_model, optimizer, extra]
    (verl/trainer/config/ppo_trainer.yaml@v0.3.0.post1); 0.4 renamed it save_contents without hf_model."""
    old = translator.load(VERL / "rloo_v030_implicit_kl.sh", framework="verl@0.3.0", env={"HOME": "/h"})
    assert old.spec.checkpointing.hf_format is True
    written = overrides(translator.translate(RUN_PARTS, to="verl@0.3.0", framework="verl@0.7.1"))
    assert written["actor_rollout_ref.actor.checkpoint.contents"] == '["model","optimizer","extra"]'
    assert written["trainer.val_before_train"] == "False"  # written '+trainer.val_before_train' (no 0.3 key)


# ---------------------------------------------------------------- keys the target release lacks or already has
def test_a_key_the_source_appended_is_written_plainly_where_the_target_has_it() -> None:
    """verl 0.3's config has no trainer.val_only (scripts append it with '+'); 0.9.1's has it, and Hydra refuses
    '+' for a key already in the config ('Could not append to config')."""
    source = launch(
        *BASE,
        "data.train_batch_size=8",
        "actor_rollout_ref.actor.ppo_mini_batch_size=8",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1",
        "+trainer.val_only=True",
    )
    script = translator.translate(source, to="verl@0.9.1", framework="verl@0.3.0").files["launch.sh"]
    assert " trainer.val_only=True" in script and "+trainer.val_only" not in script


def test_a_removed_key_under_a_dataclass_section_is_not_written() -> None:
    """fsdp_config.grad_offload (verl 0.1–0.2) is gone by 0.9.1, where actor.fsdp_config becomes an
    FSDPEngineConfig that stops at a field it does not have ('unexpected keyword argument'): appending it with
    '+' would compose, and the run would not start."""
    translation = translator.translate(VERL / "vendored_v01" / "scripts" / "train_grpo_4gpu.sh", to="verl@0.9.1")
    assert "grad_offload" not in translation.files["launch.sh"]
    note = [n for n in translation.notes if n.code == "keys.not-in-version"]
    assert note and "actor_rollout_ref.actor.fsdp_config.grad_offload" in note[0].message
    assert "builds actor_rollout_ref.actor.fsdp_config into a dataclass" in note[0].message


def test_closed_sections_come_from_the_schema() -> None:
    from translator.native_schemas import closed_section

    assert (
        closed_section("verl", "0.9.1", "actor_rollout_ref.actor.fsdp_config.grad_offload")
        == "actor_rollout_ref.actor.fsdp_config"
    )
    assert closed_section("verl", "0.9.1", "trainer.no_such_key") is None  # trainer is a plain mapping
    assert closed_section("verl", "0.5.0", "actor_rollout_ref.actor.fsdp_config.grad_offload") is None  # no schema


def test_writing_a_read_only_release_is_refused() -> None:
    with pytest.raises(translator.ConfigError, match=r"reads verl 0.1 but writes verl 0.3.0 and newer"):
        translator.translate(RUN_PARTS, to="verl@0.1")


def test_a_script_without_rollout_name_is_read_as_the_newest_release_that_accepts_it() -> None:
    """rollout.name defaulted to vllm up to 0.5 and is mandatory ('???') from 0.6.1: a script that omits it and
    uses no key of a later release is a 0.5-era script, not a broken 0.9 one."""
    words = (
        "data.train_batch_size=8",
        "actor_rollout_ref.actor.ppo_mini_batch_size=8",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1",
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1",
        "trainer.n_gpus_per_node=2",
    )
    explanation = translator.explain(launch("algorithm.adv_estimator=grpo", *words))
    assert explanation.version == "0.5.0"
    assert "rollout.name is not set" in next(n.message for n in explanation.notes if n.code == "version.assumed")
    later = translator.load(launch("algorithm.adv_estimator=grpo", "critic.enable=False", *words))
    assert later.version == "0.9.1"  # critic.enable exists from 0.6.1: then the missing name is the user's error
    # ... which verl 0.9.1 stops at start-up on (rollout.name is '???'): explain refuses the file
    with pytest.raises(translator.ConfigError, match="stops at start-up"):
        translator.explain(launch("algorithm.adv_estimator=grpo", "critic.enable=False", *words))


# ------------------------------------------------------------------ the v1 trainer's modes
# docs/frameworks/verl.md §2.6. A step of the v1 trainer (verl/trainer/ppo/v1/trainer_base.py@v0.9.1 PPOTrainer.step)
# is parameter_sync_step local updates of train_batch_size / parameter_sync_step prompts; only separate_async has the
# key (default 4). Async modes keep num_warmup_batches batches of prompts in flight and take the oldest finished
# groups first; trainer.v1.sampler.max_off_policy_threshold T drops a group spanning more than T weight versions.
OPENRLHF_ASYNC = FIXTURES / "openrlhf" / "grpo_async_oversampling_v0104.sh"
SINGLE_GPU_ASYNC = FIXTURES / "open-instruct" / "debug_single_gpu_uv.sh"
SEPARATE = VERL / "v09_separate_async_psync4.sh"
V1 = "trainer.v1"
SYNC_WORDS = (
    "data.train_batch_size=256",
    "actor_rollout_ref.rollout.n=8",
    "actor_rollout_ref.actor.ppo_mini_batch_size=64",
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8",
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8",
)


def note(result: translator.Explanation | Translation, code: str) -> str:
    return " | ".join(n.message for n in result.notes if n.code == code)


def test_async_source_with_its_own_rollout_gpus_becomes_separate_async() -> None:
    # OpenRLHF 0.10.4 (its expect file): 128 prompts × 8 per step, 256 samples (32 prompts) per update, 4 training
    # GPUs, 4 more for 2 vLLM engines × TP 2, async_queue_size 2. verl: 128 = parameter_sync_step 4 × mini 32, two
    # batches in flight, groups older than 2 + 1 = 3 versions dropped, a standalone pool of 1 node × 4 GPUs.
    translation = translator.translate(OPENRLHF_ASYNC, to="verl@0.9.1", framework="openrlhf@0.10.4")
    written = overrides(translation)
    assert written[f"{V1}.trainer_mode"] == "separate_async"
    assert written[f"{V1}.separate_async.parameter_sync_step"] == "4"
    assert written["actor_rollout_ref.actor.ppo_mini_batch_size"] == "32"
    assert written[f"{V1}.separate_async.num_warmup_batches"] == "2"
    assert written[f"{V1}.sampler.max_off_policy_threshold"] == "3"
    assert written["actor_rollout_ref.rollout.nnodes"] == "1"
    assert written["actor_rollout_ref.rollout.n_gpus_per_node"] == "4"
    assert written["actor_rollout_ref.rollout.checkpoint_engine.backend"] == "nccl"
    assert "topology.rollout-colocated" not in codes(translation)
    assert "asynchrony.not-expressible" not in codes(translation)
    assert "parameter_sync_step 4 local updates of one 32-prompt mini-batch" in note(
        translation, "semantics.local-updates"
    )
    # Read back: the same asynchrony, rollout GPUs and 4 × 1 epoch optimizer steps per step.
    assert translation.spec.asynchrony.max_steps_ahead == 2
    assert translation.spec.topology.rollout_gpus == 4
    assert translation.plan["optimizer_steps_per_step"] == 4


def test_async_source_on_shared_gpus_becomes_colocate_async() -> None:
    # Open-Instruct single_gpu_mode: vLLM on the learner's GPU (rollout_gpus 0), async_steps 8 (its expect file).
    translation = translator.translate(SINGLE_GPU_ASYNC, to="verl@0.9.1")
    written = overrides(translation)
    assert written[f"{V1}.trainer_mode"] == "colocate_async"
    assert written[f"{V1}.colocate_async.num_warmup_batches"] == "8"
    assert written[f"{V1}.sampler.max_off_policy_threshold"] == "9"
    assert f"{V1}.separate_async.parameter_sync_step" not in written
    assert translation.spec.asynchrony.max_steps_ahead == 8


def test_async_source_to_verl_before_0_9_is_noted() -> None:
    # verl 0.8.0's main_ppo has no v1 trainer: generation 2 steps ahead cannot be written.
    translation = translator.translate(OPENRLHF_ASYNC, to="verl@0.8.0", framework="openrlhf@0.10.4")
    assert "2 step(s) ahead" in note(translation, "asynchrony.not-expressible")
    assert not [k for k in overrides(translation) if k.startswith(V1)]


def test_on_policy_source_keeps_the_default_sync_mode() -> None:
    translation = translator.translate(
        VERL / "grpo_fixed_micro_tp2.sh", to="verl@0.9.1", framework="verl@0.7.1", env={"HOME": "/home/me"}
    )
    assert not [k for k in overrides(translation) if k.startswith(V1)]
    # sync is verl's ordinary synchronous loop: read back as no special rollout mode.
    assert translation.spec.generation.rollout_mode is None and translation.spec.asynchrony.max_steps_ahead == 0
    assert "generation.rollout_mode" not in note(translation, "translation.changed")


def test_separate_async_without_whole_mini_batches_falls_back_to_colocate_async() -> None:
    # 128 prompts per step with 24-prompt (192-sample) updates: 128 is no multiple of 24, so no parameter_sync_step
    # makes train_batch_size = parameter_sync_step × mini; colocate_async keeps the asynchrony.
    source = translator.load(OPENRLHF_ASYNC, framework="openrlhf@0.10.4")
    source.spec.plan.samples_per_optimizer_step = 192
    translation = translator.translate(source, to="verl@0.9.1")
    written = overrides(translation)
    assert written["actor_rollout_ref.actor.ppo_mini_batch_size"] == "24"
    assert written[f"{V1}.trainer_mode"] == "colocate_async"
    assert "not a multiple of the 24-prompt mini-batch" in note(translation, "asynchrony.changed")


def test_separate_async_round_trip_keeps_the_warmup_in_local_updates() -> None:
    # The fixture's lr_warmup_steps 20 local updates = 5 rollout steps (20 / parameter_sync_step 4); written back,
    # 5 steps × 4 updates per step = 20.
    translation = translator.translate(SEPARATE, to="verl@0.9.1")
    written = overrides(translation)
    assert written["actor_rollout_ref.actor.optim.lr_warmup_steps"] == "20"
    assert written[f"{V1}.separate_async.parameter_sync_step"] == "4"
    assert written[f"{V1}.sampler.max_off_policy_threshold"] == "4"  # the source's own, carried
    assert not [n for n in translation.notes if n.code in ("translation.changed", "plan.not-preserved")]


@pytest.mark.parametrize(
    "epochs,warmup,expected",
    [
        (1, 10, (10, "optimizer_steps")),  # one update = 1 mini-batch × 1 epoch = 1 optimizer step
        (2, 12, (3, "steps")),  # 12 updates ÷ 4 per step = 3 steps exactly
        (2, 10, (20, "optimizer_steps")),  # 10 updates × 2 optimizer steps (the LR holds within an update)
    ],
)
def test_separate_async_warmup_counts_local_updates(epochs: int, warmup: int, expected: tuple[int, str]) -> None:
    explanation = translator.load(
        launch(
            *BASE,
            *SYNC_WORDS,
            f"{V1}.trainer_mode=separate_async",
            "actor_rollout_ref.rollout.nnodes=1",
            f"actor_rollout_ref.actor.ppo_epochs={epochs}",
            f"actor_rollout_ref.actor.optim.lr_warmup_steps={warmup}",
            "trainer.total_training_steps=100",
        )
    )
    o = explanation.spec.optimizer
    assert (o.warmup_steps, o.warmup_unit) == expected
    assert explanation.plan["optimizer_steps_per_step"] == 4 * epochs
    # _init_dataloader: optim.total_training_steps = 100 × parameter_sync_step 4.
    assert "total_training_steps 100 × 4 = 400" in note(explanation, "optimizer.lr-horizon")


@pytest.mark.parametrize(
    "words,ahead,code,text",
    [
        # num_warmup_batches 3 but threshold 2: a group spanning more than 2 versions is dropped → lag at most 1.
        ((f"{V1}.colocate_async.num_warmup_batches=3", f"{V1}.sampler.max_off_policy_threshold=2"), 1, None, None),
        # 1.5 batches in flight (_add_async_warmup_batches takes fractions): prompts up to 2 steps old.
        ((f"{V1}.colocate_async.num_warmup_batches=1.5",), 2, "asynchrony.staleness-bound", "up to 7 steps"),
        # 0.9.1: a null threshold turns the bound off.
        ((f"{V1}.sampler.max_off_policy_threshold=null",), 1, "asynchrony.staleness-bound", "no staleness bound"),
    ],
)
def test_colocate_async_lag(words: tuple[str, ...], ahead: int, code: str | None, text: str | None) -> None:
    explanation = translator.load(launch(*BASE, *SYNC_WORDS, f"{V1}.trainer_mode=colocate_async", *words))
    assert explanation.spec.asynchrony.max_steps_ahead == ahead
    assert explanation.plan["optimizer_steps_per_step"] == 4  # 256 / 64 mini-batches, one local update
    if code:
        assert text in note(explanation, code)
    else:
        assert "asynchrony.staleness-bound" not in codes(explanation)


def test_fractional_warmup_batches_need_0_9_1() -> None:
    # trainer_colocate_async.py@v0.9.0 on_train_begin loops `for _ in range(num_warmup_batches)`: 1.5 is a TypeError.
    words = (*BASE, *SYNC_WORDS, f"{V1}.trainer_mode=colocate_async", f"{V1}.colocate_async.num_warmup_batches=1.5")
    assert "cannot be interpreted as an integer" in note(
        translator.load(launch(*words), framework="verl@0.9.0"), "keys.invalid-value"
    )
    assert "keys.invalid-value" not in codes(translator.load(launch(*words), framework="verl@0.9.1"))


def test_use_v1_false_runs_the_legacy_loop() -> None:
    # main_ppo.py@v0.9.1: use_v1=False → main_ppo_v0 (synchronous); the mode is read by nothing.
    explanation = translator.load(
        launch(*BASE, *SYNC_WORDS, "trainer.use_v1=False", f"{V1}.trainer_mode=separate_async")
    )
    assert "read by the v1 trainer only" in note(explanation, "semantics.ignored-key")
    assert explanation.spec.asynchrony.max_steps_ahead == 0
    assert explanation.plan["optimizer_steps_per_step"] == 4
    assert explanation.spec.generation.rollout_mode is None


def test_unknown_mode_is_verls_error() -> None:
    explanation = translator.load(launch(*BASE, *SYNC_WORDS, f"{V1}.trainer_mode=async"))
    assert note(explanation, "keys.invalid-value") == (
        "Unknown trainer 'async'. Available trainers: colocate_async, separate_async, sync."
    )


def test_v1_keys_before_0_9_and_the_rollout_pool_outside_separate_async() -> None:
    old = translator.load(launch(*BASE, *SYNC_WORDS, f"{V1}.trainer_mode=colocate_async"), framework="verl@0.8.0")
    assert "does not exist before verl 0.9.0" in note(old, "keys.unknown-in-version")
    assert old.spec.asynchrony.max_steps_ahead == 0
    pool = translator.load(launch(*BASE, *SYNC_WORDS, "actor_rollout_ref.rollout.nnodes=2"))
    assert "separate_async" in note(pool, "semantics.ignored-key")
    assert pool.spec.topology.rollout_gpus == 0


def test_a_parameter_sync_step_that_does_not_divide_the_step() -> None:
    # trainer_base.py@v0.9.1 step(): 256 % 3 != 0 (a key only separate_async has: appended for colocate_async).
    text = " ".join(
        (*BASE, *SYNC_WORDS, f"{V1}.trainer_mode=colocate_async", f"+{V1}.colocate_async.parameter_sync_step=3")
    )
    report = translator.check(Source(f"python3 -m verl.trainer.main_ppo {text}\n", "run.sh"))
    item = [f for f in report.errors if f.rule == "verl.parameter-sync-divisible"]
    assert [f.message for f in item] == ["train_batch_size (256) must be divisible by parameter_sync_step (3)"]
    assert all(256 % int(s.changes[f"{V1}.colocate_async.parameter_sync_step"]) == 0 for s in item[0].suggestions)


def test_removed_and_renamed_keys_follow_the_target_release() -> None:
    # _generated_ppo_trainer.yaml@v0.7.1/@v0.8.0/@v0.9.0: rollout.skip_rollout → rollout.skip.enable →
    # skip.rollout.enable; data.sampler.* gone in 0.8.0; max_num_seqs 1024 → 256, calculate_log_probs False → True.
    source = launch(
        *BASE,
        *SYNC_WORDS,
        "actor_rollout_ref.rollout.skip_rollout=True",
        "data.sampler.class_path=curriculum.py",
        "data.sampler.class_name=Curriculum",
    )
    to_09 = translator.translate(source, to="verl@0.9.1", framework="verl@0.7.1")
    written = overrides(to_09)
    assert written["skip.rollout.enable"] == "True" and "actor_rollout_ref.rollout.skip_rollout" not in written
    assert "data.sampler.class_path" not in written
    assert "ReplayBuffer subclass" in note(to_09, "keys.removed")
    assert written["actor_rollout_ref.rollout.max_num_seqs"] == "1024"
    assert written["actor_rollout_ref.rollout.calculate_log_probs"] == "False"
    to_08 = translator.translate(source, to="verl@0.8.0", framework="verl@0.7.1")
    written = overrides(to_08)
    assert written["actor_rollout_ref.rollout.skip.enable"] == "True"
    assert "keys.default-changed" not in codes(to_08)  # 0.7.1 and 0.8.0 share both defaults
    assert "keys.not-in-version" not in codes(to_08)  # 0.8.0's own key schema has rollout.skip.*
    # Reading the old key as 0.9.1 says what 0.9.1 calls it.
    assert "'skip.rollout.enable' in verl 0.9.1" in note(
        translator.load(source, framework="verl@0.9.1"), "keys.renamed"
    )


def test_frameworks_lists_what_changed_in_0_8_and_0_9() -> None:
    changes = translator.dialects.get("verl").changes
    assert "parameter_sync_step" in changes["0.9.0"] and "max_num_seqs 1024 → 256" in changes["0.9.0"]
    assert "data.sampler" in changes["0.8.0"] and "rollout.skip.enable" in changes["0.8.0"]
    assert "hybrid_rollout" in changes["0.9.1"]


def test_the_release_is_inferred_from_renamed_keys() -> None:
    # rollout.skip_rollout was removed in 0.8.0 (→ rollout.skip.enable, itself moved to skip.rollout.* in 0.9.0).
    old = translator.load(launch(*BASE, *SYNC_WORDS, "actor_rollout_ref.rollout.skip_rollout=True"))
    assert old.version == "0.7.1"
    middle = translator.load(launch(*BASE, *SYNC_WORDS, "actor_rollout_ref.rollout.skip.enable=True"))
    assert middle.version == "0.8.0"


def test_v1_group_filtering_has_no_round_limit() -> None:
    # trainer_base.py@v0.9.1 _resolve_filter_groups_metric warns that max_num_gen_batches is ignored: the replay
    # buffer refills evicted groups for as long as it takes.
    explanation = translator.load(
        launch(
            *BASE,
            *SYNC_WORDS,
            "algorithm.filter_groups.enable=True",
            "algorithm.filter_groups.metric=acc",
            "algorithm.filter_groups.max_num_gen_batches=10",
        )
    )
    assert explanation.spec.generation.max_rounds_per_step == 0
    assert "max_num_gen_batches=10 is ignored by the built-in V1 ReplayBuffer" in note(
        explanation, "semantics.ignored-key"
    )


def test_a_separate_async_run_written_for_0_8() -> None:
    # 0.8.0 has no v1 trainer: the asynchrony is noted, the trainer.v1 keys are not written, and the step keeps its
    # 4 mini-batches × 2 epochs = 8 optimizer steps (ppo_epochs over the whole step instead of per update).
    translation = translator.translate(SEPARATE, to="verl@0.8.0")
    assert not [k for k in overrides(translation) if k.startswith(V1)]
    assert "verl 0.8.0's main_ppo runs synchronously" in note(translation, "asynchrony.not-expressible")
    assert "max_off_policy_threshold 4 is not written" in note(translation, "keys.not-in-version")
    assert translation.plan["optimizer_steps_per_step"] == 8


def test_the_dapo_recipe_entry_runs_its_own_loop() -> None:
    # recipe.dapo.main_dapo builds its RayDAPOTrainer, not main_ppo's v1 trainer: no mode, no local updates.
    explanation = translator.load(
        VERL / "dapo_recipe_dynamic_sampling.sh", framework="verl@0.9.1", env={"HOME": "/home/me"}
    )
    assert explanation.spec.generation.rollout_mode is None
    assert explanation.spec.asynchrony.max_steps_ahead == 0
    assert "semantics.local-updates" not in codes(explanation)


def test_a_separate_async_run_carries_its_asynchrony_to_other_frameworks() -> None:
    # The fixture: generation 1 step ahead on a pool of 1 × 8 GPUs, vLLM TP 2 → 4 engines of their own.
    openrlhf = translator.translate(SEPARATE, to="openrlhf@0.11.2").files["launch.sh"]
    assert "--train.async_enable" in openrlhf and "--train.async_queue_size 1 " in openrlhf
    assert "--vllm.num_engines 4 " in openrlhf and "--vllm.tensor_parallel_size 2 " in openrlhf
    open_instruct = translator.translate(SEPARATE, to="open-instruct").files["launch.sh"]
    assert "--async_steps 1 " in open_instruct
    trl = translator.translate(SEPARATE, to="trl@1.16.0")
    assert "1-step asynchrony is dropped" in note(trl, "asynchrony.not-expressible")


FULLY_ASYNC = (
    "data.train_batch_size=0",
    "data.gen_batch_size=1",
    "actor_rollout_ref.hybrid_engine=False",
    "actor_rollout_ref.rollout.n=4",
    "actor_rollout_ref.actor.ppo_mini_batch_size=16",
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2",
    "trainer.nnodes=2",
    "trainer.n_gpus_per_node=8",
    "rollout.nnodes=1",
    "rollout.n_gpus_per_node=4",
)


@pytest.mark.parametrize(
    "module,version",
    [
        ("verl.experimental.fully_async_policy.fully_async_main", "0.9.1"),
        ("recipe.fully_async_policy.fully_async_main", "0.7.1"),
    ],
)
def test_the_fully_async_trainer_is_read_with_its_own_step(module: str, version: str) -> None:
    """docs/frameworks/verl.md §2.7: a step takes ppo_mini_batch_size 16 × require_batches 1 (config default,
    fully_async_ppo_trainer.yaml@v0.9.1) = 16 prompts (fully_async_trainer.py:159), × n 4 = 64 samples, one
    mini-batch; sync every 4 steps (default) with staleness 0.1 (default): int(16 × 1.1 × 4) = 70 prompts may be
    generated per weight version (fully_async_rollouter.py:491-497) → ceil(70 / 16) − 1 = 4 steps ahead; the trainer
    has 2 × 8 GPUs, the rollouter 1 × 4 of its own (fully_async_main.py:235-236)."""
    source = Source(f"python3 -m {module} " + " ".join(BASE + FULLY_ASYNC) + "\n", "run.sh")
    explained = translator.load(source, framework=f"verl@{version}")
    plan = explained.spec.plan
    assert (
        plan.prompts_per_step,
        plan.samples_per_step,
        plan.samples_per_optimizer_step,
        plan.optimizer_steps_per_step,
        plan.data_parallel_size,
        plan.total_steps,
    ) == (16, 64, 64, 1, 16, None)
    assert explained.spec.asynchrony.max_steps_ahead == 4
    assert (explained.spec.topology.training_gpus, explained.spec.topology.rollout_gpus) == (16, 4)
    assert {"semantics.fully-async", "asynchrony.off-policy"} <= codes(explained)
    assert not codes(explained, "warning") and not codes(explained, "error")


def test_staleness_zero_and_sync_every_step_is_on_policy() -> None:
    # int(16 × (0 + 1) × 1) = 16 prompts per weight version = one step: ceil(16 / 16) − 1 = 0.
    words = (
        BASE + FULLY_ASYNC + ("async_training.staleness_threshold=0", "async_training.trigger_parameter_sync_step=1")
    )
    source = Source("python3 -m verl.experimental.fully_async_policy.fully_async_main " + " ".join(words), "run.sh")
    assert translator.load(source).spec.asynchrony.max_steps_ahead == 0


def test_a_fully_async_run_is_written_to_verl_as_main_ppo() -> None:
    """rlconf writes no fully_async script: main_ppo with 16 prompts per step; on 0.9 the rollout pool makes it
    separate_async, 16 = parameter_sync_step 1 × mini 16 (§2.6)."""
    source = Source(
        "python3 -m verl.experimental.fully_async_policy.fully_async_main " + " ".join(BASE + FULLY_ASYNC), "run.sh"
    )
    translation = translator.translate(source, to="verl@0.9.1")
    written = overrides(translation)
    assert written["data.train_batch_size"] == "16"
    assert written["trainer.v1.trainer_mode"] == "separate_async"
    assert not any(k.startswith(("async_training.", "rollout.")) for k in written)
    assert "asynchrony.changed" in codes(translation)
    older = overrides(translator.translate(source, to="verl@0.8.0"))
    assert "actor_rollout_ref.hybrid_engine" not in older  # ray_trainer asserts the hybrid engine


def test_a_comment_after_an_escaped_space_breaks_the_command() -> None:
    # `\ # note` escapes the space, so ' #' and the comment's words become arguments and the newline ends the
    # command: Hydra's override parser refuses ' #' (OverrideParseException), and the next lines' overrides would
    # run as commands of their own. rlconf refuses it, saying why, instead of reading the rest as the launch.
    text = (
        "python3 -m verl.trainer.main_ppo \\\n"
        "    algorithm.adv_estimator=grpo \\\n"
        "    data.train_files=train.parquet \\ # TODO: the real path\n"
        "    data.train_batch_size=64 \\\n"
        "    trainer.n_gpus_per_node=8\n"
    )
    with pytest.raises(ConfigError, match="backslash before a space") as refused:
        translator.load(Source(text, "run.sh"), framework="verl")
    assert refused.value.line == 1 or "run.sh:1" in str(refused.value)


@pytest.mark.parametrize("run_dir", ["${PROJECT_DIR:-/path/to/proj}", "${oc.env:PROJECT_DIR,/path/to/proj}", "mine"])
def test_a_config_path_of_the_authors_checkout_is_read_from_the_project_and_its_resolvers_checked(
    tmp_path: Path, run_dir: str
) -> None:
    # --config-path $PROJECT_DIR/configs with PROJECT_DIR defaulting to the author's /path/to/proj: the project holds
    # configs/grpo.yaml (the same path below that checkout), read from there: n 4 × 32 prompts = 128 samples. Its
    # hydra.run.dir `${PROJECT_DIR:-...}` is bash's syntax, which OmegaConf reads as a resolver named PROJECT_DIR:
    # nothing registers one, so resolving the config at start-up stops (UnsupportedInterpolationType); the
    # oc.env form, or a resolver the project registers ("mine"), runs.
    launch = (
        'PROJECT_DIR="${PROJECT_DIR:-/path/to/proj}"\n'
        'python3 -m verl.trainer.main_ppo --config-path="$PROJECT_DIR/configs" --config-name=grpo '
        "data.train_batch_size=32\n"
    )
    dir_value = "${mine:x}" if run_dir == "mine" else run_dir
    config = (
        f"hydra:\n  run:\n    dir: '{dir_value}'\n"
        "actor_rollout_ref:\n  actor:\n    ppo_mini_batch_size: 16\n    ppo_micro_batch_size_per_gpu: 2\n"
        "  rollout:\n    n: 4\n    name: vllm\n    log_prob_micro_batch_size_per_gpu: 2\n"
        "  ref:\n    log_prob_micro_batch_size_per_gpu: 2\n"
    )
    files = {"scripts/run.sh": launch, "configs/grpo.yaml": config}
    if run_dir == "mine":
        files["tools/resolvers.py"] = (
            "from omegaconf import OmegaConf\n\nOmegaConf.register_new_resolver('mine', str)\n"
        )
    root = write_project(tmp_path, files)
    if run_dir.startswith("${PROJECT_DIR"):
        with pytest.raises(ConfigError, match=r"resolver named PROJECT_DIR.*UnsupportedInterpolationType") as refused:
            translator.explain(str(root / "scripts" / "run.sh"), "verl@0.9.1")
        assert refused.value.line == 3
        return
    read = translator.explain(str(root / "scripts" / "run.sh"), "verl@0.9.1")
    assert (read.spec.plan.samples_per_prompt, read.spec.plan.samples_per_step) == (4, 128)
    assert any(n.code == "input.config-in-project" for n in read.notes)


@pytest.mark.parametrize(("micro", "per_rank"), [(2, 0), (4, 1)])
def test_a_global_micro_batch_smaller_than_the_ranks_stops_the_run(tmp_path: Path, micro: int, per_rank: int) -> None:
    # verl 0.1's workers divide the global ppo_micro_batch_size by the world size (2 // 4 = 0, 4 // 4 = 1): a
    # micro-batch of 0 samples splits each mini-batch into pieces of 0 (dp_actor split(0)) at the first step. The
    # project runs its own copy of verl, so the release's start-up assertion is not certain to be the one it runs;
    # the empty micro-batch stops it all the same
    launch = (
        "python3 -m verl.trainer.main_ppo data.train_batch_size=4 actor_rollout_ref.actor.ppo_mini_batch_size=4 "
        f"actor_rollout_ref.actor.ppo_micro_batch_size={micro} actor_rollout_ref.rollout.log_prob_micro_batch_size=4 "
        "actor_rollout_ref.ref.log_prob_micro_batch_size=4 trainer.n_gpus_per_node=4 trainer.nnodes=1\n"
    )
    entry = (
        "import hydra\n\n@hydra.main(config_path='config', config_name='ppo_trainer')\ndef main(config):\n    pass\n"
    )
    files = {"verl/__init__.py": "", "verl/version/version": "0.1\n", "verl/trainer/__init__.py": ""}
    root = write_project(tmp_path, {**files, "verl/trainer/main_ppo.py": entry, "run.sh": launch})
    if per_rank == 0:
        with pytest.raises(translator.ConfigError, match="0 samples per micro-batch per rank"):
            translator.explain(str(root / "run.sh"))
    else:
        assert translator.explain(str(root / "run.sh")).spec.plan.micro_batch_per_device == per_rank
