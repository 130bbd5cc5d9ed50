"""No internal errors: a seeded sample of mutated fixtures through explain, check and translate (scripts/mutate.py;
the full run is 10,000 inputs)."""
from __future__ import annotations

import importlib.util
import io
import sys

from tests.conftest import ROOT


def load_mutate():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "scripts" / "mutate.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["mutate"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_mutated_fixtures_give_results_or_config_errors_only() -> None:
    mutate = load_mutate()
    report = io.StringIO()
    summary = mutate.run(300, seed=0, show=3, out=report)
    assert summary.samples == 300
    assert summary.input_errors > 0, "the mutations do reach the readers' checks"
    assert summary.internal_errors == 0, report.getvalue()


def test_every_mutation_changes_text() -> None:
    import random

    mutate = load_mutate()
    text = "trainer.n_gpus_per_node=8 \\\n  data.train_batch_size=256 \\\n  actor.use_kl_loss=True\n"
    for mutation in mutate.MUTATIONS:
        rng = random.Random(3)
        assert any(mutation(text, rng) != text for _ in range(5)), mutation.__name__
