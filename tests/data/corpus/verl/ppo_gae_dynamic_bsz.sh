#!/bin/bash
# PPO with a critic (GAE), dynamic batch sizes and sequence packing, two nodes.
set -euo pipefail

nodes=2
gpus_per_node=8

python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=gae \
  data.train_files="['/data/math/train.parquet']" \
  data.val_files="['/data/math/test.parquet']" \
  data.train_batch_size=1024 \
  data.max_prompt_length=1024 \
  data.max_response_length=2048 \
  actor_rollout_ref.model.path=/models/base-7b \
  actor_rollout_ref.model.use_remove_padding=True \
  actor_rollout_ref.actor.ppo_mini_batch_size=256 \
  actor_rollout_ref.actor.use_dynamic_bsz=True \
  actor_rollout_ref.actor.ppo_max_token_len_per_gpu=12288 \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.n=1 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
  critic.model.path=/models/base-7b \
  critic.ppo_mini_batch_size=256 \
  critic.use_dynamic_bsz=True \
  critic.ppo_max_token_len_per_gpu=24576 \
  critic.optim.lr=1e-5 \
  trainer.nnodes=$nodes \
  trainer.n_gpus_per_node=$gpus_per_node \
  trainer.total_training_steps=500 \
  trainer.save_freq=100 \
  trainer.test_freq=25
