#!/usr/bin/env bash
# GRPO-style group baseline (group_norm) with one sample per prompt, on the project's own copy of OpenRLHF
# (openrlhf/cli/train_ppo_ray.py, version.txt 0.7.2): 4 GPUs, 64 prompts per step.
python3 -m openrlhf.cli.train_ppo_ray \
   --actor_num_nodes 1 --actor_num_gpus_per_node 4 \
   --vllm_num_engines 4 --vllm_tensor_parallel_size 1 \
   --pretrain Qwen/Qwen2.5-1.5B-Instruct \
   --remote_rm_url http://localhost:5000/get_reward \
   --advantage_estimator group_norm \
   --rollout_batch_size 64 --n_samples_per_prompt 1 --micro_rollout_batch_size 8 \
   --train_batch_size 64 --micro_train_batch_size 4 \
   --max_epochs 1 --num_episodes 1 \
   --prompt_data OpenRLHF/prompt-collection-v0.1 --input_key context_messages
