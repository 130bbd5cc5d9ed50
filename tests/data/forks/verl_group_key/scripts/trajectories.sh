#!/bin/bash
# The copy's key rollout.n_trajectories stands for rollout.n in the trainer's repeat of the prompts; rollout.n stays 1,
# and the copy's workers size mini-batches from it as upstream's do.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=16 \
    actor_rollout_ref.rollout.n=1 \
    +actor_rollout_ref.rollout.n_trajectories=4 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node=2 \
    trainer.nnodes=1 \
    +actor_rollout_ref.actor.double_mini=False
