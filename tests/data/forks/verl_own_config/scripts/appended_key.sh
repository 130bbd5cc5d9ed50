#!/bin/bash
# As absent_key.sh, with '+': Hydra adds the key.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=32 \
    +extra.alpha=1
