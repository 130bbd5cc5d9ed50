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


def test_stacked_mutations_of_every_fixture_give_results_or_config_errors_only() -> None:
    """3-6 mutations stacked on one file, each fixture (and its plan file) in turn, three times over (the larger
    run and its figures: scripts/mutate.py -n 2000 --stacked)."""
    mutate = load_mutate()
    pool = len(mutate.fixtures())
    report = io.StringIO()
    summary = mutate.run(3 * pool, seed=1, show=3, out=report, stacked=True, every=True)
    assert summary.samples == 3 * pool
    assert summary.input_errors > 0, "stacked damage does reach the readers' checks"
    assert summary.internal_errors == 0, report.getvalue()


def test_stacking_applies_three_to_six_mutations() -> None:
    import random

    mutate = load_mutate()
    sample = mutate.Sample(
        "x.sh",
        {"x.sh": "trainer.n_gpus_per_node=8\ndata.train_batch_size=256\n"},
        None,
        {"framework": None, "env": {}, "num_processes": None},
    )
    rng = random.Random(5)
    counts = {sum(1 for a in mutate.mutate(sample, rng, stacked=True)[1] if "(" in a) for _ in range(200)}
    assert counts == {3, 4, 5, 6}  # randint(3, 6): each count turns up in 200 draws


def test_every_mutation_changes_text() -> None:
    import random

    mutate = load_mutate()
    text = "trainer.n_gpus_per_node=8 \\\n  data.train_batch_size=256 \\\n  actor.use_kl_loss=True\n"
    for mutation in mutate.MUTATIONS:
        rng = random.Random(3)
        assert any(mutation(text, rng) != text for _ in range(5)), mutation.__name__
