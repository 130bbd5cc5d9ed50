"""Written configs hold what the target runs: cadences in the target's own steps, shell variables in the
target's own form, reward functions that resolve to the user's file with the target's call signature."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml

import translator
from translator.sources.files import Source

# ---------------------------------------------------------------------------- cadences from TRL <= 0.16
# TRL 0.16 generates every micro-step: W 8 processes × per_device_train_batch_size 8 completions = 64 completions
# (8 prompts of num_generations 8) per round; an optimizer step every gradient_accumulation_steps 16 micro-steps
# = 1024 completions (128 prompts). save_steps / eval_steps count optimizer steps (TrainingArguments).
TRL016 = """model_name_or_path: Qwen/Qwen2.5-0.5B
dataset_name: trl-lib/tldr
num_generations: 8
per_device_train_batch_size: 8
gradient_accumulation_steps: 16
num_iterations: {mu}
save_strategy: steps
save_steps: {save}
eval_strategy: steps
eval_steps: 50
output_dir: out
use_vllm: true
"""


def trl016(save: int = 100, mu: int = 1) -> translator.Explanation:
    return translator.load(Source(TRL016.format(save=save, mu=mu), "recipe.yaml"), framework="trl@0.16.0",
                           num_processes=8)


def launch_words(script: str) -> list[str]:
    return shlex.split(script.replace("\\\n", " "), comments=True)


def hydra_value(words: list[str], key: str) -> str:
    [value] = [w.split("=", 1)[1] for w in words if w.startswith(key + "=")]
    return value


def test_trl016_save_steps_into_verl_counts_verl_steps() -> None:
    # verl cannot update less often than it generates: it writes train_batch_size 128 prompts × n 8 = 1024
    # completions per step, one optimizer step each. save_steps 100 = 100 × 1024 completions between checkpoints
    # = 100 verl steps; eval_steps 50 = 50 verl steps.
    words = launch_words(translator.translate(trl016(), to="verl").files["launch.sh"])
    assert hydra_value(words, "data.train_batch_size") == "128"
    assert hydra_value(words, "trainer.save_freq") == "100"
    assert hydra_value(words, "trainer.test_freq") == "50"


def test_trl016_save_steps_into_easyr1_counts_easyr1_steps() -> None:
    # As for verl: rollout_batch_size 128 prompts = one optimizer step's 1024 completions per EasyR1 step, so
    # 100 optimizer steps = save_freq 100 and 50 = val_freq 50.
    config = yaml.safe_load(translator.translate(trl016(), to="easyr1").files["config.yaml"])
    assert config["data"]["rollout_batch_size"] == 128
    assert config["trainer"]["save_freq"] == 100
    assert config["trainer"]["val_freq"] == 50


def test_trl016_save_steps_into_openrlhf_keeps_the_rollout_step() -> None:
    # OpenRLHF keeps the source's rollout step (rollout.batch_size 8 prompts × 8 = 64 completions) and updates
    # every train.batch_size 1024 completions (DeepSpeed accumulates across rollouts); its global_step counts
    # rollouts, so 100 optimizer steps = 100 × 1024 / 64 = 1600 rollout steps.
    words = launch_words(translator.translate(trl016(), to="openrlhf@0.11.2").files["launch.sh"])
    assert words[words.index("--rollout.batch_size") + 1] == "8"
    assert words[words.index("--train.batch_size") + 1] == "1024"
    assert words[words.index("--ckpt.save_steps") + 1] == "1600"


def test_a_cadence_between_written_steps_is_noted_with_both_values() -> None:
    # num_iterations 2: each 1024-completion batch gives 2 optimizer steps, so verl's step (1024 completions,
    # ppo_epochs 2) holds 2 optimizer steps; save_steps 5 = 2.5 verl steps: not whole, rounded to 2 (nearest).
    translation = translator.translate(trl016(save=5, mu=2), to="verl")
    assert hydra_value(launch_words(translation.files["launch.sh"]), "trainer.save_freq") == "2"
    [note] = [n for n in translation.notes if n.code == "checkpointing.not-expressible"]
    assert note.severity == "warning" and "40 source steps" in note.message and "2.5 written steps" in note.message
