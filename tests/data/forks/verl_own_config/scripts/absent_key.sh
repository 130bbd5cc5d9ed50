#!/bin/bash
# extra.alpha is in no config this copy composes, and it is written without '+'.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=32 \
    extra.alpha=1
