"""verl: the run parts (reward, data, checkpoint, evaluation, logging, placement, run length) read and written,
and the configs verl would reject (issue 10) refused or repaired.

Expected values are worked out by hand from verl's source at the release tag (docs/frameworks/verl.md names the
file for each rule), never copied from rlconf's output.
"""
from __future__ import annotations

import shlex

import pytest

import translator
from tests.conftest import FIXTURES
from translator.api import Translation
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


BASE = ("algorithm.adv_estimator=grpo", "data.train_files=/d/train.parquet", "data.val_files=/d/test.parquet",
        "actor_rollout_ref.model.path=Qwen/Qwen2.5-7B", "actor_rollout_ref.rollout.name=vllm")


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


# ---------------------------------------------------------------- issue 10: what verl rejects
def dp96(train: int, mini: int, n: int = 8) -> Source:
    return launch(*BASE, f"data.train_batch_size={train}", f"actor_rollout_ref.actor.ppo_mini_batch_size={mini}",
                  f"actor_rollout_ref.rollout.n={n}", "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2",
                  "trainer.n_gpus_per_node=8", "trainer.nnodes=12")


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


@pytest.mark.parametrize("words, message", [
    (("trainer.n_gpus_per_node=2", "actor_rollout_ref.actor.ulysses_sequence_parallel_size=4"),
     "Ulysses sequence-parallel size 4 exceeds the 2 GPUs"),
    (("model_engine=megatron", "trainer.n_gpus_per_node=3", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4",
      "actor_rollout_ref.actor.megatron.context_parallel_size=2"),
     r"n_gpus \(3\) must be divisible by model_parallel_size \(4\) times context_parallel_size \(2\)"),
])
def test_no_data_parallel_rank_left_is_a_config_error(words: tuple[str, ...], message: str) -> None:
    source = launch(*BASE, "data.train_batch_size=16", "actor_rollout_ref.actor.ppo_mini_batch_size=16",
                    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1", *words)
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
    source = launch(*BASE, "data.train_batch_size=8", "actor_rollout_ref.actor.ppo_mini_batch_size=8",
                    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1", "+trainer.val_only=True")
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

    assert closed_section("verl", "0.9.1", "actor_rollout_ref.actor.fsdp_config.grad_offload") == \
        "actor_rollout_ref.actor.fsdp_config"
    assert closed_section("verl", "0.9.1", "trainer.no_such_key") is None  # trainer is a plain mapping
    assert closed_section("verl", "0.8.0", "actor_rollout_ref.actor.fsdp_config.grad_offload") is None  # no schema


def test_writing_a_read_only_release_is_refused() -> None:
    with pytest.raises(translator.ConfigError, match="reads verl 0.1 but writes verl 0.3.0 and newer"):
        translator.translate(RUN_PARTS, to="verl@0.1")


def test_a_script_without_rollout_name_is_read_as_the_newest_release_that_accepts_it() -> None:
    """rollout.name defaulted to vllm up to 0.5 and is mandatory ('???') from 0.6.1: a script that omits it and
    uses no key of a later release is a 0.5-era script, not a broken 0.9 one."""
    words = ("data.train_batch_size=8", "actor_rollout_ref.actor.ppo_mini_batch_size=8",
             "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1", "trainer.n_gpus_per_node=2")
    explanation = translator.explain(launch("algorithm.adv_estimator=grpo", *words))
    assert explanation.version == "0.5.0"
    assert "rollout.name is not set" in next(n.message for n in explanation.notes if n.code == "version.assumed")
    later = translator.explain(launch("algorithm.adv_estimator=grpo", "critic.enable=False", *words))
    assert later.version == "0.9.1"  # critic.enable exists from 0.6.1: then the missing name is the user's error
