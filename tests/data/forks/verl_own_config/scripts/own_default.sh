#!/bin/bash
# The copy's config packs micro-batches by tokens (use_dynamic_bsz True), which this launch leaves as it is.
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=32 \
    actor_rollout_ref.rollout.n=4 \
    trainer.n_gpus_per_node=4
