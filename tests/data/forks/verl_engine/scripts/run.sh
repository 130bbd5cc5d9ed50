#!/bin/bash
# trainer.use_legacy_worker_impl is $IMPL, auto unless the environment says otherwise;
# +actor_rollout_ref.actor.teacher_demo is the copy's own key (read nowhere)
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=16 \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node=2 \
    trainer.nnodes=1 \
    trainer.use_legacy_worker_impl=${IMPL:-auto} \
    +actor_rollout_ref.actor.teacher_demo=False
