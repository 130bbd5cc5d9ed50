"""Written configs hold what the target runs: cadences in the target's own steps, shell variables in the
target's own form, reward functions that resolve to the user's file with the target's call signature."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    return translator.load(
        Source(TRL016.format(save=save, mu=mu), "recipe.yaml"), framework="trl@0.16.0", num_processes=8
    )


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


# ---------------------------------------------------------------------------- shell variables in the target's form
SCRIPT = """python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_files=$HOME/data/train.parquet \\
    data.train_batch_size=64 \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \\
    actor_rollout_ref.model.path=$HOME/models/q \\
    trainer.default_local_dir='$HOME/ckpt ${X}' \\
    custom_reward_function.path=$HOME/math.py \\
    custom_reward_function.name=compute_score \\
    trainer.n_gpus_per_node=8 trainer.nnodes=1
"""
HOME = "/home/t e'st"


def test_easyr1_yaml_reads_the_variable_through_omegaconf(monkeypatch: pytest.MonkeyPatch) -> None:
    """EasyR1 merges config.yaml into OmegaConf.structured(PPOConfig()) and resolves it (verl/trainer/main.py):
    $HOME the source left to the shell must be ${oc.env:HOME}; the literal '${X}' (single-quoted in the source,
    never expanded) must stay text."""
    omegaconf = pytest.importorskip("omegaconf")
    files = translator.translate(Source(SCRIPT, "run.sh"), to="easyr1").files
    monkeypatch.setenv("HOME", HOME)
    resolved = omegaconf.OmegaConf.to_container(omegaconf.OmegaConf.create(files["config.yaml"]), resolve=True)
    assert resolved["data"]["train_files"] == f"{HOME}/data/train.parquet"
    assert resolved["worker"]["actor"]["model"]["model_path"] == f"{HOME}/models/q"
    assert resolved["worker"]["reward"]["reward_function"] == f"{HOME}/math.py:compute_score"
    assert resolved["trainer"]["save_checkpoint_path"] == "$HOME/ckpt ${X}"


@pytest.mark.parametrize("text", ["a\\${X}", "\\\\${HOME}/x\\", "${HOME}${HOME}", "${oc.env:X}", "$${HOME}}"])
def test_omegaconf_text_resolves_to_the_text(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With HOME live the written value resolves to the text with HOME's value put in; nothing else changes."""
    omegaconf = pytest.importorskip("omegaconf")
    from translator.dialects.writing import omegaconf_text

    monkeypatch.setenv("HOME", HOME)
    config = omegaconf.OmegaConf.create({"k": omegaconf_text(text, ["HOME"])})
    assert omegaconf.OmegaConf.to_container(config, resolve=True)["k"] == text.replace("${HOME}", HOME)


def test_trl_recipe_values_with_a_variable_go_on_the_launch_line(tmp_path: Path) -> None:
    """TrlParser never expands a YAML value but takes --key value after --config over the recipe: the written
    launch line, run by bash, hands TrlParser HOME's value."""
    from tests.test_written_scripts import run_launch

    trl = pytest.importorskip("trl")
    from trl.scripts.grpo import GRPOScriptArguments

    files = translator.translate(Source(SCRIPT, "run.sh"), to="trl@1.16.0").files
    assert "${HOME}" not in files["recipe.yaml"].split("\n", 6)[-1]  # no variable in a value (the header names it)
    [call] = run_launch(files, tmp_path, {"HOME": HOME})
    argv = call[call.index("trl.scripts.grpo") + 1 :]
    parser = trl.TrlParser((GRPOScriptArguments, trl.GRPOConfig, trl.ModelConfig))
    # On this CPU-only machine with one process: no bf16, no vLLM, an eval batch that holds a whole group (4).
    test_machine = ["--bf16", "false", "--use_vllm", "false", "--per_device_eval_batch_size", "4"]
    work = tmp_path / "run"
    cwd = os.getcwd()
    os.chdir(work)
    try:
        script, training, model = parser.parse_args_and_config(args=argv + test_machine)
    finally:
        os.chdir(cwd)
    assert model.model_name_or_path == f"{HOME}/models/q"
    assert script.dataset_name == f"{HOME}/data"
    assert training.output_dir == "$HOME/ckpt ${X}"  # single-quoted in the source: text


# ---------------------------------------------------------------------------- reward functions
# TRL's grpo script (trl/scripts/grpo.py, 0.18 on) resolves a dotted reward_funcs entry so:
#     module_path, func_name = func_name.rsplit(".", 1); sys.path.insert(0, os.getcwd())
#     module = importlib.import_module(module_path); reward_func = getattr(module, func_name)
# and calls it as reward_func(prompts=..., completions=..., completion_ids=..., **columns).
RESOLVE = """
import importlib, json, os, sys
import math  # Python's own math is already imported in any real process
entry = sys.argv[1]
module_path, func_name = entry.rsplit(".", 1)
sys.path.insert(0, os.getcwd())
func = getattr(importlib.import_module(module_path), func_name)
print(json.dumps(func(**json.loads(sys.argv[2]))))
"""


def resolve_and_call(work: Path, entry: str, kwargs: dict[str, Any], home: Path) -> Any:
    done = subprocess.run(
        [sys.executable, "-c", RESOLVE, entry, json.dumps(kwargs)],
        cwd=work,
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(home)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def write_out(files: dict[str, str], folder: Path) -> None:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


VERL_MATH = """def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    assert data_source == "gsm8k" and extra_info == {"index": 0}
    score = 1.0 if solution_str.strip() == ground_truth else 0.0
    return {"score": score} if ground_truth == "9" else score
"""


def test_a_verl_math_py_is_called_through_a_bridge_not_pythons_math(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "math.py").write_text(VERL_MATH)
    translation = translator.translate(Source(SCRIPT, "run.sh"), to="trl@1.16.0")
    [entry] = yaml.safe_load(translation.files["recipe.yaml"])["reward_funcs"]
    assert entry.split(".")[0] not in sys.stdlib_module_names
    write_out(translation.files, tmp_path / "out")
    # verl-style rows: the answer in reward_model.ground_truth. "4" == "4" → 1.0; "5" != "4" → 0.0; "9" == "9"
    # returned as {"score": 1.0} → 1.0; a conversational completion's text is its last message's content.
    columns = {
        "prompts": ["p"] * 3,
        "completions": [" 4", "5", [{"role": "assistant", "content": "9"}]],
        "reward_model": [{"ground_truth": "4"}, {"ground_truth": "4"}, {"ground_truth": "9"}],
        "data_source": ["gsm8k"] * 3,
        "extra_info": [{"index": 0}] * 3,
    }
    assert resolve_and_call(tmp_path / "out", entry, columns, home) == [1.0, 0.0, 1.0]


EASYR1_BATCH = """def main(reward_inputs, **kwargs):
    return [{"overall": float(x["response"] == x["ground_truth"]) + x["response_length"] / 100} for x in reward_inputs]
"""


def test_an_easyr1_batch_function_gets_its_inputs(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    translation = translator.translate(str(root / "fixtures/easyr1/head_rpp_kl_reward_static.yaml"), to="trl@1.16.0")
    [entry] = yaml.safe_load(translation.files["recipe.yaml"])["reward_funcs"]
    write_out(translation.files, tmp_path / "out")
    user = tmp_path / "out" / "examples" / "reward_function"
    user.mkdir(parents=True)
    (user / "gsm8k.py").write_text(EASYR1_BATCH)  # the source's ./examples/reward_function/gsm8k.py:main
    # answer column "answer" (data.answer_key); response_length = len(completion_ids[i]): "7"=="7" → 1 + 3/100,
    # "8"!="7" → 0 + 1/100.
    columns = {
        "prompts": ["p", "p"],
        "completions": ["7", "8"],
        "completion_ids": [[1, 2, 3], [1]],
        "answer": ["7", "7"],
    }
    assert resolve_and_call(tmp_path / "out", entry, columns, tmp_path) == [1.03, 0.01]


@pytest.mark.parametrize("stem", ["random", "yaml"])  # a standard-library module; one installed (PyYAML)
def test_a_trl_reward_module_named_like_another_module_gets_a_bridge(tmp_path: Path, stem: str) -> None:
    recipe = TRL016.format(save=100, mu=1) + f"reward_funcs: [{stem}.score]\n"
    translation = translator.translate(
        Source(recipe, "recipe.yaml"), to="trl@1.16.0", framework="trl@0.18.0", num_processes=8
    )
    [entry] = yaml.safe_load(translation.files["recipe.yaml"])["reward_funcs"]
    write_out(translation.files, tmp_path / "out")
    assert not entry.startswith(stem + ".")
    (tmp_path / "out" / f"{stem}.py").write_text(
        "def score(completions, **kwargs):\n    return [float(len(c)) for c in completions]\n"
    )
    # TRL's signature already: called with the columns as given; lengths 2 and 0.
    assert resolve_and_call(tmp_path / "out", entry, {"prompts": ["p", "p"], "completions": ["ab", ""]}, tmp_path) == [
        2.0,
        0.0,
    ]


def test_a_trl_reward_module_of_its_own_name_in_the_launch_directory_is_kept() -> None:
    # my_rewards.py is no standard-library or installed module: TRL's import from the launch directory finds it,
    # and the function already has TRL's signature, so the source's entry is written unchanged.
    recipe = TRL016.format(save=100, mu=1) + "reward_funcs: [my_rewards.score]\n"
    translation = translator.translate(
        Source(recipe, "recipe.yaml"), to="trl@1.16.0", framework="trl@0.18.0", num_processes=8
    )
    assert yaml.safe_load(translation.files["recipe.yaml"])["reward_funcs"] == ["my_rewards.score"]
    assert "rlconf_reward.py" not in translation.files
