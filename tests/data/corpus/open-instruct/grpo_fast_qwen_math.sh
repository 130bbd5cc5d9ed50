#!/bin/bash
# grpo_fast on one 8-GPU node: 6 learners and 2 vLLM engines.
exp_name="qwen_math_grpo_fast_${RANDOM}"

uv run python open_instruct/grpo_fast.py \
    --exp_name $exp_name \
    --beta 0.0 \
    --num_samples_per_prompt_rollout 8 \
    --num_unique_prompts_rollout 48 \
    --num_mini_batches 1 \
    --num_epochs 1 \
    --learning_rate 1e-6 \
    --per_device_train_batch_size 1 \
    --output_dir /output \
    --kl_estimator 2 \
    --dataset_mixer_list ai2-adapt-dev/math_ground_truth 1.0 \
    --dataset_mixer_list_splits train \
    --max_prompt_token_length 512 \
    --response_length 2048 \
    --pack_length 4096 \
    --model_name_or_path Qwen/Qwen2.5-7B \
    --apply_verifiable_reward true \
    --temperature 1.0 \
    --total_episodes 384000 \
    --deepspeed_stage 2 \
    --num_learners_per_node 6 \
    --vllm_num_engines 2 \
    --vllm_tensor_parallel_size 1 \
    --lr_scheduler_type constant \
    --seed 1 \
    --save_freq 100 \
    --gradient_checkpointing \
    --with_tracking
