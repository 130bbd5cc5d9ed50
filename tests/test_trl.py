"""TRL / Open-R1 writer and reader: the transformers a target runs with, the whole run (data, reward, checkpoints,
evaluation, logging, placement, multi-node launch), group sizes TRL accepts, version bounds. Every expected value is
worked out by hand in the comments from TRL's and transformers' own code (docs/frameworks/trl.md)."""

from __future__ import annotations

import dataclasses
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

import translator
import translator.dialects
from tests.conftest import FIXTURES, read_back, write_project
from translator import ConfigError
from translator.sources.files import Source

TRL = FIXTURES / "trl"
MULTINODE = TRL / "openr1_multinode_run_parts" / "launch.sh"
COLOCATE = TRL / "colocate_trl116_zero3" / "launch.sh"  # warmup_ratio 0.02, max_steps unset
SPG = TRL / "spg_max_steps_fsdp" / "launch.sh"  # warmup_ratio 0.03, --max_steps 250, 2 optimizer steps per step
VERL_ENV = {"HOME": "/home/me"}


def recipe(translation: translator.api.Translation) -> dict:
    return yaml.safe_load(translation.files["recipe.yaml"])


def codes(translation: translator.api.Translation) -> set[str]:
    return {n.code for n in translation.notes}


def rejected(translation: translator.api.Translation) -> list[str]:
    return [n.message for n in translation.notes if n.code == "target.rejected"]


# ---------------------------------------------------------------- the transformers a target runs with
def test_default_target_is_the_newest_transformers_and_says_so() -> None:
    translation = translator.translate(COLOCATE, to="trl@1.16.0", framework="trl@1.16.0+transformers5.10.4")
    assert translation.version == "1.16.0"
    assumed = [n.message for n in translation.notes if n.code == "version.transformers-assumed"]
    assert any("transformers 5.24.0" in m for m in assumed)
    written = recipe(translation)
    # transformers 5.15 removed warmup_ratio; the run length is unknown (max_steps unset), so the ratio is written as
    # warmup_steps 0.02, which transformers >= 5 reads as a ratio (get_warmup_steps: < 1 → ceil(total × value)).
    assert "warmup_ratio" not in written and written["warmup_steps"] == 0.02
    assert "# TRL 1.16.0 GRPO recipe" in translation.files["recipe.yaml"]
    assert "for transformers 5.24.0" in translation.files["recipe.yaml"]
    assert not rejected(translation)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("trl@1.16.0+transformers4.56.2", {"warmup_ratio": 0.02}),  # 4.x: warmup_steps is an int, the ratio stays
        ("trl@1.16.0+transformers5.10.4", {"warmup_steps": 0.02}),  # valid in 5.10.4 and 5.24.0 alike
    ],
)
def test_named_transformers_decides_the_warmup_spelling(target: str, expected: dict) -> None:
    translation = translator.translate(COLOCATE, to=target, framework="trl@1.16.0+transformers5.10.4")
    written = recipe(translation)
    assert {k: written[k] for k in expected} == expected
    assert ({"warmup_ratio", "warmup_steps"} - set(expected)).isdisjoint(written)
    assert translation.version == target.split("@")[1]


def test_warmup_of_a_known_run_is_whole_steps() -> None:
    # max_steps 250 optimizer steps (the launch line) → written max_steps 250; warmup_ratio 0.03 → ceil(250 × 0.03) =
    # ceil(7.5) = 8 optimizer steps, an integer every transformers release reads as steps.
    written = recipe(translator.translate(SPG, to="trl@1.16.0"))
    assert written["max_steps"] == 250 and written["warmup_steps"] == 8 and "warmup_ratio" not in written


def test_a_key_the_transformers_lacks_is_dropped_with_a_note() -> None:
    text = (TRL / "recipe_only_np8" / "recipe_only_np8.yaml").read_text() + "\nlogging_dir: runs/x\n"
    source = Source(text, "recipe.yaml")
    newest = translator.translate(source, to="trl@1.16.0", framework="trl@0.27.0", num_processes=8)
    assert "logging_dir" not in recipe(newest)
    assert any(n.code == "keys.not-in-transformers" and n.source_keys == ["logging_dir"] for n in newest.notes)
    pinned = translator.translate(source, to="trl@1.16.0+transformers5.10.4", framework="trl@0.27.0", num_processes=8)
    assert recipe(pinned)["logging_dir"] == "runs/x"  # 5.10.4 still has it (deprecated)


@pytest.mark.parametrize("target", ["trl@1.16.0+transformers4.40.0", "trl@1.16.0+transformersX"])
def test_a_transformers_the_release_cannot_use_is_bad_input(target: str) -> None:
    with pytest.raises(ConfigError):
        translator.translate(COLOCATE, to=target, framework="trl@1.16.0+transformers5.10.4")


def test_check_judges_with_the_assumed_transformers() -> None:
    assert not translator.check(COLOCATE, framework="trl@1.16.0+transformers5.10.4").errors
    errors = translator.check(COLOCATE, framework="trl@1.16.0").errors
    assert [(f.rule, f.keys) for f in errors] == [("trl.unknown-config-key", ["warmup_ratio"])]


# ---------------------------------------------------------------- the LR floor
def test_min_lr_ratio_is_written_where_the_scheduler_reads_it() -> None:
    # cosine_with_min_lr needs lr_scheduler_kwargs (transformers: "One of min_lr or min_lr_rate should be set").
    translation = translator.translate(MULTINODE, to="trl@1.16.0")
    written = recipe(translation)
    assert written["lr_scheduler_type"] == "cosine_with_min_lr"
    assert written["lr_scheduler_kwargs"] == {"min_lr_rate": 0.1}
    assert translation.spec.optimizer.min_lr_ratio == 0.1


def test_cosine_with_min_lr_without_its_floor_is_an_error() -> None:
    text = (TRL / "recipe_only_np8" / "recipe_only_np8.yaml").read_text() + "\nlr_scheduler_type: cosine_with_min_lr\n"
    text = text.replace("lr_scheduler_type: cosine\n", "") if text.count("lr_scheduler_type") > 1 else text
    report = translator.check(Source(text, "recipe.yaml"), framework="trl@0.27.0+transformers4.56.2", num_processes=8)
    assert "trl.cosine-min-lr-unset" in {f.rule for f in report.errors}


# ---------------------------------------------------------------- one sample per prompt
def test_ppo_with_a_critic_gets_two_generations_and_keeps_its_samples() -> None:
    source = translator.load(FIXTURES / "verl" / "ppo_gae_ulysses_sp2.sh", env=VERL_ENV)
    translation = translator.translate(source, to="trl@1.16.0")
    written = recipe(translation)
    assert written["num_generations"] == 2
    # the same completions per step, half the prompts (an even number of samples pairs up)
    assert translation.plan["samples_per_step"] == source.plan["samples_per_step"]
    assert translation.plan["prompts_per_step"] * 2 == source.plan["prompts_per_step"]
    assert "algorithm.group-size-changed" in codes(translation) and not rejected(translation)


def test_an_odd_number_of_single_samples_doubles_the_batches() -> None:
    # 3 prompts × 1 sample per step on one process cannot pair up: keep the 3 prompts, 2 samples each → 6 per step
    # and per optimizer step; pdtbs 1, gradient_accumulation_steps 6, steps_per_generation 6 → generation_batch_size
    # 1 × 1 × 6 = 6, divisible by num_generations 2.
    explanation = translator.load(FIXTURES / "verl" / "ppo_gae_ulysses_sp2.sh", env=VERL_ENV)
    plan = explanation.spec.plan
    for name, value in {
        "prompts_per_step": 3,
        "samples_per_step": 3,
        "samples_per_optimizer_step": 3,
        "data_parallel_size": 1,
        "micro_batch_per_device": 1,
        "grad_accum_steps": 3,
        "optimizer_steps_per_step": 1,
    }.items():
        setattr(plan, name, value)
    explanation.spec.topology = dataclasses.replace(
        explanation.spec.topology, training_gpus=1, nodes=1, gpus_per_node=1, sequence_parallel_size=1
    )
    translation = translator.translate(explanation, to="trl@1.16.0")
    written = recipe(translation)
    assert (
        written["num_generations"],
        written["per_device_train_batch_size"],
        written["steps_per_generation"],
        written["gradient_accumulation_steps"],
    ) == (2, 1, 6, 6)
    assert translation.plan["prompts_per_step"] == 3 and translation.plan["samples_per_step"] == 6
    assert not rejected(translation)


# ---------------------------------------------------------------- version bounds
def test_a_key_of_old_releases_bounds_the_version() -> None:
    # vllm_device exists in 0.14–0.17 only: an Open-R1 recipe with it is not 0.18 (Open-R1's pin). The newest release
    # with every key is 0.17.0, whose check on (7 x 1 x 1) completions rejects num_generations 8.
    text = (
        "model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\nreward_funcs: [accuracy]\nuse_vllm: true\n"
        "vllm_device: auto\nper_device_train_batch_size: 1\nnum_generations: 8\n"
    )
    explanation = translator.load(Source(text, "recipe.yaml"), num_processes=7)
    assert explanation.version == "0.17.0"
    report = translator.check(Source(text, "recipe.yaml"), num_processes=7)
    assert report.version == "0.17.0"
    assert any("(7 x 1 x 1)" in f.message and "(8)" in f.message for f in report.errors)


def test_keys_of_releases_that_never_coexisted_are_noted() -> None:
    text = "vllm_device: auto\nsteps_per_generation: 4\nnum_generations: 8\nper_device_train_batch_size: 8\n"
    explanation = translator.load(Source(text, "recipe.yaml"), num_processes=8)
    assert "version.conflicting-keys" in {n.code for n in explanation.notes}


def test_a_removed_experimental_trainer_is_named() -> None:
    text = "accelerate launch --num_processes 8 trl/experimental/gfpo/gfpo.py --config recipe.yaml\n"
    with pytest.raises(ConfigError, match=r"gfpo.*1.10.0"):
        translator.load(Source(text, "launch.sh"), framework="trl")


# ---------------------------------------------------------------- the whole run
def test_the_whole_run_survives_trl_to_trl() -> None:
    source = translator.load(MULTINODE)
    translation = translator.translate(source, to="trl@1.16.0")
    back = translator.load(read_back(translation))
    for section in ("data", "reward", "checkpointing", "evaluation", "logging", "launch"):
        assert getattr(back.spec, section) == getattr(source.spec, section), section
    t = back.spec.topology
    assert (
        t.nodes,
        t.training_gpus,
        t.rollout_gpus,
        t.rollout_engines,
        t.rollout_tensor_parallel_size,
        t.rollout_gpu_memory_fraction,
    ) == (3, 16, 8, 4, 2, 0.85)
    assert back.spec.optimizer.min_lr_ratio == 0.1 and back.spec.algorithm.clip_ratio_dual == 3.0
    written = recipe(translation)
    # cadences stay in optimizer steps: 2 optimizer steps per rollout step both sides
    assert (written["save_steps"], written["eval_steps"], written["max_steps"]) == (50, 20, 300)
    launch = translation.files["launch.sh"]
    assert "--num_machines 2" in launch and '--machine_rank "$MACHINE_RANK"' in launch
    assert '--vllm_server_host "${VLLM_SERVER_HOST:-10.0.0.3}"' in launch
    assert 'if [ "${NODE_ROLE:-train}" = vllm ]' in launch and "--data_parallel_size 4" in launch
    assert not {"topology.gpus-changed", "topology.nodes-changed"} & codes(translation)


def test_a_48_gpu_source_gets_a_launch_per_node_and_a_vllm_node() -> None:
    # 6 nodes × 8 GPUs: 40 training processes on 5 nodes, vLLM (8 GPUs) on the sixth, reached by address.
    explanation = translator.load(MULTINODE)
    spec = explanation.spec
    spec.topology = dataclasses.replace(spec.topology, nodes=6, gpus_per_node=8, training_gpus=40, rollout_gpus=8)
    spec.launch = dataclasses.replace(spec.launch, main_process_host=None, rollout_server_host=None)
    plan = spec.plan
    plan.data_parallel_size, plan.grad_accum_steps = 40, 4
    plan.samples_per_step = plan.samples_per_optimizer_step = 8 * 40 * 4  # 1280 = 80 prompts × 16
    plan.prompts_per_step = 80
    translation = translator.translate(explanation, to="trl@1.16.0")
    accelerate = yaml.safe_load(translation.files["accelerate.yaml"])
    assert (accelerate["num_machines"], accelerate["num_processes"]) == (5, 40)
    launch = translation.files["launch.sh"]
    assert ': "${MAIN_PROCESS_IP:?' in launch and ': "${VLLM_SERVER_HOST:?' in launch
    assert '--main_process_ip "$MAIN_PROCESS_IP"' in launch and '--vllm_server_host "$VLLM_SERVER_HOST"' in launch
    assert "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 trl vllm-serve" in launch
    assert recipe(translation)["vllm_mode"] == "server"
    assert not {"topology.gpus-changed", "topology.nodes-changed"} & codes(translation)
    back = translator.load(read_back(translation))
    assert back.spec.launch.main_process_host == "${MAIN_PROCESS_IP}"
    assert back.spec.launch.rollout_server_host == "${VLLM_SERVER_HOST}"
    assert (back.spec.topology.nodes, back.spec.topology.rollout_gpus) == (6, 8)


def test_a_reward_file_uses_trls_own_script() -> None:
    explanation = translator.load(MULTINODE)
    explanation.spec.reward = dataclasses.replace(
        explanation.spec.reward, builtin=None, weights=None, function_path="rewards/my_reward.py", function_name="score"
    )
    translation = translator.translate(explanation, to="trl@1.16.0")
    written = recipe(translation)
    # rewards/my_reward.py is not importable as my_reward from the launch directory (TRL's script puts only the
    # working directory on sys.path): a bridge module next to the recipe loads it by its path.
    assert written["reward_funcs"] == ["rlconf_reward.score"]
    assert "'rewards/my_reward.py'" in translation.files["rlconf_reward.py"]
    assert not {"dataset_prompt_column", "wandb_project", "system_prompt"} & set(written)  # Open-R1 keys only
    assert "-m trl.scripts.grpo" in translation.files["launch.sh"]
    assert "export WANDB_PROJECT=open-r1-math" in translation.files["launch.sh"]
    bridge = [n.message for n in translation.notes if n.code == "reward.bridge"]
    assert bridge and "score(completions, **kwargs) -> list[float]" in bridge[0]
    back = translator.load(read_back(translation))
    assert (back.spec.reward.function_path, back.spec.reward.function_name) == ("rlconf_reward.py", "score")
    old = translator.translate(explanation, to="trl@0.17.0")  # no dotted reward paths before 0.18
    assert "reward.not-expressible" in codes(old)


def test_other_frameworks_builtin_scorers_map_to_open_r1() -> None:
    explanation = translator.load(MULTINODE)
    explanation.spec.reward = dataclasses.replace(
        explanation.spec.reward, builtin=["math", "format"], weights=[1.0, 1.0]
    )
    translation = translator.translate(explanation, to="trl@1.16.0")
    assert recipe(translation)["reward_funcs"] == ["accuracy", "format"]
    assert "reward_weights" not in recipe(translation)  # all 1.0: TRL's default
    assert "reward.builtin-mapped" in codes(translation)


def test_local_parquet_files_become_a_dataset_directory_with_splits() -> None:
    # load_dataset("data/gsm8k") names splits after the files: train.parquet → train, test.parquet → test.
    explanation = translator.load(MULTINODE)
    explanation.spec.data = dataclasses.replace(
        explanation.spec.data,
        train_sources=["data/gsm8k/train.parquet"],
        eval_sources=["data/gsm8k/test.parquet"],
        train_subset=None,
        eval_split=None,
        train_split=None,
    )
    written = recipe(translator.translate(explanation, to="trl@1.16.0"))
    assert (written["dataset_name"], written["dataset_test_split"]) == ("data/gsm8k", "test")
    assert "dataset_train_split" not in written  # "train", the default


def test_cadences_in_rollout_steps_become_optimizer_steps() -> None:
    # 2 optimizer steps per rollout step: a checkpoint every 7 rollout steps = save_steps 14, eval every 3 = 6.
    explanation = translator.load(MULTINODE)
    explanation.spec.checkpointing = dataclasses.replace(explanation.spec.checkpointing, every_steps=7)
    explanation.spec.evaluation = dataclasses.replace(explanation.spec.evaluation, every_steps=3, before_training=True)
    written = recipe(translator.translate(explanation, to="trl@1.16.0"))
    assert (written["save_strategy"], written["save_steps"]) == ("steps", 14)
    assert (written["eval_strategy"], written["eval_steps"], written["eval_on_start"]) == ("steps", 6, True)
    never = dataclasses.replace(explanation.spec.checkpointing, every_steps=0)
    explanation.spec.checkpointing = never
    assert recipe(translator.translate(explanation, to="trl@1.16.0"))["save_strategy"] == "no"


def test_vllm_keeps_its_own_gpu_from_an_old_server_recipe() -> None:
    # A trl 0.16 server-mode run (vLLM on a GPU of its own) into 1.16: still server mode, not colocated.
    translation = translator.translate(TRL / "trl016_mu2_server" / "launch.sh", to="trl@1.16.0")
    assert recipe(translation)["vllm_mode"] == "server"
    assert "vllm_gpu_memory_utilization" not in recipe(translation)


def test_frameworks_list_the_changes_of_the_newest_releases() -> None:
    listing = {d["name"]: d for d in translator.dialects.listing()}["trl"]
    changes = {v["version"]: v["changes"] for v in listing["versions"]}
    assert "max_completion_length 256 → 512" in changes["1.10.0"]
    assert "pad_to_multiple_of" in changes["1.16.0"]


def test_docs_page_lists_the_supported_versions() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "frameworks" / "trl.md").read_text()
    line = next(line for line in page.splitlines() if line.startswith("Supported versions:"))
    listed = [v.strip() for v in line.removeprefix("Supported versions:").strip().rstrip(".").split(",")]
    assert tuple(listed) == translator.dialects.get("trl").versions


def test_native_keys_are_judged_with_the_named_transformers() -> None:
    # colocate_trl116_zero3 sets warmup_ratio: a field of transformers 5.10.4, not of 5.24.0 (the default).
    def unknown(framework: str) -> list[str]:
        explanation = translator.load(COLOCATE, framework=framework)
        return [k for n in explanation.notes if n.code == "keys.unknown" for k in n.source_keys]

    assert unknown("trl@1.16.0+transformers5.10.4") == []
    assert unknown("trl@1.16.0") == ["warmup_ratio"]
    # TrlParser 1.16 stops on it: explain refuses the recipe rather than state the plan of a run that never starts
    with pytest.raises(translator.ConfigError, match="warmup_ratio"):
        translator.explain(COLOCATE, framework="trl@1.16.0")


def test_reward_names_follow_the_script_that_reads_them() -> None:
    # Open-R1's registry says accuracy/format, TRL's own script accuracy_reward/think_format_reward.
    explanation = translator.load(MULTINODE)
    explanation.spec.reward = dataclasses.replace(
        explanation.spec.reward, builtin=["accuracy_reward", "think_format_reward"], weights=None
    )
    assert recipe(translator.translate(explanation, to="trl@1.16.0"))["reward_funcs"] == ["accuracy", "format"]
    explanation.spec.reward = dataclasses.replace(
        explanation.spec.reward, builtin=["accuracy", "format"], model="org/reward-model"
    )
    written = recipe(translator.translate(explanation, to="trl@1.16.0"))  # a reward model: TRL's own script
    assert written["reward_funcs"] == ["accuracy_reward", "think_format_reward"]
    assert written["reward_model_name_or_path"] == "org/reward-model"


def test_a_node_without_room_for_both_puts_vllm_on_a_node_of_its_own() -> None:
    # 8 training processes and an 8-GPU server cannot share one 8-GPU node: the server gets a second node.
    explanation = translator.load(MULTINODE)
    spec = explanation.spec
    spec.topology = dataclasses.replace(spec.topology, nodes=2, gpus_per_node=8, training_gpus=8, rollout_gpus=8)
    spec.launch = dataclasses.replace(spec.launch, main_process_host=None, rollout_server_host=None)
    plan = spec.plan
    plan.data_parallel_size, plan.samples_per_step, plan.samples_per_optimizer_step, plan.prompts_per_step = (
        8,
        256,
        256,
        16,
    )  # pdtbs 8 × 8 processes × GAS 4 = 256 completions = 16 prompts × 16
    translation = translator.translate(explanation, to="trl@1.16.0")
    launch = translation.files["launch.sh"]
    assert "CUDA_VISIBLE_DEVICES=8" not in launch and "--num_machines" not in launch
    assert 'if [ "${NODE_ROLE:-train}" = vllm ]' in launch and '--vllm_server_host "$VLLM_SERVER_HOST"' in launch
    assert not {"topology.gpus-changed", "topology.nodes-changed"} & codes(translation)


def test_a_bare_output_dir_flag_names_no_checkpoint_directory() -> None:
    """`--output_dir <OUTPUT_DIR>` (a placeholder bash reads as a redirection) leaves a bare flag: no directory, so
    no target is written a checkpoint path without a value."""
    source = Source(
        "accelerate launch --num_processes 2 src/open_r1/grpo.py --output_dir --num_generations 2 "
        "--per_device_train_batch_size 2\n",
        "run.sh",
    )
    explanation = translator.explain(source, framework="trl@0.16.0")
    assert explanation.spec.checkpointing.directory is None
    launch = translator.translate(explanation, to="openrlhf@0.11.2").files["launch.sh"]
    assert "--ckpt.path" not in launch


def test_reward_weights_that_are_not_numbers_are_bad_input(tmp_path: Path) -> None:
    # TRL parses reward_weights as floats: '???' cannot be one, so the recipe is broken (ConfigError naming the
    # key), never an internal error; weights from an unset variable are unknown (no weights), not an error.
    recipe_file = tmp_path / "grpo.yaml"
    base = (
        "model_name_or_path: m\nper_device_train_batch_size: 8\nnum_generations: 8\nreward_funcs: [accuracy, format]\n"
    )
    recipe_file.write_text(base + "reward_weights: [1.0, '???']\n")
    with pytest.raises(ConfigError, match="reward_weights"):
        translator.explain(str(recipe_file), framework="trl@0.18.0", num_processes=1)
    recipe_file.write_text(base + "reward_weights: [1.0, 2.0]\n")
    assert translator.explain(str(recipe_file), framework="trl@0.18.0", num_processes=1).spec.reward.weights == [
        1.0,
        2.0,
    ]


def test_project_scripts_that_import_no_trl_are_no_training_launch(tmp_path: Path) -> None:
    # A data builder and a reward self-test run with python beside a launch of a module no TRL has: neither imports
    # trl nor names a trainer (a docstring that says "GRPO" is no code), so nothing in the script trains with TRL
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "prep.py").write_text('"""Toy data for GRPO smoke tests."""\nimport json\n')
    (tmp_path / "src" / "reward.py").write_text("import re\n\n\ndef score(text):\n    return 1.0\n")
    script = tmp_path / "run.sh"
    script.write_text(
        "python src/prep.py --out data\npython src/reward.py --self_test\n"
        "deepspeed --module other.cli.train_grpo --num_generations 4 --per_device_train_batch_size 4\n"
    )
    with pytest.raises(translator.ConfigError, match=r"src/prep\.py, src/reward\.py: import no trl"):
        translator.explain(str(script), framework="trl")
    # a training script that builds TRL's GRPOTrainer is read: 4 completions per device ÷ 4 = 1 prompt per round
    (tmp_path / "src" / "train.py").write_text(
        "from trl import GRPOConfig, GRPOTrainer, TrlParser\n\n"
        "(args,) = TrlParser((GRPOConfig,)).parse_args_and_config()\nGRPOTrainer(args=args)\n"
    )
    script.write_text(
        script.read_text() + "python src/train.py --num_generations 4 --per_device_train_batch_size 4 --output_dir o\n"
    )
    plan = translator.explain(str(script), framework="trl").spec.plan
    assert (plan.samples_per_prompt, plan.prompts_per_step) == (4, 1)
    # an evaluation script named like GRPO after the launch, using only trl's prompt helpers, trains nothing: the
    # launch read is still train.py's (were eval_grpo.py read, its 8 generations would be TRL's default)
    (tmp_path / "src" / "eval_grpo.py").write_text(
        "from trl.data_utils import maybe_apply_chat_template\nfrom transformers import AutoModel\n"
    )
    script.write_text(script.read_text() + "python src/eval_grpo.py --model o\n")
    plan = translator.explain(str(script), framework="trl").spec.plan
    assert (plan.samples_per_prompt, plan.prompts_per_step) == (4, 1)


DATACLASS_SCRIPT = """\
import argparse
from dataclasses import dataclass, fields

from trl import GRPOConfig, GRPOTrainer


@dataclass
class Config:
    num_generations: int = 8
    per_device_batch: int = 2
    grad_accum: int = 4


{build}


def main():
    cfg = parse_config()
    args = GRPOConfig(
        output_dir="out",
        num_generations=cfg.num_generations,
        per_device_train_batch_size=cfg.per_device_batch,
        gradient_accumulation_steps=cfg.grad_accum,
    )
    GRPOTrainer(args=args)
"""
PER_FIELD = """\
def parse_config():
    parser = argparse.ArgumentParser()
    for f in fields(Config):
        parser.add_argument(f"--{f.name}", type=f.type, default=f.default)
    return Config(**vars(parser.parse_args()))"""


@pytest.mark.parametrize(
    "build",
    [
        PER_FIELD,  # one option per field, each defaulting to the field's default
        "def parse_config():\n    return tyro.cli(Config)",
        "def parse_config():\n    return Config()",
    ],
)
def test_options_kept_in_a_dataclass_take_its_defaults(tmp_path: Path, build: str) -> None:
    # run as written (no arguments): num_generations 8, per-device 2, accumulation 4 → 2 × 1 process × 4 = 8
    # completions per optimizer step = one group of 8: 1 prompt per step, one optimizer step per step
    script = tmp_path / "train.py"
    script.write_text(DATACLASS_SCRIPT.format(build=build))
    plan = translator.explain(str(script), framework="trl@1.16.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_optimizer_step) == (1, 8, 8)
    assert (plan.micro_batch_per_device, plan.grad_accum_steps) == (2, 4)


def test_a_launch_word_sets_a_dataclass_option(tmp_path: Path) -> None:
    # `--grad_accum 8`: 2 × 1 × 8 = 16 completions per optimizer step = 2 groups of 8 (2 prompts per step)
    (tmp_path / ".git").mkdir()
    (tmp_path / "train.py").write_text(DATACLASS_SCRIPT.format(build=PER_FIELD))
    (tmp_path / "run.sh").write_text("python train.py --grad_accum 8\n")
    plan = translator.explain(str(tmp_path / "run.sh"), framework="trl@1.16.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_optimizer_step, plan.grad_accum_steps) == (2, 16, 8)


def test_a_dataclass_built_from_values_of_its_own_is_not_read_as_defaults(tmp_path: Path) -> None:
    # Config(per_device_batch=compute()) sets a field the defaults do not give: the counts built on it are unknown
    script = tmp_path / "train.py"
    build = "def parse_config():\n    return Config(per_device_batch=compute())"
    script.write_text(DATACLASS_SCRIPT.format(build=build))
    plan = translator.explain(str(script), framework="trl@1.16.0").spec.plan
    assert plan.micro_batch_per_device is None and plan.samples_per_optimizer_step is None


PRUNE = Path(__file__).resolve().parent / "data" / "forks" / "trl_prune"


def test_a_trainer_that_sets_its_group_itself_leaves_the_counts_unknown_only_when_its_switch_is_on() -> None:
    # PruneTrainer is TRL 0.15's shape (RepeatRandomSampler, generation from _prepare_inputs). With the project's
    # own `prune` at its default False (PruneConfig), __init__ copies num_generations as TRL does, and the plan is
    # 0.15.2's: 8 completions per process per micro-step × 2 processes = 16 samples = 2 prompts × 8; × GAS 4 = 64
    # per optimizer step; a generation per micro-step → 1/4 optimizer step per round.
    plain = translator.explain(str(PRUNE / "plain.sh"), "trl@0.15.2").spec.plan
    assert (plain.prompts_per_step, plain.samples_per_step, plain.samples_per_optimizer_step) == (2, 16, 64)
    assert plain.optimizer_steps_per_step == 0.25
    # --prune true: self.num_generations = int(8 × 0.5) (engine.py:10), which no TRL release's trainer does
    pruned = translator.explain(str(PRUNE / "pruned.sh"), "trl@0.15.2")
    assert pruned.spec.plan.samples_per_prompt is None and pruned.spec.plan.prompts_per_step is None
    assert pruned.spec.plan.grad_accum_steps == 4 and pruned.spec.plan.data_parallel_size == 2
    note = next(n for n in pruned.notes if n.code == "framework.fork-trainer-unknown")
    assert "engine.py:10 self.num_generations" in note.message


_EVAL_GROUP_TRAINER = """from transformers import Trainer
from trl.trainer.grpo_trainer import RepeatRandomSampler


class EvalGroupTrainer(Trainer):
    def __init__(self, model, args):
        self.num_generations = args.num_generations
        self.train_num_generations = args.num_generations
        self.eval_num_generations = args.eval_num_generations or args.num_generations
        self.half_num_generations = args.num_generations // 2
        super().__init__(model=model, args=args)

    def _get_train_sampler(self):
        return RepeatRandomSampler(self.train_dataset, self.num_generations)

    def _prepare_inputs(self, inputs):
        return self._generate_and_score_completions(inputs)

    def switch_group(self):
        if self.control.should_evaluate:
            self.num_generations = self.eval_num_generations
        else:
            self.num_generations = TRAINING
"""


@pytest.mark.parametrize(
    ("training", "same_as_trl"), [("self.train_num_generations", True), ("self.half_num_generations", False)]
)
def test_a_trainer_that_switches_its_group_for_evaluation_keeps_the_training_group(
    tmp_path: Path, training: str, same_as_trl: bool
) -> None:
    # The Trainer sets control.should_evaluate while it evaluates: the trainer's evaluation group (its own
    # eval_num_generations) forms no training batch. In training it restores self.train_num_generations, a copy of
    # args.num_generations: TRL 0.15.2's plan, as in the test above (2 processes × 8 = 16 completions = 2 prompts × 8,
    # × GAS 4 = 64 per optimizer step). Restoring half the group instead is the trainer's own batch: unknown.
    launch = (
        "accelerate launch --num_processes 2 src/rl/train_grpo.py --output_dir out --per_device_train_batch_size 8 "
        "--gradient_accumulation_steps 4 --num_generations 8\n"
    )
    entry = (PRUNE / "src/rl/train_grpo.py").read_text().replace("PruneTrainer", "EvalGroupTrainer")
    entry = entry.replace("prune: bool = field(default=False", "eval_num_generations: int = field(default=0")
    write_project(
        tmp_path,
        {
            "run.sh": launch,
            "src/rl/train_grpo.py": entry,
            "src/rl/engine.py": _EVAL_GROUP_TRAINER.replace("TRAINING", training),
        },
    )
    plan = translator.explain(str(tmp_path / "run.sh"), "trl@0.15.2").spec.plan
    if same_as_trl:
        assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (2, 16, 64)
    else:
        assert plan.samples_per_prompt is None and plan.prompts_per_step is None


CHOICE = Path(__file__).resolve().parent / "data" / "forks" / "trl_choice"


def test_the_scripts_own_options_give_the_config_and_pick_the_trainer() -> None:
    # train.py parses its options in parse_args() (returning the name it binds) from its __main__ block; GRPOConfig
    # takes per_device 2, GAS 3, num_generations 4 from their defaults. --trainer keeps "grpo": TRL's own trainer
    # (0.18: a round of 2 × 2 processes × GAS 3 = 12 completions = 3 prompts × 4, one optimizer step of 12).
    stock = translator.explain(str(CHOICE / "stock.sh"), "trl@0.18.0")
    assert (stock.spec.plan.prompts_per_step, stock.spec.plan.samples_per_optimizer_step) == (3, 12)
    assert not any(n.code == "framework.fork-trainer" for n in stock.notes)
    # --trainer mine: the `elif args.trainer.lower() == "mine"` branch builds the project's MyTrainer (TRL 0.14's
    # shape: per_device counts prompts): 2 prompts × 4 = 8 completions per process per micro-step, × 2 processes =
    # 16 per round (4 prompts); × GAS 3 = 48 per optimizer step, 1/3 optimizer step per round.
    mine = translator.explain(str(CHOICE / "mine.sh"), "trl@0.18.0")
    plan = mine.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (4, 16, 48)
    assert any(n.code == "framework.fork-trainer" for n in mine.notes)


def test_a_launch_lines_process_count_from_an_unset_variable_overrides_the_accelerate_file(tmp_path: Path) -> None:
    # accelerate launch takes --num_processes over the config file's num_processes (accelerate's launch_command
    # fills only the options the line leaves unset): with $GPUS never set, the 8 in acc.yaml is not the run's world
    # size, so the data-parallel size and the global counts are unknown; --env GPUS=4 gives 4 ranks, so
    # 4 × per_device_train_batch_size 8 = 32 completions per round, 32 / num_generations 8 = 4 prompts.
    (tmp_path / "acc.yaml").write_text("distributed_type: MULTI_GPU\nnum_processes: 8\n")
    (tmp_path / "recipe.yaml").write_text("per_device_train_batch_size: 8\nnum_generations: 8\n")
    (tmp_path / "run.sh").write_text(
        "accelerate launch --config_file acc.yaml --num_processes=$GPUS src/open_r1/grpo.py --config recipe.yaml\n"
    )
    unset = translator.load(str(tmp_path / "run.sh"), framework="trl@0.16.0")
    assert unset.plan["data_parallel_size"] is None and unset.plan["prompts_per_step"] is None
    assert any("${GPUS}" in n.message for n in unset.notes if n.code == "topology.world-size-not-stated")
    given = translator.load(str(tmp_path / "run.sh"), framework="trl@0.16.0", env={"GPUS": "4"})
    assert (given.plan["data_parallel_size"], given.plan["prompts_per_step"]) == (4, 4)


def test_trl_016_run_length_counts_the_optimizer_steps_that_generate(tmp_path: Path) -> None:
    # trl 0.16.0 grpo_trainer.py _prepare_inputs:646-650: on an optimizer step whose global_step % num_iterations
    # == 0 every micro-step generates; the other steps reuse the buffer. max_steps 5000, num_iterations 3: global
    # steps 0, 3, …, 4998 generate, 1667 of them, × gradient_accumulation_steps 8 = 13336 rounds (not 5000 × 8 / 3)
    recipe_file = tmp_path / "recipe.yaml"
    recipe_file.write_text(
        "per_device_train_batch_size: 1\ngradient_accumulation_steps: 8\nnum_generations: 7\nnum_iterations: 3\n"
        "max_steps: 5000\n"
    )
    explanation = translator.explain(str(recipe_file), "trl@0.16.0", num_processes=7)
    assert explanation.spec.plan.total_steps == 13336
    # written back for 0.16.0, max_steps 5000 gives those 13336 rounds again (5001 = ceil(13336 × 3 / 8) would too,
    # but the source's own count is kept)
    translation = translator.translate(explanation, to="trl@0.16.0")
    assert recipe(translation)["max_steps"] == 5000


# ---------------------------------------------------------------- a recipe read on its own: the scripts that read it
ROLLOUT_TRAINER = (
    "from transformers import Trainer\n\n\n"
    "class RolloutGRPOTrainer(Trainer):\n"
    "    def training_step(self, model, inputs, num_items_in_batch=None):\n"
    "        batch = self.engine.generate(inputs, n=self.args.num_generations)\n"
    "        return self.update(model, batch)\n"
)
READER = (
    "from trl import GRPOConfig, TrlParser\n{imports}\n\n"
    "if __name__ == '__main__':\n"
    "    args = TrlParser((GRPOConfig,)).parse_args_and_config()[0]\n"
    "    {trainer}(model='m', args=args).train()\n"
)
OWN_READER = READER.format(imports="from rl.engine import RolloutGRPOTrainer", trainer="RolloutGRPOTrainer")
TRL_READER = READER.format(imports="from trl import GRPOTrainer", trainer="GRPOTrainer")
# 8 completions per process per micro-step (per_device 8), 4 micro-steps per optimizer step, groups of 8
RECIPE = "per_device_train_batch_size: 8\ngradient_accumulation_steps: 4\nnum_generations: 8\nnum_iterations: 2\n"


PIN_018 = {"setup.py": "from setuptools import setup\nsetup(install_requires=['trl==0.18.0'])\n"}


def _recipe_project(tmp_path: Path, scripts: dict[str, str]) -> Path:
    files = {**PIN_018, "src/rl/engine.py": ROLLOUT_TRAINER, **scripts, "recipes/grpo.yaml": RECIPE}
    return write_project(tmp_path, files) / "recipes" / "grpo.yaml"


def test_a_recipe_whose_reader_builds_the_projects_own_trainer_has_that_trainers_unknown_cadence(
    tmp_path: Path,
) -> None:
    # The only script that parses a recipe (TrlParser) and builds a GRPO trainer builds RolloutGRPOTrainer, a
    # transformers Trainer generating in training_step: no TRL lineage. How many completions a micro-step holds,
    # when it generates and how many passes it makes are in its code: every count built on them is unknown, not
    # trl 0.18.0's (8 prompts per round, num_iterations 2 passes).
    recipe = _recipe_project(tmp_path, {"src/rl/grpo.py": OWN_READER})
    read = translator.explain(str(recipe), num_processes=2)
    plan = read.spec.plan
    assert plan.prompts_per_step is None and plan.optimizer_steps_per_step is None and plan.epochs_per_step is None
    assert (plan.samples_per_prompt, plan.data_parallel_size, plan.grad_accum_steps) == (8, 2, 4)
    note = next(n for n in read.notes if n.code == "framework.fork-trainer-unknown")
    assert "src/rl/engine.py:4 RolloutGRPOTrainer" in note.message


def test_a_recipe_read_by_scripts_with_different_trainers_names_them_and_leaves_the_cadence_unknown(
    tmp_path: Path,
) -> None:
    # Two readers: one builds TRL's own GRPOTrainer, the other the project's trainer; the recipe names neither, so
    # which batching it trains with depends on the script launched.
    recipe = _recipe_project(tmp_path, {"src/rl/grpo.py": OWN_READER, "scripts/stock_grpo.py": TRL_READER})
    read = translator.explain(str(recipe), num_processes=2)
    assert read.spec.plan.samples_per_step is None and read.spec.plan.epochs_per_step is None
    note = next(n for n in read.notes if n.code == "framework.fork-trainer-unknown")
    assert "scripts/stock_grpo.py (trl.GRPOTrainer)" in note.message and "src/rl/grpo.py (" in note.message


def test_a_recipe_whose_readers_build_trls_trainer_is_read_as_the_release(tmp_path: Path) -> None:
    # Only TRL's own GRPOTrainer reads it: trl 0.18.0 (setup.py's pin). A round is per_device 8 × 2 processes ×
    # GAS 4 = 64 completions = 8 prompts × 8, two passes (num_iterations 2) of one optimizer step each (64 / 64):
    # 2 optimizer steps per round.
    recipe = _recipe_project(tmp_path, {"scripts/stock_grpo.py": TRL_READER})
    read = translator.explain(str(recipe), num_processes=2)
    plan = read.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (8, 64, 64)
    assert (plan.optimizer_steps_per_step, plan.epochs_per_step) == (2, 2)
    assert not any(n.code.startswith("framework.fork-trainer") for n in read.notes)


def test_a_recipe_the_projects_readme_launches_with_one_script_is_read_with_that_scripts_trainer(
    tmp_path: Path,
) -> None:
    # The same two readers, and a README whose command (continued over a backslash) runs scripts/stock_grpo.py
    # with this recipe: TRL's own trainer, trl 0.18.0, so the plan of the previous test (8 prompts, 64 samples,
    # two passes of one optimizer step each).
    recipe = _recipe_project(tmp_path, {"src/rl/grpo.py": OWN_READER, "scripts/stock_grpo.py": TRL_READER})
    (tmp_path / "README.md").write_text(
        "```shell\naccelerate launch --num_processes 2 scripts/stock_grpo.py \\\n    --config recipes/grpo.yaml\n```\n"
    )
    plan = translator.explain(str(recipe), num_processes=2).spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.optimizer_steps_per_step) == (8, 64, 2)


_PROMPT_METHODS = {
    # a _get_train_sampler of its own returning a RandomSampler, generating num_return_sequences=num_generations
    "plain sampler": "\n    def _get_train_sampler(self, dataset=None):\n"
    "        return RandomSampler(self.train_dataset)\n\n"
    "    def _generate_and_score_completions(self, inputs, model):\n"
    "        return model.generate(inputs, num_return_sequences=self.num_generations)\n",
    # repeating each item of the micro-batch num_generations times itself before generating
    "expanded items": "\n    def _generate_and_score_completions(self, inputs, model):\n        expanded = []\n"
    "        for sample in inputs:\n            for _ in range(self.num_generations):\n"
    "                expanded.append(sample)\n        return model.generate(expanded)\n",
}


@pytest.mark.parametrize("shape", sorted(_PROMPT_METHODS))
def test_a_trainer_copy_whose_items_are_prompts_counts_prompts_per_device(tmp_path: Path, shape: str) -> None:
    # vlm_fork_pinned's trainer (0.16's buffer per accumulation step, which read as 0.16 counts completions per
    # device) fed by a sampler that repeats no prompt, or expanding each item itself: each micro-step a rank holds
    # per_device 4 prompts × 8 = 32 completions (TRL 0.14's arithmetic): 8 ranks → 32 prompts, 256 samples a
    # round; GAS 2 → 512 samples per optimizer step, 1/2 optimizer step per round.
    shutil.copytree(FIXTURES / "trl" / "vlm_fork_pinned", tmp_path / "p")
    trainer = tmp_path / "p" / "src" / "open_r1" / "trainer" / "grpo_trainer.py"
    trainer.write_text(trainer.read_text() + _PROMPT_METHODS[shape])
    script = tmp_path / "p" / "run_scripts" / "run_grpo_rec.sh"
    read = translator.explain(str(script))
    plan = read.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (32, 256, 512)
    assert (plan.optimizer_steps_per_step, plan.micro_batch_per_device) == (Fraction(1, 2), 32)
    if shape == "expanded items":
        note = next(n for n in read.notes if n.code == "framework.fork-trainer")
        assert "repeats each item of the micro-batch num_generations times itself" in note.message
        return
    # with num_iterations 2 the buffer is reused across iterations: no release's arithmetic, so unknown
    script.write_text(script.read_text().replace("--num_generations 8", "--num_generations 8 --num_iterations 2"))
    assert translator.explain(str(script)).spec.plan.samples_per_step is None


@pytest.mark.parametrize("derived", ["self.answers * self.confidences", "self.answers * self.world_size"])
def test_a_batch_field_the_projects_argument_class_sets_in_post_init_is_the_runs(tmp_path: Path, derived: str) -> None:
    # MTPOConfig(GRPOConfig) derives num_generations from two fields of its own in __post_init__ before TRL's own
    # __post_init__ runs: --answers 4 --confidences 2 give 8 completions per prompt, whatever --num_generations says.
    # trl 0.18.0 (pinned): a round is per_device 8 × 2 processes × GAS 2 = 32 completions = 4 prompts × 8, one
    # optimizer step. From world_size (a property, not a field) rlconf cannot compute it: unknown.
    script = (
        "from dataclasses import dataclass\nfrom trl import GRPOConfig, GRPOTrainer, TrlParser\n\n\n"
        "@dataclass\nclass MTPOConfig(GRPOConfig):\n    answers: int = 4\n    confidences: int = 4\n\n"
        "    def __post_init__(self):\n"
        f"        total = {derived}\n"
        "        if total < 2:\n            raise ValueError('too few')\n"
        "        self.num_generations = total\n        super().__post_init__()\n\n\n"
        "(args,) = TrlParser((MTPOConfig,)).parse_args_and_config()\nGRPOTrainer(model='m', args=args).train()\n"
    )
    launch = (
        "accelerate launch --num_processes 2 train.py --output_dir o --per_device_train_batch_size 8 "
        "--gradient_accumulation_steps 2 --num_generations 16 --answers 4 --confidences 2\n"
    )
    write_project(tmp_path, {**PIN_018, "train.py": script, "run.sh": launch})
    read = translator.explain(str(tmp_path / "run.sh"))
    plan = read.spec.plan
    if "world_size" in derived:
        assert plan.samples_per_prompt is None and plan.prompts_per_step is None
        return
    assert (plan.samples_per_prompt, plan.prompts_per_step, plan.samples_per_step) == (8, 4, 32)
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step) == (32, 1)
    note = next(n for n in read.notes if n.code == "keys.set-by-post-init")
    assert note.message.startswith("train.py:14: ") and "num_generations to 8" in note.message


# ---------------------------------------------------------------- which program a launch runs
def test_a_launch_of_the_projects_module_with_python_m_is_read_as_its_file(tmp_path: Path) -> None:
    # `accelerate launch -m rl.train_grpo` runs rl/train_grpo.py from the run folder, a module of the project
    # building TRL's own GRPOTrainer (trl 0.18.0, pinned): a round is per_device 8 × 2 processes × GAS 2 = 32
    # completions = 4 prompts × 8, one optimizer step of 32.
    launch = (
        "accelerate launch --num_processes 2 -m rl.train_grpo --output_dir o --per_device_train_batch_size 8 "
        "--gradient_accumulation_steps 2 --num_generations 8\n"
    )
    write_project(tmp_path, {**PIN_018, "rl/__init__.py": "", "rl/train_grpo.py": TRL_READER, "run.sh": launch})
    plan = translator.explain(str(tmp_path / "run.sh")).spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (4, 32, 32)
    assert (plan.optimizer_steps_per_step, plan.data_parallel_size) == (1, 2)


@pytest.mark.parametrize(
    ("program", "trainer", "launch"),
    [
        ("sft.py", "SFTTrainer", "accelerate launch --num_processes 2 sft.py --output_dir o"),
        ("rl/ppo.py", "PPOTrainer", "python -m rl.ppo --output_dir o"),
    ],
)
def test_a_launch_of_another_trl_trainer_is_refused_naming_it(
    tmp_path: Path, program: str, trainer: str, launch: str
) -> None:
    # The launched program builds TRL's SFTTrainer / PPOTrainer: its batches are not GRPO's, and no plan is read.
    text = (
        f"from trl import {trainer}, TrlParser\nargs = TrlParser(()).parse_args_and_config()\n"
        f"{trainer}(model='m', args=args).train()\n"
    )
    write_project(tmp_path, {"rl/__init__.py": "", program: text, "run.sh": launch + "\n"})
    with pytest.raises(ConfigError, match=rf"builds trl\.{trainer}: rlconf reads TRL's GRPOTrainer"):
        translator.explain(str(tmp_path / "run.sh"))


def test_a_recipe_the_project_runs_with_its_sft_script_is_no_grpo_recipe(tmp_path: Path) -> None:
    # recipes/sft/config.yaml sits in a folder named for scripts/sft.py (Open-R1's recipes/<model>/<script>/ layout),
    # which builds TRL's SFTTrainer: not a GRPO run, refused naming the script; recipes/grpo/config.yaml is read by
    # scripts/grpo.py, TRL's own GRPOTrainer (trl 0.18.0): a plan.
    sft = READER.format(imports="from trl import SFTTrainer", trainer="SFTTrainer").replace("GRPOConfig", "SFTConfig")
    files = {"scripts/grpo.py": TRL_READER, "scripts/sft.py": sft, "recipes/sft/config.yaml": RECIPE}
    write_project(tmp_path, {**PIN_018, **files, "recipes/grpo/config.yaml": RECIPE})
    with pytest.raises(ConfigError, match=r"no GRPO recipe: .*scripts/sft\.py, which builds trl\.SFTTrainer"):
        translator.explain(str(tmp_path / "recipes" / "sft" / "config.yaml"), num_processes=2)
    plan = translator.explain(str(tmp_path / "recipes" / "grpo" / "config.yaml"), num_processes=2).spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.optimizer_steps_per_step) == (8, 64, 2)


def test_a_trainer_that_generates_a_count_of_its_own_in_compute_loss_leaves_the_group_unknown(tmp_path: Path) -> None:
    # CaptionTrainer generates in compute_loss like R1-V's trainers, but twice per example in a loop of its own and
    # with no generation config built from num_generations: --num_generations 4 is not its group size. No TRL
    # lineage, so the cadence counts and the group are unknown; the processes (2) and accumulation (1) stay.
    engine = (
        "from transformers import GenerationConfig, Trainer\n\n\n"
        "class CaptionTrainer(Trainer):\n"
        "    def __init__(self, args, **kwargs):\n"
        "        self.num_generations = args.num_generations\n"
        "        self.generation_config = GenerationConfig(num_return_sequences=self.num_generations)\n\n"
        "    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):\n"
        "        captions = []\n"
        "        for example in inputs:\n"
        "            for _ in range(2):\n"
        "                captions.append(model.generate(**example, max_new_tokens=50, do_sample=True))\n"
        "        return self.score(captions)\n"
    )
    script = READER.format(imports="from rl.engine import CaptionTrainer", trainer="CaptionTrainer")
    launch = (  # PYTHONPATH=.: the script imports rl.engine, which only the project's top holds
        "PYTHONPATH=. torchrun --nproc_per_node 2 rl/train_grpo.py --output_dir o --per_device_train_batch_size 1 "
        "--gradient_accumulation_steps 1 --num_generations 4\n"
    )
    files = {"rl/__init__.py": "", "rl/engine.py": engine, "rl/train_grpo.py": script, "run.sh": launch}
    write_project(tmp_path, files)
    read = translator.explain(str(tmp_path / "run.sh"), "trl@0.14.0")
    plan = read.spec.plan
    assert plan.samples_per_prompt is None and plan.prompts_per_step is None
    assert (plan.data_parallel_size, plan.grad_accum_steps) == (2, 1)
    note = next(n for n in read.notes if n.code == "framework.fork-trainer-unknown")
    assert "generates without num_generations" in note.message


def test_a_deepspeed_file_named_from_another_folder_than_the_run_starts_in_stops_the_read(tmp_path: Path) -> None:
    # The run starts in src/app (where src/grpo.py is, as the launch names it); --deepspeed names
    # src/app/ds/zero2.json, written from the repository's root: from src/app it is not there, and
    # TrainingArguments stops at start-up. Named from src/app (ds/zero2.json) the plan is read.
    app = write_project(tmp_path, {"src/app/ds/zero2.json": "{}\n", "src/app/src/grpo.py": TRL_READER}) / "src" / "app"
    launch = (
        "torchrun --nproc_per_node 2 src/grpo.py --output_dir o --deepspeed {} --per_device_train_batch_size 8 "
        "--num_generations 8\n"
    )
    (app / "run.sh").write_text(launch.format("src/app/ds/zero2.json"))
    with pytest.raises(ConfigError, match=r"--deepspeed src/app/ds/zero2\.json is not in the folder the run starts"):
        translator.explain(str(app / "run.sh"), "trl@0.18.0")
    (app / "run.sh").write_text(launch.format("ds/zero2.json"))
    assert translator.explain(str(app / "run.sh"), "trl@0.18.0").spec.plan.data_parallel_size == 2


@pytest.mark.parametrize("named", ["scripts/zero3.json", "scripts/zero9.json"])
def test_a_deepspeed_file_the_project_holds_only_under_another_folder_stops_the_read(
    tmp_path: Path, named: str
) -> None:
    # --deepspeed scripts/zero3.json, run from the root (where src/grpo.py is): the project has no scripts/ folder,
    # its DeepSpeed configs are under local_scripts/ (moved): TrainingArguments stops at start-up. A name the project
    # holds nowhere (zero9.json) may be the user's own file: not judged, the plan is read.
    write_project(tmp_path, {"local_scripts/zero3.json": "{}\n", "src/grpo.py": TRL_READER})
    launch = f"torchrun --nproc_per_node 2 src/grpo.py --output_dir o --deepspeed {named} --num_generations 8\n"
    (tmp_path / "local_scripts" / "train.sh").write_text(launch)
    if named.endswith("zero3.json"):
        with pytest.raises(ConfigError, match=r"the project holds local_scripts/zero3\.json"):
            translator.explain(str(tmp_path / "local_scripts" / "train.sh"), "trl@0.18.0")
    else:
        read = translator.explain(str(tmp_path / "local_scripts" / "train.sh"), "trl@0.18.0")
        assert read.spec.plan.data_parallel_size == 2


def test_a_launch_whose_script_and_deepspeed_file_no_one_folder_holds_both_stops_the_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # scripts/run/train.sh names src/grpo.py (the project holds it only from the root) and run/zero3.json (held
    # only from scripts/): from scripts/ Python cannot open src/grpo.py, and from the root TrainingArguments cannot
    # open run/zero3.json, so the launch stops at start-up from any folder. With the DeepSpeed file named from the
    # root (scripts/run/zero3.json) the root is where it runs, and the plan is read.
    write_project(tmp_path, {"scripts/run/zero3.json": "{}\n", "src/grpo.py": TRL_READER})
    launch = "torchrun --nproc_per_node 2 src/grpo.py --output_dir o --deepspeed {} --num_generations 8\n"
    (tmp_path / "scripts" / "run" / "train.sh").write_text(launch.format("run/zero3.json"))
    monkeypatch.chdir(tmp_path / "scripts")
    with pytest.raises(ConfigError, match=r"run/zero3\.json is not in the folder the run starts in \(\., where src"):
        translator.explain("run/train.sh", "trl@0.18.0")
    (tmp_path / "scripts" / "run" / "train.sh").write_text(launch.format("scripts/run/zero3.json"))
    assert translator.explain("run/train.sh", "trl@0.18.0").spec.plan.data_parallel_size == 2


@pytest.mark.parametrize(
    ("runner", "processes"),
    [("python", 1), ("python -m ipdb", 1), ("python -m cProfile -o p.out", 1), ("python -m tools.spawn", None)],
)
def test_a_script_run_by_python_under_a_debugger_is_one_process(
    tmp_path: Path, runner: str, processes: int | None
) -> None:
    # `python -m ipdb train.py` runs the script in the debugger's own process: one process on the one visible GPU.
    # TRL 0.16.0 generates every micro-step: 4 completions per process per round = 1 prompt × 4; × GAS 4 = 16 per
    # optimizer step (cProfile too). A module of the project's own given the script may start any number: unknown.
    script = (
        "from trl import GRPOConfig, GRPOTrainer, TrlParser\n\nif __name__ == '__main__':\n"
        "    args = TrlParser((GRPOConfig,)).parse_args_and_config()[0]\n"
        "    GRPOTrainer(model='m', reward_funcs=[], args=args).train()\n"
    )
    launch = (
        f"CUDA_VISIBLE_DEVICES=6 {runner} train.py --output_dir o --per_device_train_batch_size 4 "
        "--num_generations 4 --gradient_accumulation_steps 4\n"
    )
    write_project(tmp_path, {"train.py": script, "run.sh": launch})
    plan = translator.explain(str(tmp_path / "run.sh"), "trl@0.16.0").spec.plan
    assert plan.data_parallel_size == processes
    if processes == 1:
        assert (plan.prompts_per_step, plan.samples_per_optimizer_step) == (1, 16)
