#!/bin/bash
# trainer.rollout_data_dir is null in the copy's config: Hydra appends over a null.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=32 \
    +trainer.rollout_data_dir=/tmp/rollouts
