#!/bin/bash
# trainer.nnodes is in the copy's config (1): Hydra refuses to append it with '+'.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=32 \
    +trainer.nnodes=2
