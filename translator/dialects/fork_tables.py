"""Upstream verl's batch-forming statements in RayPPOTrainer.fit (and the trainer methods it calls through
``self.``, validation excluded), as the short signatures translator/sources/code.py ``batch_touches`` gives them,
per release band (the band holds from its release until the next). Worked out by running batch_touches on each
release's verl/trainer/ppo/ray_trainer.py; a fork trainer whose fit has a signature outside its band's set forms
batches in a way upstream does not (translator/dialects/forkbatch.py)."""
from __future__ import annotations

_CORE = ("len(batch)", "repeat(interleave,repeat_times=n)", "set batch_size =")

UPSTREAM_FIT: dict[str, frozenset[str]] = {
    # 0.1: the rollout repeats each prompt n times itself; fit only unions the generated batch
    "0.1": frozenset(),
    "0.2.0.post2": frozenset(_CORE),
    "0.3.0": frozenset(_CORE),
    "0.4.1": frozenset((*_CORE, "masked_select()", "set n =")),
    "0.5.0": frozenset((*_CORE, "masked_select()", "set n =")),
    "0.6.1": frozenset((*_CORE, "set minibatch_size =", "set n =")),
    "0.7.0": frozenset((*_CORE, "set minibatch_size =", "set n =", "set ppo_mini_batch_size =",
                        "assign_non_tensor(global_batch_size=)")),
}
