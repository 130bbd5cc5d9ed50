#!/bin/bash
# The shape of a search-agent run on its own early verl copy (written for rlconf's tests): one GPU of the node is
# left to a retriever, so 7 train; the fork's rollout.n_agent repeats each prompt 5 times.
python3 -m verl.trainer.main_ppo \
    data.train_files=data/train.parquet \
    data.train_batch_size=12 \
    algorithm.adv_estimator=grpo \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-3B \
    actor_rollout_ref.actor.ppo_mini_batch_size=7 \
    actor_rollout_ref.actor.ppo_micro_batch_size=7 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size=7 \
    actor_rollout_ref.ref.log_prob_micro_batch_size=7 \
    actor_rollout_ref.rollout.n_agent=5 \
    trainer.n_gpus_per_node=7 \
    trainer.nnodes=1
