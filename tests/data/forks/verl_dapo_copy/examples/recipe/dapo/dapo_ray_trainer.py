# Written for rlconf's tests (not runnable): the shape of verl 0.5.0's DAPO loop (recipe/dapo/dapo_ray_trainer.py
# @v0.5.0): generation batches are drawn until group filtering keeps train_batch_size prompts, and the run ends
# when the generation-batch counter reaches total_training_steps.
from verl import DataProto
from verl.trainer.ppo.ray_trainer import RayPPOTrainer


class RayDAPOTrainer(RayPPOTrainer):
    def fit(self):
        self.gen_steps = 0
        batch = None
        for _ in range(self.config.trainer.total_epochs):
            for batch_dict in self.train_dataloader:
                new_batch = DataProto.from_single_dict(batch_dict)
                gen_batch = new_batch.repeat(repeat_times=self.config.actor_rollout_ref.rollout.n, interleave=True)
                is_last_step = self.gen_steps >= self.total_training_steps
                output = self.actor_rollout_wg.generate_sequences(gen_batch)
                new_batch = new_batch.repeat(repeat_times=self.config.actor_rollout_ref.rollout.n, interleave=True)
                new_batch = new_batch.union(output)
                kept = self.kept_trajectories(new_batch)
                new_batch = new_batch[kept]
                batch = new_batch if batch is None else DataProto.concat([batch, new_batch])
                if self.prompts_in(batch) < self.config.data.train_batch_size:
                    self.gen_steps += 1
                    continue
                self.update_actor(batch)
                if is_last_step:
                    return
                batch = None
                self.gen_steps += 1
