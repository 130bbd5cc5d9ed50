#!/bin/bash
# The project's switch `prune` keeps its default (False): the trainer copies num_generations as TRL's does.
accelerate launch --num_processes 2 src/rl/train_grpo.py \
    --output_dir out/rl \
    --per_device_train_batch_size 8 \
    --gradient_accumulation_steps 4 \
    --num_generations 8
