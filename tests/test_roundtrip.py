"""Round trips A → B → A keep the plan wherever B can express it; where it cannot, notes say so.

The losses listed in LOSSY are semantic facts about the frameworks, each with its reason; every other
fixture must come back with an identical plan.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import translator
from tests.conftest import CASES, Case, case_id, differing, has_group, noted, read_back
from translator import dialects
from translator.sources.files import Source

OTHER = {"verl": "trl", "trl": "verl"}

# Fields the first leg (A → B) cannot keep, and why.
LOSSY_FIRST_LEG = {
    # verl packs micro-batches by a token budget; TRL has only a per-device sample count.
    "verl/grpo_dynamic_bsz": {"micro_batch_per_device", "grad_accum_steps"},
    "verl/dapo_recipe_dynamic_sampling": {"micro_batch_per_device", "grad_accum_steps"},
    # PPO with one sample per prompt: TRL's GRPO needs num_generations >= 2.
    "verl/ppo_gae_ulysses_sp2": {"samples_per_prompt", "prompts_per_step"},
    # TRL < 0.17 updates less than once per generation round; verl needs train_batch_size >= mini-batch.
    "trl/trl014_defaults_recipe_only": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},
    "trl/slurm_bash_c_flags_014": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},
    "trl/trl014_vllm_device_np7": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step", "total_steps"},
    "trl/trl015_recipe_only_g7": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step", "total_steps"},
    "trl/trl016_mu2_server": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step", "total_steps"},
    "trl/vlm_fork_pinned": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},
    "trl/pinned_setup_elsewhere": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},
    "trl/fork_trainer_014": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},
    "trl/fork_beside_script": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},
    "trl/commit_pin_between": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"},  # read as 0.15.2
    # 0.15.2 (pinned 0.15.0): a generation round per micro-step, 1/2 optimizer step per step; verl's step is a whole
    # update of the rollout
    "trl/driver_module": {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step", "total_steps"},
}
# Fields that stay different after the whole round trip (the rest come back).
LOSSY_ROUND_TRIP = {
    "verl/grpo_dynamic_bsz": {"micro_batch_per_device", "grad_accum_steps"},
    "verl/dapo_recipe_dynamic_sampling": {"micro_batch_per_device", "grad_accum_steps"},
    "verl/ppo_gae_ulysses_sp2": {"samples_per_prompt", "prompts_per_step"},
}
NEEDS_WORLD_SIZE = {"trl/recipe_only_no_world_size", "verl/unset_nodes_symbolic"}  # the node count is a variable
# No round trip: a trainer of no known TRL lineage, or one that sets its batch fields itself, leaves the step's
# counts unknown; a 320-sample step in mini-batches of 256 (a partial last one) has no TRL spelling.
NO_ROUND_TRIP = {"trl/fork_trainer_unknown", "trl/fork_trainer_rewrites", "verl/vendored_v01_n_agent_mini256"}


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c.framework in OTHER and has_group(c) and case_id(c) not in NEEDS_WORLD_SIZE | NO_ROUND_TRIP],
    ids=case_id,
)
def test_round_trip_through_the_other_framework(case: Case) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    there = translator.translate(source, to=OTHER[case.framework])
    version = dialects.get(case.framework).writable(source.version)
    if version != source.version:
        # verl 0.1 / 0.2 are read, not written: the way back is refused, and goes to the oldest written release.
        with pytest.raises(translator.ConfigError, match=f"writes verl {version} and newer"):
            translator.translate(read_back(there), to=f"verl@{source.version}")
    back = translator.translate(read_back(there), to=f"{case.framework}@{version}")
    key = case_id(case)
    first_leg = differing(source.plan, there.plan)
    assert first_leg == LOSSY_FIRST_LEG.get(key, set())
    assert noted(there) == first_leg, "every plan change of the first leg has a note"
    assert differing(source.plan, back.plan) == LOSSY_ROUND_TRIP.get(key, set())


def test_translation_without_a_world_size_is_refused() -> None:
    case = next(c for c in CASES if case_id(c) in NEEDS_WORLD_SIZE)
    with pytest.raises(translator.ConfigError, match="num-processes"):
        translator.translate(case.path, to="verl")
    translation = translator.translate(case.path, to="verl", num_processes=4)
    assert translation.plan["data_parallel_size"] == 4


# ------------------------------------------------------------------ one plan, its spelling in each framework
# Plan: 64 prompts × 8 samples = 512 samples per step; 128 samples per optimizer step → 4 mini-batches,
# 2 epochs → 8 optimizer steps per step; 8 ranks × micro 4 × accumulation 4 = 128.
PLAN_A = {
    "prompts_per_step": 64,
    "samples_per_prompt": 8,
    "samples_per_step": 512,
    "samples_per_optimizer_step": 128,
    "optimizer_steps_per_step": 8,
    "epochs_per_step": 2,
    "data_parallel_size": 8,
    "micro_batch_per_device": 4,
    "grad_accum_steps": 4,
    "total_steps": 100,
}
# verl: train_batch_size 64 prompts; ppo_mini_batch_size 16 prompts × n 8 = 128 samples; 8 GPUs, no SP.
VERL_A = """python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_batch_size=64 \\
    actor_rollout_ref.rollout.n=8 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.actor.ppo_epochs=2 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \\
    actor_rollout_ref.rollout.name=vllm \\
    trainer.n_gpus_per_node=8 trainer.nnodes=1 trainer.total_training_steps=100
"""
# TRL ≥ 0.18: W 8 × pdtbs 4 × GAS 4 = 128 per optimizer step; spg 16 → 512 completions per round
# = 64 prompts × 8; μ 2 → 16 × 2 / 4 = 8 optimizer steps per round; max_steps 800 = 100 rounds × 8.
TRL_A = """num_generations: 8
per_device_train_batch_size: 4
gradient_accumulation_steps: 4
steps_per_generation: 16
num_iterations: 2
max_steps: 800
"""

# Plan B: 32 prompts × 16 = 512 samples; one optimizer step per step; 4 ranks (8 GPUs, Ulysses SP 2 in verl).
PLAN_B = {
    "prompts_per_step": 32,
    "samples_per_prompt": 16,
    "samples_per_step": 512,
    "samples_per_optimizer_step": 512,
    "optimizer_steps_per_step": 1,
    "epochs_per_step": 1,
    "data_parallel_size": 4,
    "micro_batch_per_device": 8,
    "grad_accum_steps": 16,
    "total_steps": None,
}
VERL_B = """python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=32 \\
    actor_rollout_ref.rollout.n=16 actor_rollout_ref.actor.ppo_mini_batch_size=32 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \\
    actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size=2 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \\
    actor_rollout_ref.rollout.name=vllm trainer.n_gpus_per_node=8 trainer.nnodes=1
"""
# TRL: W 4 × pdtbs 8 × GAS 16 = 512 = spg (default GAS) round of 32 prompts × 16.
TRL_B = """num_generations: 16
per_device_train_batch_size: 8
gradient_accumulation_steps: 16
"""

SPELLINGS = [
    (PLAN_A, {"verl@0.9.1": (VERL_A, ".sh", None), "trl@1.16.0": (TRL_A, ".yaml", 8)}),
    (PLAN_B, {"verl@0.9.1": (VERL_B, ".sh", None), "trl@0.20.0": (TRL_B, ".yaml", 4)}),
]


@pytest.mark.parametrize("plan,spellings", SPELLINGS, ids=["plan-a", "plan-b"])
def test_each_spelling_reads_to_the_plan_and_the_plan_writes_each_spelling(plan: dict, spellings: dict) -> None:
    for framework, (text, suffix, processes) in spellings.items():
        read = translator.load(Source(text, "config" + suffix), framework=framework, num_processes=processes)
        assert read.plan == plan, f"read {framework}"
        for target in spellings:
            written = translator.translate(read, to=target)
            assert written.plan == plan, f"{framework} → {target}"
            assert not [n for n in written.notes if n.code == "plan.not-preserved"]


# ------------------------------------------------------------------ random valid plans
@st.composite
def verl_plans(draw: st.DrawFn) -> str:
    """A verl launch line whose plan TRL can express: integers that divide evenly."""
    n = draw(st.integers(2, 16))
    dp = draw(st.sampled_from([1, 2, 4, 8, 16]))
    micro = draw(st.sampled_from([1, 2, 4, 8]))
    accumulation = draw(st.integers(1, 8))
    mini_samples = dp * micro * accumulation * n  # a multiple of n (prompts) and of dp × micro
    minis_per_step = draw(st.integers(1, 8))
    epochs = draw(st.integers(1, 3))
    sp = draw(st.sampled_from([1, 2]))
    steps = draw(st.one_of(st.none(), st.integers(1, 2000)))
    overrides = [
        f"data.train_batch_size={mini_samples // n * minis_per_step}",
        f"actor_rollout_ref.rollout.n={n}",
        f"actor_rollout_ref.actor.ppo_mini_batch_size={mini_samples // n}",
        f"actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu={micro}",
        f"actor_rollout_ref.actor.ppo_epochs={epochs}",
        "algorithm.adv_estimator=grpo",
        f"actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size={sp}",
        f"trainer.n_gpus_per_node={dp * sp}",
        "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
        f"actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu={micro}",
        f"actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu={micro}",
    ]
    if steps:
        overrides.append(f"trainer.total_training_steps={steps}")
    return "python3 -m verl.trainer.main_ppo " + " ".join(overrides)


@st.composite
def trl_recipes(draw: st.DrawFn) -> tuple[str, int]:
    """A TRL ≥ 0.18 recipe (and world size) whose plan verl can express."""
    group = draw(st.integers(2, 16))
    world = draw(st.sampled_from([1, 2, 4, 7, 8]))
    per_device = group * draw(st.integers(1, 4))  # keeps completions per optimizer step whole prompts
    accumulation = draw(st.integers(1, 8))
    rounds = draw(st.integers(1, 4))  # spg a multiple of GAS: whole optimizer steps per round
    iterations = draw(st.integers(1, 3))
    max_steps = draw(st.sampled_from([-1, rounds * iterations * 50]))
    recipe = (
        f"num_generations: {group}\nper_device_train_batch_size: {per_device}\n"
        f"gradient_accumulation_steps: {accumulation}\nsteps_per_generation: {accumulation * rounds}\n"
        f"num_iterations: {iterations}\nmax_steps: {max_steps}\nbeta: 0.0\nloss_type: dapo\n"
    )
    return recipe, world


HYPOTHESIS = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@HYPOTHESIS
@given(verl_plans())
def test_random_verl_plans_survive_verl_trl_verl(launch: str) -> None:
    source = translator.load(Source(launch, "launch.sh"), framework="verl@0.9.1")
    there = translator.translate(source, to="trl")
    back = translator.translate(read_back(there), to="verl@0.9.1", framework=f"trl@{there.version}")
    assert there.plan == source.plan
    assert back.plan == source.plan


@HYPOTHESIS
@given(trl_recipes())
def test_random_trl_plans_survive_trl_verl_trl(recipe_and_world: tuple[str, int]) -> None:
    recipe, world = recipe_and_world
    source = translator.load(Source(recipe, "recipe.yaml"), framework="trl@1.16.0", num_processes=world)
    there = translator.translate(source, to="verl")
    back = translator.translate(read_back(there), to="trl@1.16.0", framework=f"verl@{there.version}")
    assert there.plan == source.plan
    assert back.plan == source.plan
