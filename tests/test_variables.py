"""The variable policy: a variable the script never sets stays symbolic; a plan quantity built from it is
unknown (naming the variable), everything else is read."""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from translator.dialects.base import Values, unknown_because, unknown_variables
from translator.errors import ConfigError
from translator.render import explanation_text
from translator.sources.shell import parse_shell, symbolic_names

VERL = (
    "python3 -m verl.trainer.main_ppo data.train_batch_size={batch} actor_rollout_ref.rollout.n=4 "
    "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.actor.ppo_mini_batch_size=16 "
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 "
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 "
    "trainer.n_gpus_per_node=8 trainer.nnodes={nodes} "
    "trainer.default_local_dir=$HOME/ckpt/$(date +%s)\n"
)


def test_words_keep_unset_variables_symbolically() -> None:
    cmd = parse_shell('echo $HOME/x "${1:-one}" $2 ${NODES}0 $((N * 8)) `hostname`\n').commands[0]
    assert cmd.argv == ["echo", "${HOME}/x", "one", "${2}", "${NODES}0", "$((N * 8))", "`hostname`"]
    assert [symbolic_names(w) for w in cmd.argv[1:]] == [["HOME"], [], ["2"], ["NODES"], ["N"], ["`hostname`"]]


def test_nothing_is_read_from_the_real_environment(monkeypatch) -> None:
    monkeypatch.setenv("NODES", "4")
    assert parse_shell("echo $NODES\n").commands[0].argv == ["echo", "${NODES}"]


def test_paths_only_give_one_info_note(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(VERL.format(batch=64, nodes=1))
    explanation = translator.explain(str(script))
    # 64 prompts × 4 = 256 samples; mini 16 × 4 = 64 → 4 optimizer steps; DP 8; 64 / 8 / 2 = 4 micro-batches
    assert explanation.plan["samples_per_step"] == 256 and explanation.plan["grad_accum_steps"] == 4
    unset = [n for n in explanation.notes if n.code == "shell.unset-variables"]
    assert len(unset) == 1 and "$HOME" in unset[0].message
    assert unknown_variables(explanation.spec) == {}


def test_a_plan_quantity_from_an_unset_variable_is_unknown(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("NODES=${1:-$SLURM_NNODES}\n" + VERL.format(batch=64, nodes="$NODES"))
    explanation = translator.explain(str(script))
    spec = explanation.spec
    assert spec.plan.data_parallel_size is None and spec.topology.nodes is None
    assert spec.plan.prompts_per_step == 64  # what does not depend on it is still read
    assert unknown_because(spec, "plan.data_parallel_size") == ["SLURM_NNODES"]
    assert unknown_because(spec, "topology.nodes") == ["SLURM_NNODES"]
    assert unknown_because(spec, "plan.prompts_per_step") == []
    text = explanation_text(explanation)
    assert "data_parallel_size: unknown: depends on $SLURM_NNODES (pass --env SLURM_NNODES=...)" in text
    # --env fills it: 8 GPUs × 2 nodes = 16 ranks
    assert translator.explain(str(script), env={"SLURM_NNODES": "2"}).plan["data_parallel_size"] == 16


def test_an_unknown_batch_makes_the_chain_unknown(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(VERL.format(batch="$BATCH", nodes=1))
    spec = translator.explain(str(script)).spec
    assert spec.plan.prompts_per_step is None and spec.plan.samples_per_step is None
    assert unknown_because(spec, "plan.prompts_per_step") == ["BATCH"]
    assert unknown_because(spec, "plan.optimizer_steps_per_step") == ["BATCH"]
    assert spec.plan.samples_per_optimizer_step == 64  # mini 16 × n 4 does not depend on $BATCH


# ------------------------------------------------------------------ numbers (the same getters)
@pytest.mark.parametrize("raw", ["nan", "inf", "-inf", float("nan"), "1e400", 1e300, 2**60])
def test_number_refuses_non_finite_and_absurd_values(raw: object) -> None:
    values = Values({"num_train_epochs": raw}, {"num_train_epochs": "recipe.yaml:3"}, {}, "recipe.yaml")
    with pytest.raises(ConfigError) as error:
        values.number("num_train_epochs")
    assert error.value.key == "num_train_epochs" and error.value.file == "recipe.yaml" and error.value.line == 3


def test_number_accepts_ordinary_values() -> None:
    values = Values({"a": "1e-6", "b": 3, "c": "-0.5"}, {}, {}, "x.yaml")
    assert [values.number(k) for k in "abc"] == [1e-6, 3, -0.5]


def test_dataset_weights_from_an_unset_variable_are_unknown_not_an_error(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m openrlhf.cli.train_ppo_ray --actor_num_nodes 1 --actor_num_gpus_per_node 8 "
        "--pretrain m --micro_train_batch_size 4 --train_batch_size 128 --micro_rollout_batch_size 8 "
        "--rollout_batch_size 64 --n_samples_per_prompt 8 --prompt_data a.jsonl,b.jsonl "
        "--prompt_data_probs ${PROBS} --input_key prompt\n"
    )
    explanation = translator.explain(str(script))
    assert explanation.plan["prompts_per_step"] == 64 and explanation.spec.data.train_weights is None
    assert "data.weights-unknown" in {n.code for n in explanation.notes}


def test_the_dynamic_batching_micro_batch_is_not_blamed_on_an_unrelated_variable(tmp_path: Path) -> None:
    """With use_dynamic_bsz the micro-batch is null by design; an unset rollout TP size must not make it
    'unknown: depends on $TP'."""
    script = tmp_path / "run.sh"
    script.write_text(
        VERL.format(batch=64, nodes=1).replace(
            "actor_rollout_ref.rollout.n=4 ",
            "actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.use_dynamic_bsz=True "
            "actor_rollout_ref.rollout.tensor_model_parallel_size=$TP ",
        )
    )
    spec = translator.explain(str(script)).spec
    assert spec.topology.rollout_tensor_parallel_size is None and unknown_because(
        spec, "topology.rollout_tensor_parallel_size"
    ) == ["TP"]
    assert unknown_because(spec, "plan.micro_batch_per_device") == []


def test_a_fraction_from_a_script_argument_is_unknown_not_an_error(tmp_path: Path) -> None:
    # A script run with arguments (`$2` of an option loop) sets the rollout's memory fraction: no count of the
    # plan is built on it, so the plan is read (64 prompts × 4 = 256 samples, 8 ranks) and the field itself is
    # unknown, naming $2, instead of the read stopping with exit 2.
    script = tmp_path / "run.sh"
    script.write_text(
        VERL.format(batch=64, nodes=1).replace(
            "trainer.nnodes=1", "trainer.nnodes=1 actor_rollout_ref.rollout.gpu_memory_utilization=$2"
        )
    )
    explanation = translator.explain(str(script))
    assert explanation.plan["samples_per_step"] == 256 and explanation.plan["data_parallel_size"] == 8
    assert unknown_because(explanation.spec, "topology.rollout_gpu_memory_fraction") == ["2"]


def test_easyr1_epochs_and_fraction_from_a_script_argument_are_unknown(tmp_path: Path) -> None:
    # EasyR1: rollout_batch_size 64 × n 4 = 256 samples per step; the memory fraction and total_epochs (the
    # dataset passes) come from $2: both unknown, naming $2; the plan is read.
    (tmp_path / "cfg.yaml").write_text("data:\n  rollout_batch_size: 64\n")
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main config=cfg.yaml worker.rollout.n=4 "
        "worker.actor.global_batch_size=16 trainer.n_gpus_per_node=8 trainer.nnodes=1 "
        "worker.reward.reward_function=./reward.py:score "
        "worker.rollout.gpu_memory_utilization=$2 trainer.total_epochs=$2\n"
    )
    explanation = translator.explain(str(script))
    assert explanation.plan["samples_per_step"] == 256
    assert unknown_because(explanation.spec, "topology.rollout_gpu_memory_fraction") == ["2"]
    assert unknown_because(explanation.spec, "run_length.dataset_passes") == ["2"]


OPENRLHF_LAUNCH = (
    "python3 -m openrlhf.cli.train_ppo_ray --pretrain Qwen/Qwen2.5-0.5B --actor_num_nodes 1 "
    "--actor_num_gpus_per_node 8 --rollout_batch_size 64 --n_samples_per_prompt 4 --train_batch_size 64 "
    "--micro_train_batch_size 2 --micro_rollout_batch_size 4 {run_name} --wandb_group grpo\n"
)


@pytest.mark.parametrize(
    ("run_name", "vanishes"),
    [
        # unquoted and never set: in a fresh shell the word is dropped and --wandb_run_name takes '--wandb_group'
        ("--wandb_run_name $RUN", True),
        ("--wandb_run_name ${RUN}", True),
        # quoted: an empty argument, not a dropped one; part of a longer word: the word stays
        ('--wandb_run_name "$RUN"', False),
        ("--wandb_run_name run_$RUN", False),
        ("--wandb_run_name=$RUN", False),  # --opt=: the empty value stays attached to its option
    ],
)
def test_an_unquoted_unset_option_value_may_vanish(tmp_path: Path, run_name: str, vanishes: bool) -> None:
    script = tmp_path / "run.sh"
    script.write_text(OPENRLHF_LAUNCH.format(run_name=run_name))
    notes = [n for n in translator.explain(str(script)).notes if n.code == "shell.vanishing-value"]
    assert bool(notes) is vanishes
    if vanishes:
        assert notes[0].severity == "warning" and "'--wandb_group'" in notes[0].message


@pytest.mark.parametrize(
    ("head", "run_name", "vanishes"),
    [
        # every login shell sets HOME and USER: their values are unknown, but the word is there
        ("", "--wandb_run_name $USER", False),
        # Slurm sets the job's id in a batch job (sbatch(1), OUTPUT ENVIRONMENT VARIABLES) ...
        ("#SBATCH --nodes=1\n", "--wandb_run_name $SLURM_JOB_ID", False),
        # ... and nothing sets it in a script run without sbatch
        ("", "--wandb_run_name $SLURM_JOB_ID", True),
    ],
)
def test_what_the_environment_always_sets_never_vanishes(
    tmp_path: Path, head: str, run_name: str, vanishes: bool
) -> None:
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/bash\n" + head + OPENRLHF_LAUNCH.format(run_name=run_name))
    notes = [n for n in translator.explain(str(script)).notes if n.code == "shell.vanishing-value"]
    assert bool(notes) is vanishes


def test_a_set_variable_never_vanishes(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("RUN=grpo_1\n" + OPENRLHF_LAUNCH.format(run_name="--wandb_run_name $RUN"))
    assert not [n for n in translator.explain(str(script)).notes if n.code == "shell.vanishing-value"]


def test_a_source_scripts_own_argument_is_never_written_as_text(tmp_path: Path) -> None:
    # `--pretrain $1`: the model is whatever the user passes to run.sh. The written verl launch forwards its own
    # arguments to Hydra as overrides, so `${1}` cannot follow the source's: an error note, and --env gives it.
    script = tmp_path / "run.sh"
    script.write_text(OPENRLHF_LAUNCH.format(run_name="").replace("Qwen/Qwen2.5-0.5B", "$1"))
    notes = [n for n in translator.translate(str(script), to="verl").notes if n.code == "shell.not-expressible"]
    assert [n.severity for n in notes] == ["error"] and "--env 1=VALUE" in notes[0].message
    given = translator.translate(str(script), to="verl", env={"1": "Qwen/Qwen2.5-0.5B"})
    assert not [n for n in given.notes if n.code == "shell.not-expressible"]
    assert "actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B" in given.files["launch.sh"]


@pytest.mark.parametrize(
    ("head", "sourced", "refused"),
    [
        # set -e: sourcing a file of a folder the project does not have stops bash before the launch
        ("set -ex", "configs/models/m.sh", True),
        ("set -o errexit", "configs/models/m.sh", True),
        ("#!/bin/bash -e", "configs/models/m.sh", True),
        # without errexit bash goes on to the launch; set +e turns it off again
        ("", "configs/models/m.sh", False),
        ("set -e\nset +e", "configs/models/m.sh", False),
        # a file the project may leave to the user (.env in a folder it has), or the machine's own: not judged
        ("set -e", ".env", False),
        ("set -e", "/opt/cluster/env.sh", False),
    ],
)
def test_a_missing_sourced_file_stops_a_script_under_errexit(
    tmp_path: Path, head: str, sourced: str, refused: bool
) -> None:
    (tmp_path / ".git").mkdir()
    script = tmp_path / "run.sh"
    script.write_text(head + "\nsource " + sourced + "\n" + OPENRLHF_LAUNCH.format(run_name=""))
    if refused:
        with pytest.raises(translator.ConfigError, match="under set -e bash stops here") as error:
            translator.explain(str(script))
        assert error.value.line == head.count("\n") + 2
    else:
        assert translator.explain(str(script)).plan["samples_per_prompt"] == 4
