#!/usr/bin/env bash
# A project on its OpenRLHF 0.4.3 copy (version.txt); --half_accum, a flag of its own, halves the accumulation (deepspeed.py:12).
python3 -m openrlhf.cli.train_ppo_ray \
   --actor_num_nodes 1 --actor_num_gpus_per_node 2 \
   --ref_num_nodes 1 --ref_num_gpus_per_node 2 --colocate_actor_ref \
   --critic_num_nodes 1 --critic_num_gpus_per_node 2 \
   --vllm_num_engines 1 --vllm_tensor_parallel_size 1 \
   --pretrain Qwen/Qwen2-0.5B-Instruct --remote_rm_url http://localhost:5000/get_reward \
   --micro_train_batch_size 2 --train_batch_size 16 \
   --micro_rollout_batch_size 4 --rollout_batch_size 32 \
   --half_accum True
