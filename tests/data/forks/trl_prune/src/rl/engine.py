# Written for rlconf's tests (not runnable): TRL 0.15's shape; with its own `prune` switch on, the trainer keeps
# half of each group (self.num_generations halved), which no TRL release does.
from transformers import Trainer
from trl.trainer.grpo_trainer import RepeatRandomSampler


class PruneTrainer(Trainer):
    def __init__(self, model, args):
        if args.prune:
            self.num_generations = int(args.num_generations * 0.5)
        else:
            self.num_generations = args.num_generations
        super().__init__(model=model, args=args)

    def _get_train_sampler(self):
        return RepeatRandomSampler(self.train_dataset, self.num_generations)

    def _prepare_inputs(self, inputs):
        return self._generate_and_score_completions(inputs)
