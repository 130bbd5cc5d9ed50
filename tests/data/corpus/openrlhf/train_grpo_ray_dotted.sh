#!/bin/bash
# OpenRLHF with the dotted flags (0.10.2 on): GRPO (group_norm), every model colocated on one node.
set -x

ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "/openrlhf"}' \
   -- python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 8 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --vllm.gpu_memory_utilization 0.5 \
   --train.colocate_all \
   --actor.model_name_or_path Qwen/Qwen2.5-7B-Instruct \
   --data.prompt_dataset openai/gsm8k \
   --data.input_key question \
   --data.label_key answer \
   --data.apply_chat_template \
   --reward.remote_url /openrlhf/reward_gsm8k.py \
   --rollout.batch_size 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.micro_batch_size 8 \
   --train.batch_size 1024 \
   --train.micro_batch_size 4 \
   --train.max_epochs 1 \
   --train.num_episodes 1 \
   --algo.advantage.estimator group_norm \
   --algo.kl.init_coef 0.001 \
   --algo.kl.use_loss \
   --algo.kl.estimator k3 \
   --data.max_len 3072 \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.adam.lr 5e-7 \
   --ckpt.save_steps 20 \
   --ckpt.output_dir /openrlhf/checkpoint/qwen-7b-grpo \
   --logger.wandb.project corpus_grpo
