#!/bin/bash
# As plain.sh with the project's switch on: the trainer halves the group itself.
accelerate launch --num_processes 2 src/rl/train_grpo.py \
    --output_dir out/rl \
    --per_device_train_batch_size 8 \
    --gradient_accumulation_steps 4 \
    --num_generations 8 \
    --prune true
