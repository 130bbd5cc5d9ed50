"""Fork keys and fork trainers that form batches (translator/dialects/forkbatch.py) and their certainty."""
from __future__ import annotations

import ast
from pathlib import Path

from translator import api
from translator.certainty import plan_certainty
from translator.sources.code import batch_touches

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "verl" / "fork_batches" / "scripts"


def _certainty(name: str) -> dict[str, str]:
    explanation = api.explain(str(FIXTURES / name), "verl@0.4.1")
    return {k: c.level for k, c in plan_certainty(explanation.spec, explanation.notes).items()}


def test_verified_fork_trainer_is_not_assumed() -> None:
    # PlainTrainer.fit only repeats by rollout.n (upstream's statement): framework.fork-verified drops "assumed";
    # prompts_per_step is read from data.train_batch_size, the samples derived.
    levels = _certainty("plain.sh")
    assert levels["prompts_per_step"] == "read"
    assert levels["samples_per_step"] == "derived"


def test_unverified_fork_trainer_is_unknown() -> None:
    # MultiTaskTrainer joins one batch per task: the step's counts are unknown, dp (the GPU arithmetic) stays.
    levels = _certainty("multi_task.sh")
    assert levels["prompts_per_step"] == "unknown"
    assert levels["data_parallel_size"] != "unknown"


def test_batch_key_warning_names_the_line() -> None:
    explanation = api.explain(str(FIXTURES / "batch_key.sh"), "verl@0.4.1")
    note = next(n for n in explanation.notes if n.code == "framework.fork-batch-key")
    # ray_trainer.py line 17 holds `batch = batch.repeat(repeat_times=copies, ...)` under `if copies:`
    assert "verl/trainer/ray_trainer.py:17 repeats rows (repeat)" in note.message


def test_touch_kinds() -> None:
    code = ("batch = batch.repeat(repeat_times=k)\nbatch = batch[mask]\nx = 'a,b'.split(',')\n"
            "cfg.mini_batch_size *= 2\nout = DataProto.concat(parts)\n")
    kinds = [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")]
    # a string split is not a batch split; the rest are one of each kind
    assert kinds == [(1, "group"), (2, "rows"), (4, "size"), (5, "batches")]
