# The copy's entry: the legacy workers unless trainer.use_legacy_worker_impl is "disable", as upstream's 0.5-0.7
# main_ppo.py chooses; the engine workers are imported only in that branch.
from verl.trainer.ray_trainer import RayPPOTrainer


def main(config):
    use_legacy_worker_impl = config.trainer.get("use_legacy_worker_impl", "auto")
    if use_legacy_worker_impl == "disable":
        from verl.workers.engine_workers import ActorRolloutRefWorker
    else:
        from verl.workers.fsdp_workers import ActorRolloutRefWorker
    RayPPOTrainer(config, ActorRolloutRefWorker).fit()
