#!/bin/bash
# Written for rlconf's tests: the script's argument picks the actor's GPUs (4 or 8); any other value exits.
if [ "$1" = small ]; then
  layout="--actor_num_nodes 1 --actor_num_gpus_per_node 4"
elif [ "$1" = large ]; then
  layout="--actor_num_nodes 1 --actor_num_gpus_per_node 8"
else
  echo "usage: $0 small|large"
  exit 1
fi
python3 -m openrlhf.cli.train_ppo_ray \
  $layout \
  --pretrain Qwen/Qwen2.5-1.5B \
  --micro_train_batch_size 4 \
  --train_batch_size 128 \
  --micro_rollout_batch_size 16 \
  --rollout_batch_size 256 \
  --n_samples_per_prompt 4 \
  --advantage_estimator group_norm \
  --prompt_data data/train.jsonl
