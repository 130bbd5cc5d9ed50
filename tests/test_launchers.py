"""Wrapped launchers and launcher task YAMLs, read statically: the framework command inside is found."""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from translator import ConfigError, dialects
from translator.sources.files import Source, read_source
from translator.sources.launchers import launcher_kind
from translator.sources.shell import parse_shell, unwrap_command

OPENRLHF_FLAGS = (
    "--ref_num_nodes 1 --ref_num_gpus_per_node 8 --actor_num_nodes 1 --actor_num_gpus_per_node 8 "
    "--vllm_num_engines 4 --micro_train_batch_size 4 --train_batch_size 128 "
    "--micro_rollout_batch_size 8 --rollout_batch_size 64 --n_samples_per_prompt 4"
)


def test_srun_bash_c_with_nested_quotes_and_substitutions(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=1\n"
        f'srun --nodes=1 --ntasks=1 bash -c "ray start --head && python3 -m openrlhf.cli.train_ppo_ray '
        f'{OPENRLHF_FLAGS} --pretrain \\"\\$(cat /tmp/model)\\" --save_path /ckpt/\\$(date +%F)"\n'
    )
    plan = translator.explain(str(script)).plan
    # OpenRLHF: 64 prompts × 4 = 256 samples; 256 / train_batch_size 128 = 2 optimizer steps; DP = 1 × 8 = 8;
    # accumulation = 128 / 4 / 8 = 4.
    assert (plan["prompts_per_step"], plan["samples_per_step"], plan["optimizer_steps_per_step"]) == (64, 256, 2)
    assert (plan["data_parallel_size"], plan["grad_accum_steps"]) == (8, 4)


def test_escaped_chain_after_double_dash(tmp_path: Path) -> None:
    script = tmp_path / "launch.sh"
    script.write_text(
        "python mason.py --cluster ai2/x --gpus 8 -- source configs/setup.sh \\&\\& "
        "python open_instruct/grpo_fast.py --num_unique_prompts_rollout 32 "
        "--num_samples_per_prompt_rollout 8 --output_dir /out/$RUN_NAME\n"
    )
    explanation = translator.explain(str(script))
    assert explanation.framework == "open-instruct"
    assert (explanation.plan["prompts_per_step"], explanation.plan["samples_per_step"]) == (32, 256)


def test_prefixes_and_wrappers_are_stripped() -> None:
    cmd = parse_shell("A=1 B=2 CUDA_VISIBLE_DEVICES=0,1 nohup setsid time exec python -u train.py --x 1\n")
    argv = unwrap_command(cmd.commands[0].argv)
    assert argv == ["python", "-u", "train.py", "--x", "1"]
    assert cmd.commands[0].assignments == {"A": "1", "B": "2", "CUDA_VISIBLE_DEVICES": "0,1"}


def test_skypilot_task_is_a_launcher_not_a_config(tmp_path: Path) -> None:
    task = tmp_path / "task.yaml"
    task.write_text(
        "resources:\n  accelerators: A100:4\nnum_nodes: 1\nenvs:\n  N: 8\nsetup: |\n  pip install x\n"
        "run: |\n  python3 -m openrlhf.cli.train_ppo_ray "
        + OPENRLHF_FLAGS.replace("--n_samples_per_prompt 4", "--n_samples_per_prompt $N")
        + "\n"
    )
    source = read_source(str(task))
    assert source.launcher == "skypilot" and source.suffix == ".sh"
    assert source.text.splitlines()[8].lstrip().startswith("python3 -m openrlhf")  # same line as in the YAML
    plan = translator.explain(str(task)).plan
    assert (plan["samples_per_prompt"], plan["samples_per_step"]) == (8, 512)  # envs N=8: 64 × 8


@pytest.mark.parametrize(("counts", "known"), [(("8", "8"), True), (("8", "4"), False)])
def test_skypilot_candidate_resources_give_the_gpus_they_share(
    tmp_path: Path, counts: tuple[str, str], known: bool
) -> None:
    # `resources: ordered:` lists candidates SkyPilot picks one of: SKYPILOT_NUM_GPUS_PER_NODE is their common count
    task = tmp_path / "task.yaml"
    task.write_text(
        f"resources:\n  ordered:\n    - accelerators: H200:{counts[0]}\n      cloud: gcp\n"
        f"    - accelerators: H100:{counts[1]}\n      cloud: aws\nnum_nodes: 1\n"
        "run: |\n  python3 -m openrlhf.cli.train_ppo_ray "
        + OPENRLHF_FLAGS.replace("--actor_num_gpus_per_node 8", "--actor_num_gpus_per_node $SKYPILOT_NUM_GPUS_PER_NODE")
        + "\n"
    )
    plan = translator.explain(str(task)).plan
    assert (plan["data_parallel_size"] == 8) if known else plan["data_parallel_size"] is None


def test_env_overrides_the_task_envs(tmp_path: Path) -> None:
    task = tmp_path / "task.yaml"
    task.write_text(
        "envs:\n  N: 8\nrun: python3 -m openrlhf.cli.train_ppo_ray "
        + OPENRLHF_FLAGS.replace("--n_samples_per_prompt 4", "--n_samples_per_prompt $N")
        + "\n"
    )
    plan = translator.explain(str(task), env={"N": "2"}).plan
    assert plan["samples_per_prompt"] == 2  # as `sky launch --env N=2` would


def test_ray_job_yaml(tmp_path: Path) -> None:
    job = tmp_path / "job.yaml"
    job.write_text(
        "entrypoint: python3 -m openrlhf.cli.train_ppo_ray "
        + OPENRLHF_FLAGS.replace("--rollout_batch_size 64", "--rollout_batch_size $PROMPTS")
        + "\n"
        "runtime_env:\n  working_dir: .\n  env_vars:\n    PROMPTS: '32'\n"
    )
    assert launcher_kind(job.read_text()) == "ray-job"
    plan = translator.explain(str(job)).plan
    assert (plan["prompts_per_step"], plan["samples_per_step"]) == (32, 128)  # 32 × 4


def test_framework_yaml_is_not_a_launcher() -> None:
    assert launcher_kind("actor_rollout_ref:\n  rollout:\n    n: 4\nalgorithm:\n  adv_estimator: grpo\n") is None
    assert launcher_kind("per_device_train_batch_size: 4\nnum_generations: 8\n") is None


# --- detection by the arguments a launch takes --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "framework"),
    [
        ("python3 -m fork.mix_src.main_mix ppo data.train_batch_size=8 actor_rollout_ref.rollout.n=2\n", "verl"),
        ("torchrun --nproc_per_node 2 fork/train.py algorithm.adv_estimator=grpo trainer.n_gpus_per_node=2\n", "verl"),
        ("python -m fork.main config=cfg.yaml worker.actor.global_batch_size=8\n", "easyr1"),
        ("python -m fork.cli.train_ppo_ray --actor_num_gpus_per_node 8 --n_samples_per_prompt 4\n", "openrlhf"),
        ("deepspeed fork/rl.py --rollout.batch_size 8 --actor.num_gpus_per_node 8\n", "openrlhf"),
        ('ARGS="--num_learners_per_node 8 --dataset_mixer_list d 1.0"\npython fork/train.py $ARGS\n', "open-instruct"),
        # a GRPO script whose file name is no known one: GRPOConfig's own --num_generations tells TRL
        ("torchrun --nproc_per_node 4 src/rl-train-v2.py --per_device_train_batch_size 2 --num_generations 8\n", "trl"),
    ],
)
def test_fork_entry_detected_by_its_arguments(text: str, framework: str) -> None:
    assert dialects.detect(Source(text, "run.sh")).name == framework


def test_comment_alone_does_not_detect() -> None:
    # a namespace word in a comment and no python launch: still refused
    with pytest.raises(ConfigError):
        dialects.detect(Source("# data.train_batch_size=8 actor_rollout_ref.x=1\necho hi\n", "run.sh"))


def test_open_instruct_yaml_is_not_a_trl_recipe() -> None:
    text = "model_name_or_path: m\nbeta: 0.0\nnum_unique_prompts_rollout: 8\nnum_samples_per_prompt_rollout: 4\n"
    assert dialects.detect(Source(text, "c.yaml")).name == "open-instruct"


def test_several_launches_are_noted(tmp_path: Path) -> None:
    # three trainings in a row: the note names the line read and the others' lines
    script = tmp_path / "run.sh"
    line = "python3 -m verl.trainer.main_ppo data.train_batch_size=8 actor_rollout_ref.rollout.n=2 trainer.nnodes=1\n"
    script.write_text(line + "echo done\n" + line + line)
    notes = [n for n in translator.explain(str(script)).notes if n.code == "launch.several"]
    assert len(notes) == 1 and "line 1 is read" in notes[0].message and "3, 4" in notes[0].message


def test_a_wrapper_is_told_by_the_arguments_its_called_scripts_program_takes(tmp_path: Path) -> None:
    # run.sh hands SkyRL overrides to common.sh, which launches the project's own entry module through an array:
    # neither names a known entry point; the program's arguments (trainer.*, generator.*) are SkyRL's
    (tmp_path / ".git").mkdir()
    (tmp_path / "common.sh").write_text(
        'while [[ $# -gt 0 ]]; do\n  case "$1" in\n    --) shift; OVERRIDES=("$@"); break ;;\n'
        '    *) shift ;;\n  esac\ndone\nCMD=(python -m mylab.main_fleet)\nCMD+=("${OVERRIDES[@]}")\n"${CMD[@]}"\n'
    )
    run = tmp_path / "run.sh"
    run.write_text(
        "bash common.sh --quiet -- trainer.train_batch_size=16 trainer.policy_mini_batch_size=16 "
        "generator.n_samples_per_prompt=8 trainer.placement.policy_num_gpus_per_node=8\n"
    )
    assert dialects.detect(read_source(str(run))).name == "skyrl"
    # 16 prompts × 8 samples per step
    assert translator.explain(str(run)).plan["samples_per_step"] == 128
