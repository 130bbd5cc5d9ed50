"""A launch word whose value rlconf cannot read (a variable the script never sets, a command that depends on an
undecided branch) may hold any override: what the launch sets itself stays known, every plan quantity read from a
default (or built from one) is unknown, with the warning input.unknown-overrides. Each case below is checked
without the word too, where those quantities are known: the word alone makes the difference."""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from tests.conftest import write_project

# framework, the launch (its last word the unknown one), the plan values it sets itself (by hand from its own
# keys), the quantities read from defaults (unknown with the word)
CASES = [
    (
        "verl@0.9.1",
        "python3 -m verl.trainer.main_ppo data.train_batch_size=8 actor_rollout_ref.rollout.n=2 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=4",
        # 8 prompts × 2 = 16 samples; the mini-batch 4 prompts × n 2 = 8 samples
        {"prompts_per_step": 8, "samples_per_prompt": 2, "samples_per_step": 16, "samples_per_optimizer_step": 8},
        ("epochs_per_step", "optimizer_steps_per_step"),  # ppo_epochs is verl's default
    ),
    (
        "easyr1@0.3.2",
        "python3 -m verl.trainer.main data.train_files=a@train data.val_files=a@test data.rollout_batch_size=8 "
        "worker.rollout.n=2",
        {"prompts_per_step": 8, "samples_per_prompt": 2, "samples_per_step": 16},
        ("samples_per_optimizer_step", "optimizer_steps_per_step"),  # worker.actor.global_batch_size: default
    ),
    (
        "skyrl@0.4.0",
        "python -m skyrl.train.entrypoints.main_base trainer.train_batch_size=8 generator.n_samples_per_prompt=2",
        {"prompts_per_step": 8, "samples_per_prompt": 2, "samples_per_step": 16},
        ("samples_per_optimizer_step", "optimizer_steps_per_step"),  # trainer.policy_mini_batch_size: default
    ),
    (
        "openrlhf@0.11.2",
        "python3 -m openrlhf.cli.train_ppo_ray --rollout.batch_size 8 --rollout.n_samples_per_prompt 2 "
        "--train.batch_size 16",
        {"prompts_per_step": 8, "samples_per_prompt": 2, "samples_per_step": 16, "samples_per_optimizer_step": 16},
        ("epochs_per_step", "optimizer_steps_per_step"),  # --max_epochs: default
    ),
    (
        "trl@1.16.0",
        "accelerate launch --num_processes 2 -m trl.scripts.grpo --per_device_train_batch_size 4 "
        "--gradient_accumulation_steps 2 --num_generations 8",
        # a generation round: 4 completions × 2 processes × steps_per_generation (= gradient accumulation 2) = 16,
        # 16 ÷ 8 generations = 2 prompts; one update: 4 × 2 × 2 = 16 (the process count is no script argument)
        {
            "prompts_per_step": 2,
            "samples_per_prompt": 8,
            "samples_per_step": 16,
            "samples_per_optimizer_step": 16,
            "data_parallel_size": 2,
            "micro_batch_per_device": 4,
            "grad_accum_steps": 2,
        },
        ("epochs_per_step", "optimizer_steps_per_step"),  # num_iterations: default
    ),
    (
        "open-instruct@2026.08.20",
        "python open_instruct/grpo_fast.py --num_unique_prompts_rollout 8 --num_samples_per_prompt_rollout 2",
        {"prompts_per_step": 8, "samples_per_prompt": 2, "samples_per_step": 16},
        ("samples_per_optimizer_step", "epochs_per_step"),  # num_mini_batches, num_epochs: defaults
    ),
    *(
        (
            framework,
            "python3 train.py --rollout-batch-size 8 --n-samples-per-prompt 2 --global-batch-size 16",
            {"prompts_per_step": 8, "samples_per_prompt": 2, "samples_per_step": 16, "samples_per_optimizer_step": 16},
            # --micro-batch-size 1 and --actor-num-gpus-per-node 8: defaults
            ("micro_batch_per_device", "data_parallel_size"),
        )
        for framework in ("slime@0.3.1", "miles@0.1.0")
    ),
]


@pytest.mark.parametrize(("framework", "launch", "known", "from_defaults"), CASES, ids=[c[0] for c in CASES])
def test_an_unknown_launch_word_leaves_unknown_what_the_launch_does_not_set(
    tmp_path: Path, framework: str, launch: str, known: dict[str, int], from_defaults: tuple[str, ...]
) -> None:
    root = write_project(tmp_path, {"run.sh": f"{launch} $EXTRA\n", "plain.sh": f"{launch}\n"})
    explanation = translator.load(str(root / "run.sh"), framework=framework)
    plain = translator.load(str(root / "plain.sh"), framework=framework)
    for name, value in known.items():
        assert explanation.plan[name] == plain.plan[name] == value, name
    for name in from_defaults:
        assert plain.plan[name] is not None and explanation.plan[name] is None, name
        assert "${EXTRA}" in explanation.spec.derivations[f"plan.{name}"].text
    assert "input.unknown-overrides" in {n.code for n in explanation.notes}
    assert "input.unknown-overrides" not in {n.code for n in plain.notes}


def test_a_command_built_differently_in_each_branch_is_not_read_from_defaults(tmp_path: Path) -> None:
    # CMD holds data.train_batch_size 8 or 16 depending on X (never set): the command's words are not known, so
    # neither is the step, and verl's default of 1024 prompts is never stated
    root = write_project(
        tmp_path,
        {
            "run.sh": 'if [ "$X" = 1 ]; then\n  CMD="python3 -m verl.trainer.main_ppo data.train_batch_size=8"\n'
            'else\n  CMD="python3 -m verl.trainer.main_ppo data.train_batch_size=16"\nfi\n'
            'CMD+=" actor_rollout_ref.rollout.n=2"\n$CMD\n'
        },
    )
    explanation = translator.load(str(root / "run.sh"), framework="verl@0.9.1")
    assert explanation.plan["prompts_per_step"] is None and explanation.plan["samples_per_prompt"] == 2


def test_an_open_instruct_flag_then_an_unset_variable_is_the_flag_and_an_unknown_word(tmp_path: Path) -> None:
    # `--total_episodes 6400 $EXTRA`: argparse takes one value; bash drops the unset word, and a set one adds flags
    root = write_project(
        tmp_path,
        {"run.sh": "python open_instruct/grpo_fast.py --num_unique_prompts_rollout 8 --total_episodes 6400 $EXTRA\n"},
    )
    explanation = translator.load(str(root / "run.sh"), framework="open-instruct@2026.08.20")
    assert explanation.plan["prompts_per_step"] == 8
    assert "input.unknown-overrides" in {n.code for n in explanation.notes}


ARRAY_LAUNCH = "python3 train.py --rollout-batch-size 8 --n-samples-per-prompt 2 --global-batch-size 16 ${MISC[@]}\n"


def test_a_slime_array_no_file_sets_is_empty(tmp_path: Path) -> None:
    # bash exports no arrays: an array neither the script nor a file it sources sets expands to no word
    root = write_project(tmp_path, {"run.sh": ARRAY_LAUNCH})
    explanation = translator.load(str(root / "run.sh"), framework="slime@0.3.1")
    assert explanation.plan["micro_batch_per_device"] == 1  # --micro-batch-size's default
    assert "input.unknown-overrides" not in {n.code for n in explanation.notes}


def test_a_slime_array_a_file_rlconf_cannot_follow_may_set_is_unknown(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"run.sh": "source ./models/absent.sh\n" + ARRAY_LAUNCH})
    explanation = translator.load(str(root / "run.sh"), framework="slime@0.3.1")
    assert explanation.plan["micro_batch_per_device"] is None
    assert explanation.plan["prompts_per_step"] == 8
    assert "input.unknown-overrides" in {n.code for n in explanation.notes}


def test_the_model_flags_mileses_model_args_helper_prints_hold_no_plan_flag(tmp_path: Path) -> None:
    # model_args_utils.py prints scripts/models/<type>.py's model_args(): the architecture alone
    # (miles/utils/external_utils/model_args_utils.py@v0.1.0), so its words leave the defaults known
    helper = '"$(python3 "${D}/miles/utils/external_utils/model_args_utils.py" "qwen3-4B")"'
    script = f'D=/opt/miles\nLINE={helper}\nread -ra MODEL_ARGS <<< "$LINE"\n' + ARRAY_LAUNCH.replace(
        "MISC", "MODEL_ARGS"
    )
    root = write_project(tmp_path, {"run.sh": script})
    explanation = translator.load(str(root / "run.sh"), framework="miles@0.1.0")
    assert explanation.plan["micro_batch_per_device"] == 1  # --micro-batch-size's default
    assert "input.unknown-overrides" not in {n.code for n in explanation.notes}
