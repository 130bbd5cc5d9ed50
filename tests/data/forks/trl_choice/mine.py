# Written for rlconf's tests (not runnable): TRL 0.14's shape (generation in compute_loss).
from transformers import Trainer


class MyTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        completions = model.generate(**inputs, num_return_sequences=self.num_generations)
        return self._loss(completions)
