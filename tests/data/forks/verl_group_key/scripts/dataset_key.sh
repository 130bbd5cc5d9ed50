#!/bin/bash
# As trajectories.sh, with the copy's dataset key data.drop_long, which filters the dataset's rows when it is built
# (verl/utils/dataset.py:9): the run's length depends on it, a step's batch does not.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=16 \
    actor_rollout_ref.rollout.n=1 \
    +actor_rollout_ref.rollout.n_trajectories=4 +data.drop_long=True \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node=2 \
    trainer.nnodes=1 \
    +actor_rollout_ref.actor.double_mini=False
