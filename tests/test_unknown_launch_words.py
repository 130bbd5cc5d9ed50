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
