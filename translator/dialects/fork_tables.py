"""Upstream's batch-forming statements in each lineage's trainer ``fit`` (and the trainer methods it calls through
``self.``, validation excluded), as the short signatures translator/sources/code.py ``batch_touches`` gives them,
with how often the trainer holds each, per release band (the band holds from its release until the next). A fork
or copy whose fit holds a signature its band lacks, or holds it more often (a second rollout concatenated, a
batch resampled by a second index), forms batches in a way upstream does not (translator/dialects/forkbatch.py).
scripts/gen_fit_signatures.py prints them for a release's source or a clone's history."""

from __future__ import annotations

from collections.abc import Mapping

from translator.records import record

# verl: RayPPOTrainer.fit of each release's wheel (verl/trainer/ppo/ray_trainer.py), widened by the statements of
# the recipes' trainers derived from it (DAPO's filter: masked_select, len(batch), set batch_size/n)
_VERL_CORE = {"len(batch)": 1, "repeat(interleave,repeat_times=n)": 1, "set batch_size =": 1}
_VERL_0_7 = {
    **_VERL_CORE,
    "repeat(interleave,repeat_times=n)": 2,
    "set minibatch_size =": 1,
    "set n =": 1,
    "set ppo_mini_batch_size =": 4,
    "assign_non_tensor(global_batch_size=)": 2,
}
_VERL_DAPO = {"batch[index]": 1, "concat()": 1, "repeat(interleave,repeat_times=n)": 1}
# EasyR1: RayPPOTrainer.fit (verl/trainer/ray_trainer.py) at every commit of hiyouga/EasyR1 up to each band's
# snapshot (EasyR1 tags rarely, and projects copy it between tags): each signature's largest count over them
_EASYR1_FEB = {"repeat(interleave,repeat_times=n)": 1}
_EASYR1_0_3_0 = {**_EASYR1_FEB, "set n =": 1}  # 39cab8f (2025-04-03)
# a8f5db7..5fde9d5 (2025-06-15..18): online filtering draws batches until the rollout batch is full
_EASYR1_0_3_1 = {
    **_EASYR1_0_3_0,
    "concat()": 1,
    "len(batch)": 2,
    "batch[index]": 1,
    "set rollout_batch_size =": 1,
    "set current_batch_size =": 1,
}

UPSTREAM_FIT: dict[str, dict[str, Mapping[str, int]]] = {
    "verl": {
        # 0.1: the rollout repeats each prompt n times itself; fit only unions the generated batch
        "0.1": {},
        "0.2.0.post2": _VERL_CORE,
        "0.3.0": _VERL_CORE,
        "0.4.1": {**_VERL_CORE, "masked_select()": 1, "set n =": 1},
        "0.5.0": {**_VERL_CORE, "repeat(interleave,repeat_times=n)": 2, "masked_select()": 1, "set n =": 1},
        "0.6.1": {**_VERL_CORE, "repeat(interleave,repeat_times=n)": 2, "set minibatch_size =": 1, "set n =": 1},
        "0.7.0": _VERL_0_7,
        # 0.8.0 (and 0.9.x, the same): the rollout's n is read once as rollout_n; the step's batch is sliced into
        # chunks for the update and concatenated again
        "0.8.0": {
            **_VERL_0_7,
            "set rollout_n =": 1,
            "repeat(interleave,repeat_times=rollout_n)": 1,
            "slice()": 3,
            "concat()": 1,
            "len(batch)": 2,
        },
    },
    # verl's DAPO recipe (recipe/dapo/dapo_ray_trainer.py RayDAPOTrainer.fit, a loop of its own that draws generation
    # batches until group filtering keeps train_batch_size prompts) at every commit of volcengine/verl that changed
    # it, from its addition (3a27a98, 2025-04-04) to its move out of verl (2bb42ba, 2026-01-06): the second repeat
    # by n came with 3f929af (2025-07-07, in 0.5.0). The recipe is never in a wheel: a DAPO run is a checkout's copy.
    "verl-dapo": {
        "0.4.1": _VERL_DAPO,
        "0.5.0": {**_VERL_DAPO, "repeat(interleave,repeat_times=n)": 2},
    },
    # OpenRLHF: the PPOTrainer.fit that openrlhf/cli/train_ppo.py and train_ppo_ray.py build, in each wheel from 0.4.1
    # to 0.7.0 (the same in every one: the prompt loader); from 0.7.1 the Ray entry builds no trainer whose fit rlconf
    # follows (its loop runs in Ray actors)
    "openrlhf": {"0.4.1": {"DataLoader(batch_size=)": 1}, "0.7.1": {}},
    "easyr1": {
        "0.2.0.dev20250223": _EASYR1_FEB,
        "0.3.0": _EASYR1_0_3_0,
        "0.3.1": _EASYR1_0_3_1,
        "0.3.2": _EASYR1_0_3_1,
        "0.3.3.dev0": _EASYR1_0_3_1,
    },
}


# How each lineage's workers turn the configured batch sizes into per-device ones and its actor accumulates
# micro-batches: the last names of the sizes whose assignment marks a normalising function (anchors), and per
# release band the shapes of every size assignment in those functions, as translator/sources/code.py
# ``normalisation_touches`` gives them. Worked out by running it on each release's verl/workers/fsdp_workers.py and
# verl/workers/actor/dp_actor.py, megatron_workers.py and actor/megatron_actor.py (verl wheels 0.2.0.post2, 0.3.0.post1,
# 0.4.1, 0.5.0, 0.6.1, 0.7.0; EasyR1 at the
# commits of its bands). ``None``: from that release on the workers are other code (verl 0.8's engine workers),
# not compared. Every modelled band computes the same per-device sizes (shape[0] and size() of the 1-D device
# mesh are one number), so a fork's copy, often taken between releases, is compared with their union: a fork whose
# workers have a shape outside it sizes its mini-batches its own way.
@record(frozen=True)
class WorkerSizes:
    anchors: tuple[str, ...]
    bands: dict[str, frozenset[str] | None]
    # the plan quantities the normalisation and the actor's update decide
    decides: tuple[str, ...] = (
        "samples_per_optimizer_step",
        "optimizer_steps_per_step",
        "micro_batch_per_device",
        "grad_accum_steps",
    )


_VERL_MICRO = (
    "ppo_micro_batch_size_per_gpu = ppo_micro_batch_size",
    "log_prob_micro_batch_size_per_gpu = log_prob_micro_batch_size",
    "forward_micro_batch_size_per_gpu = forward_micro_batch_size",
    "ppo_micro_batch_size //= get_world_size() // ulysses_sequence_parallel_size",
    "forward_micro_batch_size //= get_world_size() // ulysses_sequence_parallel_size",
    "ppo_mini_batch_size //= get_world_size() // ulysses_sequence_parallel_size",
    "gradient_accumulation = ppo_mini_batch_size // ppo_micro_batch_size_per_gpu",
    # the Megatron workers divide by the data-parallel group's size
    "ppo_mini_batch_size //= get_data_parallel_world_size()",
    "ppo_micro_batch_size //= get_data_parallel_world_size()",
    "log_prob_micro_batch_size //= get_data_parallel_world_size()",
)
# 0.2 divides by the device mesh's shape[0], 0.3 on by its size(); the critic multiplies by rollout_n from 0.4
_VERL_SHAPE0 = (
    "ppo_mini_batch_size *= n",
    "ppo_mini_batch_size //= shape[0] // ulysses_sequence_parallel_size",
    "ppo_micro_batch_size //= shape[0] // ulysses_sequence_parallel_size",
    "log_prob_micro_batch_size //= shape[0] // ulysses_sequence_parallel_size",
)
_VERL_SIZE = (
    "ppo_mini_batch_size *= n",
    "ppo_mini_batch_size //= size() // ulysses_sequence_parallel_size",
    "ppo_micro_batch_size //= size() // ulysses_sequence_parallel_size",
    "log_prob_micro_batch_size //= size() // ulysses_sequence_parallel_size",
)

# Worked out on the wheels 0.6.0, 0.6.1, 0.7.0 and 0.7.1 (every signature of the verl package outside tests; the
# 0.4.1 set above is that of the 0.4.1 wheel, and 0.5.0's equals it)
_VERL_ROLES = (
    "ppo_mini_batch_size = ppo_mini_batch_size * rollout_n",
    "ppo_mini_batch_size_per_dp = ppo_mini_batch_size // get_data_parallel_size()",
)
_VERL_ENGINE = (
    "ppo_mini_batch_size = ppo_mini_batch_size",
    "ppo_mini_batch_size = ppo_mini_batch_size * n",
    "ppo_micro_batch_size = pop()",
    "ppo_micro_batch_size_per_gpu = pop()",
    "ppo_max_token_len_per_gpu = pop()",
    "micro_batch_size_per_gpu = ppo_micro_batch_size_per_gpu",
    "max_token_len_per_gpu = ppo_max_token_len_per_gpu",
    "infer_micro_batch_size_per_gpu = ppo_micro_batch_size_per_gpu",
    "infer_micro_batch_size_per_gpu = log_prob_micro_batch_size_per_gpu",
    "infer_max_token_len_per_gpu = ppo_max_token_len_per_gpu",
    "infer_max_token_len_per_gpu = log_prob_max_token_len_per_gpu",
)

_EASYR1_ACCUM = "gradient_accumulation = global_batch_size_per_device // micro_batch_size_per_device_for_update"

UPSTREAM_WORKER: dict[str, WorkerSizes] = {
    "verl": WorkerSizes(
        ("ppo_mini_batch_size", "gradient_accumulation"),
        {
            # 0.1's wheel has no workers package: nothing to compare with
            "0.1": None,
            "0.2.0.post2": frozenset((*_VERL_MICRO, *_VERL_SHAPE0)),
            "0.3.0": frozenset((*_VERL_MICRO, *_VERL_SIZE)),
            "0.4.1": frozenset((*_VERL_MICRO, *_VERL_SIZE, "ppo_mini_batch_size *= rollout_n")),
            # 0.6.0 adds the new-style roles (verl/workers/roles/actor.py, critic.py)
            "0.6.0": frozenset((*_VERL_MICRO, *_VERL_SIZE, "ppo_mini_batch_size *= rollout_n", *_VERL_ROLES)),
            # 0.7.0 sizes the engine workers' mini-batch in the trainer (ray_trainer.py _update_actor/_update_critic:
            # ppo_mini_batch_size × rollout.n) and copies the micro-batch and token settings in engine_workers.py
            "0.7.0": frozenset(
                (*_VERL_MICRO, *_VERL_SIZE, "ppo_mini_batch_size *= rollout_n", *_VERL_ROLES, *_VERL_ENGINE)
            ),
            "0.8.0": None,
        },
    ),
    "easyr1": WorkerSizes(
        ("global_batch_size_per_device", "gradient_accumulation"),
        {
            "0.2.0.dev20250223": frozenset(
                (
                    "global_batch_size *= n",
                    _EASYR1_ACCUM,
                    ("global_batch_size_per_device = global_batch_size // shape[0] * ulysses_sequence_parallel_size"),
                )
            ),
            "0.2.0.dev20250316": frozenset(
                (
                    "global_batch_size *= n",
                    _EASYR1_ACCUM,
                    ("global_batch_size_per_device = global_batch_size // size() * ulysses_sequence_parallel_size"),
                )
            ),
            "0.3.1": frozenset(
                (
                    "global_batch_size *= n",
                    _EASYR1_ACCUM,
                    "global_batch_size_per_device = global_batch_size * ulysses_size // size()",
                )
            ),
            # from 0.3.2 the accumulation count is no longer an assignment of the actor's update
            "0.3.2": frozenset(
                (
                    "global_batch_size *= n",
                    "global_batch_size_per_device = global_batch_size // (world_size // ulysses_size)",
                )
            ),
        },
    ),
    # OpenRLHF: train_batch_size counts samples per optimizer step (global), micro_train_batch_size per GPU; the
    # DeepSpeed strategy's accumulation is their quotient over the world size (× ring attention and, from 0.7.5,
    # DeepSpeed tensor-parallel sizes). Worked out on the wheels 0.4.0.post2, 0.4.1, 0.4.2.post1, 0.4.3–0.4.6, 0.5.0,
    # 0.5.9, 0.6.4, 0.7.0, 0.7.3, 0.7.5, 0.10.1 and 0.11.2 (the training-only trainers, sft/dpo/kto/kd/rm/prm, and
    # cli/ left out); 0.5.1–0.5.8 are not modelled. 0.4.3 added the ring-attention factor (read with getattr: no
    # 0.4.x flag sets it, so it is 1 there).
    "openrlhf": WorkerSizes(
        ("accumulated_gradient", "micro_train_batch_size", "train_batch_size"),
        {
            "0.1": None,
            "0.4.0": frozenset(
                (
                    "accumulated_gradient = train_batch_size // micro_train_batch_size // world_size",
                    "micro_rollout_batch_size = micro_rollout_batch_size",
                    "micro_train_batch_size = micro_train_batch_size",
                    "train_batch_size *= 2",
                    "train_batch_size = train_batch_size",
                    "train_micro_batch_size_per_gpu = micro_train_batch_size",
                    "grad_accum_dtype = getattr()",
                )
            ),
            "0.4.3": frozenset(
                (
                    "accumulated_gradient = train_batch_size // micro_train_batch_size // world_size * ring_attn_size",
                    "micro_rollout_batch_size = micro_rollout_batch_size",
                    "micro_train_batch_size = micro_train_batch_size",
                    "train_batch_size *= 2",
                    "train_batch_size = train_batch_size",
                    "train_batch_size = train_batch_size * ring_attn_size",
                    "train_micro_batch_size_per_gpu = micro_train_batch_size",
                    "grad_accum_dtype = getattr()",
                )
            ),
            "0.5.1": None,
            "0.5.9": frozenset(
                (
                    "accumulated_gradient = train_batch_size * ring_attn_size // micro_train_batch_size // world_size",
                    "micro_rollout_batch_size = micro_rollout_batch_size",
                    "micro_train_batch_size = micro_train_batch_size",
                    "train_batch_size *= 2",
                    "train_batch_size = train_batch_size",
                    "train_batch_size = train_batch_size * ring_attn_size",
                    "train_micro_batch_size_per_gpu = micro_train_batch_size",
                    "grad_accum_dtype = getattr()",
                )
            ),
            "0.7.5": frozenset(
                (
                    (
                        "accumulated_gradient = train_batch_size * ring_attn_size * ds_tensor_parallel_size // "
                        "micro_train_batch_size // world_size"
                    ),
                    "micro_train_batch_size = micro_train_batch_size",
                    "train_batch_size = train_batch_size",
                    "train_batch_size = train_batch_size * ring_attn_size * ds_tensor_parallel_size",
                    "train_micro_batch_size_per_gpu = micro_train_batch_size",
                    "gradient_accumulation_steps = 1",
                    "train_micro_batch_size_per_gpu = 1",
                    "grad_accum_dtype = getattr()",
                )
            ),
        },
    ),
}
