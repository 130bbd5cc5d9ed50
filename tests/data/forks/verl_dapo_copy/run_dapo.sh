#!/bin/bash
# Written for rlconf's tests: runs the project's copy of the DAPO recipe from examples/ (on PYTHONPATH), with group
# filtering on or off (FILTER).
PROJECT_DIR="$(cd "$(dirname "$0")" && pwd)"
cd "$PROJECT_DIR"
export PYTHONPATH="$PROJECT_DIR/examples${PYTHONPATH:+:$PYTHONPATH}"
python3 -m recipe.dapo.main_dapo \
    data.train_batch_size=16 \
    data.gen_batch_size=32 \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    algorithm.filter_groups.enable=${FILTER:-True} \
    trainer.n_gpus_per_node=4 \
    trainer.nnodes=1 \
    trainer.total_training_steps=100
