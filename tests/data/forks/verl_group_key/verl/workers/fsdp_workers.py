# The copy's actor worker: upstream's sizing (mini-batch x rollout.n, then / data-parallel ranks; micro per GPU),
# plus a fork key that doubles the mini-batch (off in these scripts).


class ActorRolloutRefWorker:
    def __init__(self, config, device_mesh):
        self.config, self.device_mesh = config, device_mesh
        self.ulysses_sequence_parallel_size = 1
        self.config.actor.ppo_mini_batch_size *= self.config.rollout.n
        if self.config.actor.double_mini:
            self.config.actor.ppo_mini_batch_size *= 2
        self.config.actor.ppo_mini_batch_size //= (self.device_mesh.size() // self.ulysses_sequence_parallel_size)
        if self.config.actor.ppo_micro_batch_size is not None:
            self.config.actor.ppo_micro_batch_size_per_gpu = self.config.actor.ppo_micro_batch_size

    def update_actor(self, batch):
        self.gradient_accumulation = self.config.actor.ppo_mini_batch_size // \
            self.config.actor.ppo_micro_batch_size_per_gpu
        for mini in batch.split(self.config.actor.ppo_mini_batch_size):
            self.step(mini)
