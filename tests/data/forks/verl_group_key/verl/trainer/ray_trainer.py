# The copy's trainer: an agent loop generates rollout.n_trajectories samples per prompt, and the prompts are repeated
# by that key where upstream repeats them by rollout.n (validation repeats by val_kwargs.n, as upstream's does).


class RayPPOTrainer:
    def __init__(self, config, worker):
        self.config, self.worker = config, worker

    def _validate(self):
        for test_batch in self.val_loader:
            val_n = self.config.actor_rollout_ref.rollout.val_kwargs.n
            test_batch = test_batch.repeat(repeat_times=val_n, interleave=True)
            self.worker.generate(test_batch)

    def fit(self):
        for batch in self.loader:
            gen_batch_output = self.worker.generate(batch)
            batch = batch.repeat(repeat_times=self.config.actor_rollout_ref.rollout.n_trajectories, interleave=True)
            batch = batch.union(gen_batch_output)
            self.worker.update_actor(batch)
            self._validate()
