#!/bin/bash
# As votes.sh with data.vote_copies=1: the copy's trainer repeats each batch once more by 1 (ray_trainer.py:12),
# which leaves its rows as they are.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=16 \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node=2 \
    trainer.nnodes=1 \
    +data.vote_copies=1 +actor_rollout_ref.actor.double_mini=False
