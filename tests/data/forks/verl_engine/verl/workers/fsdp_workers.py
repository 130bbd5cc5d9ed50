# The copy's legacy worker: upstream's sizing (mini-batch x rollout.n, then / data-parallel ranks; micro per GPU).


class ActorRolloutRefWorker:
    def __init__(self, config, device_mesh):
        self.config, self.device_mesh = config, device_mesh
        self.ulysses_sequence_parallel_size = 1
        self.config.actor.ppo_mini_batch_size *= self.config.rollout.n
        self.config.actor.ppo_mini_batch_size //= self.device_mesh.size() // self.ulysses_sequence_parallel_size

    def update_actor(self, batch):
        self.gradient_accumulation = self.config.actor.ppo_mini_batch_size // (
            self.config.actor.ppo_micro_batch_size_per_gpu
        )
        for mini in batch.split(self.config.actor.ppo_mini_batch_size):
            # the loss's loop bound: the size of a batch already formed, no sizing
            batch_size = mini.shape[0]
            for index in range(batch_size):
                self.step(mini[index])
