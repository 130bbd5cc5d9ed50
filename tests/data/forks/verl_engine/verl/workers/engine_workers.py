# The copy's engine worker: a mini-batch three times upstream's (its own sizing).


class ActorRolloutRefWorker:
    def __init__(self, config):
        self.config = config
        self.config.actor.ppo_mini_batch_size = self.config.actor.ppo_mini_batch_size * self.config.rollout.n * 3
