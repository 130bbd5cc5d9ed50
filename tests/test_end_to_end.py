"""End to end: five runs as their authors wrote them (fixtures/end-to-end/), each translated to every other
framework, and a reviewer's checklist asserted against the TARGET's native keys in the written files (read back
with the target's own reader at the written release): batch plan, algorithm (GAE λ, value clip), reward, data
columns, checkpoint cadence and format, evaluation cadence and sampling, logging, LR schedule with floor and
warmup, run length, placement. Every expected value is derived by hand in the comment beside it, from the source
config and the target's semantics (docs/frameworks/<framework>.md). Where the target cannot express a field, the
note must say so and be true: the target's concordance maps no key of the written release to that field.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

import translator
from tests.conftest import read_back
from translator import concordance, native_schemas

ROOT = Path(__file__).resolve().parent.parent
E2E = ROOT / "fixtures" / "end-to-end"
OI_PPO = E2E / "oi_ppo_10m_7_learners.sh"
OI_70B = E2E / "oi_grpo_fast_70b_4_plus_2_nodes.sh"
ORLHF = E2E / "openrlhf_085_ppo_rm_critic.sh"
EASYR1 = E2E / "easyr1_qwen25vl_geo3k" / "launch.sh"
OPENR1 = E2E / "openr1_grpo_7_processes" / "launch.sh"
ABSENT = object()


def _source(path: Path) -> translator.Explanation:
    return translator.load(path, framework="openrlhf@0.8.5" if path == ORLHF else None)


def written(path: Path, target: str) -> tuple[translator.Translation, dict[str, Any]]:
    """The translation and the native key → value of the files it wrote, read back as the written release."""
    translation = translator.translate(_source(path), to=target)
    name = target.partition("@")[0]
    back = translator.load(read_back(translation))  # no --from: the written requirements.txt or keys say it
    assert (back.spec.framework, back.version) == (name, translation.version)
    assert back.native is not None
    return translation, dict(back.native.values)


def _same(a: Any, b: Any) -> bool:
    if b is ABSENT:
        return a is ABSENT
    if isinstance(b, (list, tuple)):
        return (
            isinstance(a, (list, tuple)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=False))
        )
    if isinstance(b, bool) or isinstance(a, bool):
        return str(a).lower() == str(b).lower()
    if isinstance(b, (int, float)):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-9)
        except (TypeError, ValueError):
            return False
    return str(a) == str(b)


def checklist(values: dict[str, Any], expected: dict[str, Any]) -> None:
    wrong = {
        key: (values.get(key, ABSENT), want)
        for key, want in expected.items()
        if not _same(values.get(key, ABSENT), want)
    }
    assert not wrong, "written ≠ expected: " + "; ".join(f"{k}: {got!r} ≠ {want!r}" for k, (got, want) in wrong.items())


def noted(translation: translator.Translation, field: str, *words: str) -> None:
    """A note names ``field`` and says ``words``."""
    found = [n.message for n in translation.notes if field in n.source_keys or field in n.message]
    assert any(all(w in m for w in words) for m in found), f"no note on {field} saying {words}: {found}"


def cannot(translation: translator.Translation, target: str, field: str, *words: str) -> None:
    """The note says the target cannot express ``field``, and that is true: no key of the written release maps to
    it in the target's concordance (the key → field map checked against the readers, tests/test_concordance.py)."""
    noted(translation, field, *words)
    name = target.partition("@")[0]
    schemas = [
        s for fw in concordance.schema_frameworks(name) for s in native_schemas.schemas_for(fw, translation.version)[:1]
    ]
    keys = [
        k for k, fields in concordance.load(name).fields.items() if field in fields and any(s.knows(k) for s in schemas)
    ]
    assert not keys, f"the note on {field} is false: {name} {translation.version} has {keys}"


def launchable(translation: translator.Translation) -> None:
    assert not translation.failed, [n.message for n in translation.notes if n.severity == "error"]


# --- 1. Open-Instruct PPO (ppo_vllm_thread_ray_gtrl.py 2025.01.22): 7 learners + 1 vLLM GPU, total_episodes 10M.
# Source: 16 prompts/learner × 7 = 112 prompts/step, number_samples_per_prompt 4 → 448 samples/step;
# local_mini_batch_size 64 × 7 = 448 samples/update → 1 mini-batch; num_epochs 2 → 2 optimizer steps/step;
# per_device_train_batch_size 4 → 64 / 4 = 16 accumulation steps; steps = 10,000,000 // 448 = 22,321;
# eval every 22,321 // num_evals 10 = 2,232 steps; save_freq 200; lr 5e-7 linear, no warmup; GAE γ 1 λ 0.95,
# value clip 0.2; KL in the reward, β 0.03, kl1 (k1); RM and value model from Tulu-3-8B-RM; seed 11.


def test_oi_ppo_to_verl() -> None:
    t, v = written(OI_PPO, "verl")
    launchable(t)  # verl 0.9's separate_async refuses a colocated reward model: colocate_async is written
    checklist(
        v,
        {
            "trainer.n_gpus_per_node": 7,
            "trainer.nnodes": 1,  # the 7 learners (rollout joins them: colocate_async)
            "data.train_batch_size": 112,  # prompts per step
            "actor_rollout_ref.rollout.n": 4,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 112,  # verl counts prompts: 448 samples / n 4
            "actor_rollout_ref.actor.ppo_epochs": 2,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 4,  # samples per rank: 448/7/16 = 4
            "trainer.total_training_steps": 22321,
            "algorithm.adv_estimator": "gae",
            "algorithm.gamma": 1.0,
            "algorithm.lam": 0.95,
            "critic.cliprange_value": 0.2,
            "algorithm.use_kl_in_reward": True,
            "algorithm.kl_ctrl.kl_coef": 0.03,
            "algorithm.kl_penalty": "kl",
            "critic.model.path": "allenai/Llama-3.1-Tulu-3-8B-RM",
            "critic.optim.lr": 5e-7,  # the policy's lr
            "reward.reward_model.model_path": "allenai/Llama-3.1-Tulu-3-8B-RM",
            "data.prompt_key": "messages",
            "data.max_prompt_length": 1024,
            "data.max_response_length": 1536,
            "trainer.save_freq": 200,
            "trainer.default_local_dir": "output/ppo_10m",
            "actor_rollout_ref.actor.checkpoint.save_contents": ["model", "optimizer", "extra", "hf_model"],  # HF too
            "trainer.test_freq": 2232,
            "trainer.experiment_name": "ppo-10m-7learners",
            "trainer.logger": ["wandb"],
            "actor_rollout_ref.actor.optim.lr": 5e-7,
            "actor_rollout_ref.actor.optim.lr_warmup_steps_ratio": 0.0,
            "actor_rollout_ref.rollout.temperature": 0.8,
            "data.seed": 11,
            "trainer.v1.trainer_mode": "colocate_async",
            "trainer.v1.colocate_async.num_warmup_batches": 1,
        },
    )
    noted(t, "asynchrony.max_steps_ahead", "colocate_async")  # the vLLM GPU is given up, and said so
    # verl has no entity key; verl/utils/tracking.py@v0.9.1 hands os.environ["WANDB_ENTITY"] to wandb.init
    assert "export WANDB_ENTITY=my-lab" in t.files["launch.sh"] and t.spec.logging.entity == "my-lab"
    noted(t, "optimizer.lr_schedule", "linear", "constant")  # verl 0.9.1: constant or cosine only
    assert v["actor_rollout_ref.actor.optim.lr_scheduler_type"] == "constant"


def test_oi_ppo_to_openrlhf() -> None:
    t, v = written(OI_PPO, "openrlhf")
    launchable(t)
    checklist(
        v,
        {
            "actor.num_nodes": 1,
            "actor.num_gpus_per_node": 7,
            "vllm.num_engines": 1,
            "vllm.tensor_parallel_size": 1,
            "rollout.batch_size": 112,
            "rollout.n_samples_per_prompt": 4,
            "train.batch_size": 448,  # OpenRLHF counts samples (global)
            "train.max_epochs": 2,
            "train.micro_batch_size": 4,  # 448 / (7 × 4) = 16 accumulation steps
            "algo.advantage.estimator": "gae",
            "algo.advantage.gamma": 1.0,
            "algo.advantage.lambd": 0.95,
            "critic.value_clip": 0.2,
            "critic.adam.lr": 5e-7,
            "critic.model_name_or_path": "allenai/Llama-3.1-Tulu-3-8B-RM",
            "reward.model_name_or_path": "allenai/Llama-3.1-Tulu-3-8B-RM",
            "algo.kl.init_coef": 0.03,
            "algo.kl.estimator": "k1",  # in the reward (no --algo.kl.use_loss)
            "algo.kl.use_loss": ABSENT,
            "data.input_key": "messages",
            "data.label_key": "ground_truth",
            "rollout.max_new_tokens": 1536,
            "ckpt.save_steps": 200,
            "ckpt.path": "output/ppo_10m",
            "ckpt.save_hf": True,
            "logger.wandb.run_name": "ppo-10m-7learners",
            "logger.wandb.org": "my-lab",
            "actor.adam.lr": 5e-7,
            "actor.lr_scheduler": "linear",
            "actor.lr_warmup_ratio": 0.0,
            "train.seed": 11,
            # no step limit in OpenRLHF: 22,321 steps × 112 prompts = 2,499,952 prompts, one pass
            "data.max_samples": 2499952,
            "train.num_episodes": 1,
            "train.async_enable": True,  # generation one step ahead (OI's async_mode)
        },
    )
    noted(t, "plan.total_steps", "2499952")


def test_oi_ppo_to_easyr1() -> None:
    t, v = written(OI_PPO, "easyr1")
    checklist(
        v,
        {
            "trainer.n_gpus_per_node": 7,
            "trainer.nnodes": 1,  # EasyR1 colocates vLLM on the 7 training GPUs
            "data.rollout_batch_size": 112,
            "worker.rollout.n": 4,
            "worker.actor.global_batch_size": 112,  # EasyR1 counts prompts (× n): 448 / 4
            "worker.actor.ppo_epochs": 2,
            "worker.actor.micro_batch_size_per_device_for_update": 4,
            "algorithm.adv_estimator": "gae",
            "algorithm.gamma": 1.0,
            "algorithm.lam": 0.95,
            "worker.critic.cliprange_value": 0.2,
            "algorithm.use_kl_loss": False,
            "algorithm.kl_coef": 0.03,
            "algorithm.kl_penalty": "kl",
            "data.prompt_key": "messages",
            "data.answer_key": "ground_truth",
            "trainer.save_freq": 200,
            "trainer.save_checkpoint_path": "output/ppo_10m",
            "trainer.val_freq": 2232,
            "trainer.max_steps": 22321,
            "trainer.experiment_name": "ppo-10m-7learners",
            "worker.actor.optim.lr": 5e-7,
            "worker.actor.optim.lr_warmup_ratio": 0.0,
            "data.seed": 11,
        },
    )
    # EasyR1 scores with a function only: the reward model is dropped, and with OI's verifiers unnamed the run
    # cannot start. The translation says so (an error note), rather than writing a config that fails.
    noted(t, "reward.model", "rule-based function only")
    assert t.failed and any(n.code == "reward.missing" for n in t.notes)
    # no entity key; EasyR1's WandbLogger calls wandb.init without one (verl/utils/logger/logger.py@b44b311),
    # so wandb takes WANDB_ENTITY from the environment
    assert "export WANDB_ENTITY=my-lab" in t.files["launch.sh"] and t.spec.logging.entity == "my-lab"


def test_oi_ppo_to_trl() -> None:
    t, v = written(OI_PPO, "trl")
    checklist(
        v,
        {
            "num_generations": 4,
            "per_device_train_batch_size": 4,
            "gradient_accumulation_steps": 16,
            # TRL counts optimizer steps: 22,321 steps × 2 = 44,642; cadences likewise (200 × 2, 2,232 × 2)
            "max_steps": 44642,
            "save_steps": 400,
            "eval_steps": 4464,
            "num_iterations": 2,
            "learning_rate": 5e-7,
            "lr_scheduler_type": "linear",
            "temperature": 0.8,
            "max_completion_length": 1536,
            "reward_model_name_or_path": "allenai/Llama-3.1-Tulu-3-8B-RM",
            "output_dir": "output/ppo_10m",
            "run_name": "ppo-10m-7learners",
            "seed": 11,
            "beta": 0.0,  # in-reward KL dropped (TRL has loss KL only)
        },
    )
    assert "export WANDB_ENTITY=my-lab" in t.files["launch.sh"]  # TRL reads the entity from the environment
    assert "--num_processes 7" in t.files["launch.sh"]
    cannot(t, "trl", "algorithm.gae_lambda", "no counterpart")
    cannot(t, "trl", "critic.value_clip", "no counterpart")
    assert t.failed  # GRPOTrainer has no critic: an error note, not a silent GRPO run


# --- 2. A 70B grpo_fast run: 4 learner nodes × 8 + 2 vLLM nodes (4 engines × TP 4 = 16 GPUs).
# 64 prompts × 8 = 512 samples/step; num_mini_batches 4 → 128 samples/update, 4 updates/step; 32 learners;
# 1,024,000 // 512 = 2,000 steps; lr 1e-7 linear, warmup_ratio 0.05; β 0 (no KL); async_steps 1;
# eval every 50, save every 100 into /output/llama70b; project rl-70b; HEAD default clip_higher 0.272.


def test_oi_70b_to_verl() -> None:
    t, v = written(OI_70B, "verl")
    launchable(t)
    checklist(
        v,
        {
            "trainer.nnodes": 4,
            "trainer.n_gpus_per_node": 8,  # the learners
            "actor_rollout_ref.rollout.nnodes": 2,
            "actor_rollout_ref.rollout.n_gpus_per_node": 8,  # standalone pool
            "actor_rollout_ref.rollout.tensor_model_parallel_size": 4,
            "trainer.v1.trainer_mode": "separate_async",
            "data.train_batch_size": 64,
            "actor_rollout_ref.rollout.n": 8,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 16,  # 128 samples / 8
            "trainer.v1.separate_async.parameter_sync_step": 4,  # 64 / 16 local updates
            "trainer.total_training_steps": 2000,
            "algorithm.adv_estimator": "grpo",
            "actor_rollout_ref.actor.use_kl_loss": False,
            "algorithm.use_kl_in_reward": False,
            "actor_rollout_ref.actor.clip_ratio_high": 0.272,
            "actor_rollout_ref.actor.optim.lr": 1e-7,
            "actor_rollout_ref.actor.optim.lr_warmup_steps_ratio": 0.05,
            "trainer.save_freq": 100,
            "trainer.default_local_dir": "/output/llama70b",
            "trainer.test_freq": 50,
            "trainer.project_name": "rl-70b",
            "trainer.experiment_name": "llama70b_grpo_fast",
            "data.seed": 7,
            "data.max_response_length": 4096,
        },
    )
    noted(t, "optimizer.lr_schedule", "linear")


def test_oi_70b_to_openrlhf() -> None:
    t, v = written(OI_70B, "openrlhf")
    checklist(
        v,
        {
            "actor.num_nodes": 4,
            "actor.num_gpus_per_node": 8,
            "vllm.num_engines": 4,
            "vllm.tensor_parallel_size": 4,
            "rollout.batch_size": 64,
            "rollout.n_samples_per_prompt": 8,
            "train.batch_size": 128,
            "train.max_epochs": 1,
            "algo.kl.init_coef": 0.0,
            "actor.eps_clip_low_high": [0.2, 0.272],
            "actor.adam.lr": 1e-7,
            "actor.lr_scheduler": "linear",
            "actor.lr_warmup_ratio": 0.05,
            "ckpt.save_steps": 100,
            "ckpt.path": "/output/llama70b",
            "logger.wandb.project": "rl-70b",
            "data.max_samples": 128000,  # 2,000 steps × 64 prompts, one pass
            "train.async_enable": True,
            "train.seed": 7,
        },
    )
    # OI's verifiers have no OpenRLHF counterpart: the translation stops the run with an error note.
    assert t.failed and any(n.code == "reward.missing" for n in t.notes)


def test_oi_70b_to_easyr1_and_trl() -> None:
    t, v = written(OI_70B, "easyr1")
    checklist(
        v,
        {
            "trainer.nnodes": 4,
            "trainer.n_gpus_per_node": 8,  # vLLM moves onto the 32 training GPUs
            "worker.rollout.tensor_parallel_size": 4,
            "data.rollout_batch_size": 64,
            "worker.rollout.n": 8,
            "worker.actor.global_batch_size": 16,
            "trainer.max_steps": 2000,
            "trainer.save_freq": 100,
            "trainer.val_freq": 50,
            "worker.actor.optim.lr_warmup_ratio": 0.05,
            "algorithm.disable_kl": True,
        },
    )
    noted(t, "topology.rollout_gpus", "16")
    t, v = written(OI_70B, "trl")
    # grpo_fast reads `messages` as a chat list (rlvr_tokenize_v1): TRL's own script takes one (GRPOTrainer reads
    # x["prompt"] as text or chat), Open-R1's would make it one user message's text. The one launch blocker is the
    # reward: OI's verifiers have no TRL-script form, and GRPOTrainer 1.16.0 stops with none ("No reward source
    # provided", trl/trainer/grpo_trainer.py@v1.16.0:734).
    assert "-m trl.scripts.grpo" in t.files["launch.sh"]
    errors = [n for n in t.notes if n.severity == "error"]
    assert [n.code for n in errors] == ["reward.missing"], [n.message for n in errors]
    checklist(
        v,
        {
            "num_generations": 8,
            "learning_rate": 1e-7,
            "lr_scheduler_type": "linear",
            "beta": 0.0,
            "output_dir": "/output/llama70b",
            "epsilon_high": 0.272,
            "seed": 7,
            # 4 optimizer steps per step: TRL's max_steps = 2,000 × 4 = 8,000; save 100 × 4; eval 50 × 4
            "max_steps": 8000,
            "save_steps": 400,
            "eval_steps": 200,
        },
    )
    # 32 training processes on the 4 learner nodes; trl vllm-serve runs on one node, so the 2 × 8 vLLM GPUs
    # become the 8 of one node: 8 / TP 4 = 2 data-parallel engines, and a note says so.
    launch = t.files["launch.sh"]
    assert "--num_processes 32 --num_machines 4" in launch
    assert "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 trl vllm-serve" in launch
    assert "--tensor_parallel_size 4 --data_parallel_size 2" in launch
    noted(t, "topology.rollout_gpus", "16", "one node")


# --- 3. OpenRLHF 0.8.5 PPO: actor 4 + critic 2 + reward 1 + vLLM 1 GPUs; 128 prompts × 1; train batch 64
# samples → 2 updates/step; micro 4 → 64 / (4 × 4) = 4 accumulation steps; num_episodes 2; GAE γ 1 λ 0.95,
# value clip 0.2; KL in the reward 0.01 (k1); lr 5e-7, cosine_with_min_lr (0.8.5's default, floor lr × 0.1),
# warmup 0.03; critic lr 9e-6; save every 20 into ckpt_path with HF weights (save_hf_ckpt), keep 3;
# normalize_reward on.


def test_openrlhf_ppo_to_verl() -> None:
    t, v = written(ORLHF, "verl")
    launchable(t)
    checklist(
        v,
        {
            "trainer.n_gpus_per_node": 4,  # verl colocates actor, rollout, critic and RM on the actor's GPUs
            "data.train_batch_size": 128,
            "actor_rollout_ref.rollout.n": 1,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 64,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 4,
            "trainer.total_epochs": 2,
            "algorithm.adv_estimator": "gae",
            "algorithm.gamma": 1.0,
            "algorithm.lam": 0.95,
            "critic.cliprange_value": 0.2,
            "critic.optim.lr": 9e-6,
            "critic.ppo_mini_batch_size": 64,
            "algorithm.use_kl_in_reward": True,
            "algorithm.kl_ctrl.kl_coef": 0.01,
            "reward.reward_model.model_path": "OpenRLHF/Llama-3-8b-rm-mixture",
            "data.prompt_key": "context_messages",
            "trainer.save_freq": 20,
            "trainer.default_local_dir": "/openrlhf/checkpoint/llama3-8b-rlhf/ckpt",
            "trainer.max_actor_ckpt_to_keep": 3,
            "actor_rollout_ref.actor.checkpoint.save_contents": ["model", "optimizer", "extra", "hf_model"],
            "actor_rollout_ref.actor.optim.lr_scheduler_type": "cosine",
            "actor_rollout_ref.actor.optim.min_lr_ratio": 0.1,
            "actor_rollout_ref.actor.optim.lr_warmup_steps_ratio": 0.03,
            "trainer.project_name": "openrlhf_ppo",
            "trainer.experiment_name": "llama3-8b-ppo",
        },
    )
    cannot(t, "verl", "algorithm.reward_normalization", "no counterpart")


def test_openrlhf_ppo_to_open_instruct_ppo() -> None:
    # A GAE run needs Open-Instruct's PPO script: 2025.10.20 is its last release.
    t, v = written(ORLHF, "open-instruct@2025.10.20")
    launchable(t)
    checklist(
        v,
        {
            "actor_num_gpus_per_node": [4],
            "vllm_num_engines": 1,
            "local_rollout_batch_size": 32,  # 128 prompts / 4 learners
            "local_mini_batch_size": 16,  # 64 samples / 4 learners
            "per_device_train_batch_size": 4,
            "num_epochs": 1,
            "gamma": 1.0,
            "lam": 0.95,
            "cliprange_value": 0.2,
            "beta": 0.01,
            "kl_estimator": "kl1",
            "reward_model_path": "OpenRLHF/Llama-3-8b-rm-mixture",
            "sft_messages_key": "context_messages",
            "save_freq": 20,
            "output_dir": "/openrlhf/checkpoint/llama3-8b-rlhf/ckpt",
            "learning_rate": 5e-7,
            "warmup_ratio": 0.03,
            "exp_name": "llama3-8b-ppo",
        },
    )
    noted(t, "optimizer.lr_schedule", "cosine_with_min_lr")  # the floor cannot be passed: plain cosine
    noted(t, "critic.lr", "9e-06")  # the value model trains with the policy's lr
    cannot(t, "open-instruct@2025.10.20", "algorithm.reward_normalization", "no counterpart")


def test_openrlhf_ppo_to_easyr1_and_trl() -> None:
    t, v = written(ORLHF, "easyr1")
    checklist(
        v,
        {
            "algorithm.adv_estimator": "gae",
            "algorithm.lam": 0.95,
            "worker.critic.cliprange_value": 0.2,
            "worker.critic.optim.lr": 9e-6,
            "worker.actor.optim.lr_scheduler_type": "cosine",
            "worker.actor.optim.min_lr_ratio": 0.1,
            "worker.actor.optim.lr_warmup_ratio": 0.03,
            "trainer.save_freq": 20,
            "trainer.save_limit": 3,
            "trainer.total_epochs": 2,
            "worker.actor.global_batch_size": 64,
            "data.rollout_batch_size": 128,
        },
    )
    cannot(t, "easyr1", "algorithm.reward_normalization", "no counterpart")
    t, v = written(ORLHF, "trl")
    checklist(
        v,
        {
            "lr_scheduler_type": "cosine_with_min_lr",
            "save_total_limit": 3,
            "num_train_epochs": 2,
            "save_steps": 40,  # 20 steps × 2 optimizer steps
        },
    )
    assert v["lr_scheduler_kwargs"] == {"min_lr_rate": 0.1}
    cannot(t, "trl", "critic.value_clip", "no counterpart")


# --- 4. EasyR1 Qwen2.5-VL-7B geometry3k GRPO on 8 GPUs: 128 prompts × 5; global_batch_size 64 prompts (320
# samples) → 2 updates/step; KL loss low_var_kl 0.01; images in column `images`; validation every 5 steps and
# before training with temperature 0.6, top_p 0.95, n 1 (val_override_config); save every 5, keep 3; 15 epochs;
# rollout TP 1 (the launch line overrides the YAML's 2); constant lr 1e-6, weight decay 0.01.


def test_easyr1_geo_to_verl() -> None:
    t, v = written(EASYR1, "verl")
    # EasyR1's RLHFDataset reads `problem` as a string (it builds the user message itself); verl 0.9.1's
    # RLHFDataset._build_messages takes example[prompt_key] as a chat list: the one launch blocker is the data,
    # and its note gives the conversion (docs/data-contract.md).
    errors = [n for n in t.notes if n.severity == "error"]
    assert [n.code for n in errors] == ["data.column-type"], [n.message for n in errors]
    assert 'dataset.map(lambda row: {"problem": [{"role": "user", "content": row["problem"]}]})' in errors[0].message
    checklist(
        v,
        {
            "trainer.n_gpus_per_node": 8,
            "data.train_batch_size": 128,
            "actor_rollout_ref.rollout.n": 5,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 64,
            "trainer.total_epochs": 15,
            "actor_rollout_ref.rollout.tensor_model_parallel_size": 1,
            "algorithm.adv_estimator": "grpo",
            "actor_rollout_ref.actor.use_kl_loss": True,
            "actor_rollout_ref.actor.kl_loss_coef": 0.01,
            "actor_rollout_ref.actor.kl_loss_type": "low_var_kl",
            "data.image_key": "images",
            "data.prompt_key": "problem",
            "reward.custom_reward_function.path": "./examples/reward_function/math.py",
            "reward.custom_reward_function.name": "compute_score",
            "trainer.test_freq": 5,
            "trainer.val_before_train": True,
            "actor_rollout_ref.rollout.val_kwargs.do_sample": True,
            "actor_rollout_ref.rollout.val_kwargs.temperature": 0.6,
            "actor_rollout_ref.rollout.val_kwargs.top_p": 0.95,
            "actor_rollout_ref.rollout.val_kwargs.n": 1,
            "trainer.save_freq": 5,
            "trainer.max_actor_ckpt_to_keep": 3,
            "actor_rollout_ref.actor.optim.lr": 1e-6,
            "actor_rollout_ref.actor.optim.lr_scheduler_type": "constant",
            "actor_rollout_ref.actor.optim.weight_decay": 0.01,
            "trainer.project_name": "easy_r1",
            "trainer.experiment_name": "qwen2_5_vl_7b_geo_grpo",
        },
    )


def test_easyr1_geo_to_openrlhf() -> None:
    t, v = written(EASYR1, "openrlhf")
    launchable(t)
    checklist(
        v,
        {
            "actor.num_gpus_per_node": 8,
            "train.colocate_all": True,
            "vllm.num_engines": 8,  # 8 GPUs ÷ TP 1
            "rollout.batch_size": 128,
            "rollout.n_samples_per_prompt": 5,
            "train.batch_size": 320,  # samples
            "train.num_episodes": 15,
            "algo.kl.use_loss": True,
            "algo.kl.init_coef": 0.01,
            "algo.kl.estimator": "k3",
            "data.image_key": "images",
            "data.input_key": "problem",
            "data.label_key": "answer",
            "eval.steps": 5,
            "eval.temperature": 0.6,
            "eval.n_samples_per_prompt": 1,
            "ckpt.save_steps": 5,
            "ckpt.max_num": 3,
            "actor.adam.lr": 1e-6,
            "actor.lr_scheduler": "constant",
        },
    )
    cannot(t, "openrlhf", "evaluation.top_p", "no counterpart")
    noted(t, "evaluation.before_training", "before the first step")


def test_easyr1_geo_to_open_instruct_and_trl() -> None:
    t, v = written(EASYR1, "open-instruct")
    checklist(
        v,
        {
            "num_unique_prompts_rollout": 128,
            "num_samples_per_prompt_rollout": 5,
            "num_mini_batches": 2,  # 640 samples / 320 per update
            "beta": 0.01,
            "kl_estimator": "2",  # low_var_kl = k3 (grpo_fast's estimator 2)
            "local_eval_every": 5,
            "eval_top_p": 0.95,
            "save_freq": 5,
            "keep_last_n_checkpoints": 3,
            "eval_on_step_0": True,  # val_before_train: grpo_fast's local evaluation at step 0
            "learning_rate": 1e-6,
            "lr_scheduler_type": "constant",
            "sft_messages_key": "problem",
            "ground_truths_key": "answer",
        },
    )
    cannot(t, "open-instruct", "data.image_key", "text-only")
    cannot(t, "open-instruct", "evaluation.temperature", "no counterpart")
    t, v = written(EASYR1, "trl")
    launchable(t)
    checklist(
        v,
        {
            "num_generations": 5,
            "num_generations_eval": 1,
            "beta": 0.01,
            "eval_on_start": True,
            # 2 optimizer steps per step: every 5 steps = every 10 optimizer steps
            "save_steps": 10,
            "eval_steps": 10,
            "save_total_limit": 3,
            "num_train_epochs": 15,
            "learning_rate": 1e-6,
            "lr_scheduler_type": "constant",
            "vllm_mode": "colocate",
        },
    )
    cannot(t, "trl", "data.image_key", "text-only")
    cannot(t, "trl", "evaluation.temperature", "no counterpart")


# --- 5. Open-R1 GRPO recipe on 7 processes (+ 1 vLLM GPU): per_device 16 × 7 = 112 completions per micro-step,
# accumulation 8 → 896 samples per optimizer step = one generation of 112 prompts × num_generations 8; one
# iteration; lr 3e-6 cosine_with_min_lr (floor 0.1), warmup 0.1; β 0.001 (loss KL, k3); save every 50 optimizer
# steps (= steps), keep 2; rewards accuracy + format; one epoch; seed 42.


@pytest.mark.parametrize("target", ["verl", "easyr1", "openrlhf", "open-instruct"])
def test_openr1_to_every_framework(target: str) -> None:
    t, v = written(OPENR1, target)
    expected = {
        "verl": {
            "trainer.n_gpus_per_node": 7,
            "data.train_batch_size": 112,
            "actor_rollout_ref.rollout.n": 8,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 112,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 16,
            "trainer.total_epochs": 1,
            "actor_rollout_ref.actor.kl_loss_coef": 0.001,
            "actor_rollout_ref.actor.optim.lr_scheduler_type": "cosine",
            "actor_rollout_ref.actor.optim.min_lr_ratio": 0.1,
            "actor_rollout_ref.actor.optim.lr_warmup_steps_ratio": 0.1,
            "trainer.save_freq": 50,
            "trainer.max_actor_ckpt_to_keep": 2,
            "data.seed": 42,
            "data.max_prompt_length": 512,
            "data.max_response_length": 1024,
        },
        "easyr1": {
            "trainer.n_gpus_per_node": 7,
            "data.rollout_batch_size": 112,
            "worker.rollout.n": 8,
            "worker.actor.global_batch_size": 112,
            "worker.actor.optim.lr_scheduler_type": "cosine",
            "worker.actor.optim.min_lr_ratio": 0.1,
            "worker.actor.optim.lr_warmup_ratio": 0.1,
            "trainer.save_freq": 50,
            "trainer.save_limit": 2,
            "trainer.total_epochs": 1,
        },
        "openrlhf": {
            "actor.num_gpus_per_node": 7,
            "vllm.num_engines": 1,
            "rollout.batch_size": 112,
            "rollout.n_samples_per_prompt": 8,
            "train.batch_size": 896,
            "train.micro_batch_size": 16,
            "actor.lr_scheduler": "cosine_with_min_lr",
            "actor.min_lr_ratio": 0.1,
            "actor.lr_warmup_ratio": 0.1,
            "algo.kl.use_loss": True,
            "algo.kl.init_coef": 0.001,
            "ckpt.save_steps": 50,
            "ckpt.max_num": 2,
            "train.num_episodes": 1,
        },
        "open-instruct": {
            "num_learners_per_node": [7],
            "vllm_num_engines": 1,
            "num_unique_prompts_rollout": 112,
            "num_samples_per_prompt_rollout": 8,
            "num_mini_batches": 1,
            "beta": 0.001,
            "learning_rate": 3e-6,
            "warmup_ratio": 0.1,
            "save_freq": 50,
            "keep_last_n_checkpoints": 2,
            "seed": 42,
        },
    }[target]
    checklist(v, expected)
    if target == "verl":
        # Open-R1's grpo.py makes `problem`'s text the user message (open-r1:src/open_r1/grpo.py@1416fa0:91-100),
        # so the column holds strings; verl 0.9.1's RLHFDataset needs a chat list: the one launch blocker
        errors = [n for n in t.notes if n.severity == "error"]
        assert [n.code for n in errors] == ["data.column-type"], [n.message for n in errors]
        assert '{"problem": [{"role": "user", "content": row["problem"]}]}' in errors[0].message
    if target == "open-instruct":
        noted(t, "optimizer.min_lr_ratio", "0.1")  # grpo_fast's cosine decays to 0: the floor is lost, and said


# The W&B entity and run name of the Open-Instruct PPO run (--wandb_entity my-lab, --exp_name ppo-10m-7learners)
# reach every target in its own form, and read back (no --from) as the source's:
# - verl, EasyR1, SkyRL, TRL's own script: no config key; the launch exports WANDB_ENTITY, which verl passes to
#   wandb.init (verl/utils/tracking.py@v0.9.1) and the others' wandb.init(project=..., name=...) takes from the
#   environment (EasyR1 verl/utils/logger/logger.py@b44b311, SkyRL skyrl/train/utils/tracking.py in the 0.3.0 wheel);
# - OpenRLHF --logger.wandb.org, Open-Instruct --wandb_entity;
# - slime: wandb.init(entity=args.wandb_team, name=run_name) where run_name is --wandb-group, or the group plus a
#   random id and the rank unless --disable-wandb-random-suffix (slime/utils/wandb_utils.py@v0.3.1);
# - NeMo-RL: WandbLogger calls wandb.init(**logger.wandb) (nemo_rl/utils/logger.py@v0.7.0): logger.wandb.entity.
ENTITY_FORMS = {
    "verl": "export WANDB_ENTITY=my-lab",
    "easyr1": "export WANDB_ENTITY=my-lab",
    "skyrl": "export WANDB_ENTITY=my-lab",
    "trl": "export WANDB_ENTITY=my-lab",
    "openrlhf": "--logger.wandb.org my-lab",
    "open-instruct": "--wandb_entity my-lab",
    "slime": "--wandb-team my-lab",
    "nemo-rl": "entity: my-lab",
}


@pytest.mark.parametrize("target", ENTITY_FORMS)
def test_the_wandb_entity_and_run_name_reach_every_target(target: str) -> None:
    t = translator.translate(_source(OI_PPO), to=target)
    assert ENTITY_FORMS[target] in "".join(t.files.values())
    if target == "slime":
        launch = t.files["launch.sh"]
        assert "--wandb-group ppo-10m-7learners" in launch and "--disable-wandb-random-suffix" in launch
    back = translator.load(read_back(t)).spec.logging
    assert (back.entity, back.run_name) == ("my-lab", "ppo-10m-7learners")
    assert not [n.message for n in t.notes if "logging.entity" in n.message or "logging.run_name" in n.message]


def test_every_end_to_end_fixture_is_used() -> None:
    used = {OI_PPO, OI_70B, ORLHF, EASYR1, OPENR1}
    entries = {p if p.is_file() else p / "launch.sh" for p in E2E.iterdir()}
    assert entries == used
