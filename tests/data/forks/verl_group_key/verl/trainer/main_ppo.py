# The copy's entry: upstream's module name, the copy's own trainer and workers.
from verl.trainer.ray_trainer import RayPPOTrainer
from verl.utils.dataset import RLHFDataset
from verl.workers.fsdp_workers import ActorRolloutRefWorker


def main(config):
    RayPPOTrainer(config, ActorRolloutRefWorker).fit(RLHFDataset([], config))
