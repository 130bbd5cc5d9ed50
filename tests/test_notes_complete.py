"""translate's notes are complete: every difference `rlconf diff SOURCE OUTPUT` reports has a note."""

from __future__ import annotations

import pytest

import translator
from tests.conftest import CASES, Case, case_id, read_back, translatable
from translator import dialects
from translator.compare import Difference, diff
from translator.notes import Note
from translator.sources.files import Source

TARGETS = [name for name in dialects.names() if name != "rlconf"]
TRANSLATABLE = [c for c in CASES if translatable(c)]


def names_field(
    note: Note, difference: Difference, source: translator.Explanation, written: translator.Explanation
) -> bool:
    """A note covers a difference when it names its canonical field, or a native key the field was read from (in
    the source) or written to (in the output); an extra by its native key."""
    named = set(note.source_keys) | set(note.target_keys)
    if difference.field in named or difference.field in note.message:
        return True
    native = set(difference.a.keys) | set(difference.b.keys)
    for explanation in (source, written):
        derivation = explanation.spec.derivations.get(difference.field)
        if derivation is not None and derivation.origin != "derived":
            native |= set(derivation.keys)
    return bool(native & named)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", TRANSLATABLE, ids=case_id)
def test_every_difference_has_a_note(case: Case, target: str) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    translation = translator.translate(source, to=target)
    # No --from: the written requirements.txt (or the keys) name the release. Unsloth's output is a TRL recipe whose
    # values go into a Python script's GRPOConfig(...): read alone it is TRL, so Unsloth is named.
    named = f"unsloth@{translation.version}" if target == "unsloth" else None
    written = translator.load(read_back(translation), framework=named)
    assert (written.spec.framework, written.version) == (translation.framework, translation.version)
    uncovered = [
        d.to_dict()
        for d in diff(source, written).differences
        if not any(names_field(n, d, source, written) for n in translation.notes)
    ]
    assert not uncovered, uncovered


def test_a_changed_field_is_noted_with_both_values_and_units() -> None:
    # verl's log_prob_micro_batch_size_per_gpu 16 has no TRL key: 16 samples per log-prob micro-batch per rank in the
    # source, unset in TRL, and no writer note names it.
    case = next(c for c in CASES if case_id(c) == "verl/v09_fetch_granularity_sp2")
    translation = translator.translate(case.path, to="trl@1.16.0", **case.load_kwargs())
    messages = [n.message for n in translation.notes if n.code == "translation.changed"]
    assert (
        "generation.logprob_micro_batch_per_device: 16 samples per log-prob micro-batch per rank in the source, "
        "unset in the trl 1.16.0 config"
    ) in messages


def test_run_length_in_another_unit_is_no_difference() -> None:
    # verl's total_training_steps 500 rollout steps × 4 optimizer steps per step = TRL's max_steps 2000: the same run.
    case = next(c for c in CASES if case_id(c) == "verl/v09_fetch_granularity_sp2")
    translation = translator.translate(case.path, to="trl@1.16.0", **case.load_kwargs())
    assert translation.spec.run_length.total_optimizer_steps == 2000
    assert not [n for n in translation.notes if "total_optimizer_steps" in n.message]


RECIPE = "num_generations: 8\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 4\n"


def test_a_renamed_key_is_one_difference() -> None:
    # transformers renamed ModelConfig.torch_dtype to dtype (TRL 1.x recipes say dtype): one difference, not two.
    old = translator.load(
        Source(RECIPE + "torch_dtype: bfloat16\n", "recipe.yaml"), framework="trl@0.18.0", num_processes=8
    )
    new = translator.load(Source(RECIPE + "dtype: bfloat16\n", "recipe.yaml"), framework="trl@1.16.0", num_processes=8)
    extras = [d for d in diff(old, new).differences if d.field.startswith("extras.")]
    assert [d.to_dict() for d in extras] == [
        {
            "field": "extras.torch_dtype",
            "category": "other",
            "kind": "renamed",
            "a": {"value": "bfloat16", "keys": ["torch_dtype"]},
            "b": {"value": "bfloat16", "keys": ["dtype"]},
        }
    ]


def test_difference_kinds() -> None:
    # B changes the group size 8 → 4, sets top_k 50 (A: TRL's default, no top-k, read as -1) and max_steps 100
    # (A sets no step limit: the run is num_train_epochs passes).
    a = translator.load(Source(RECIPE, "recipe.yaml"), framework="trl@1.16.0", num_processes=8)
    b = translator.load(
        Source(
            RECIPE.replace("num_generations: 8", "num_generations: 4") + "top_k: 50\nmax_steps: 100\n", "recipe.yaml"
        ),
        framework="trl@1.16.0",
        num_processes=8,
    )
    kinds = {d.field: d.kind for d in diff(a, b).differences}
    assert (kinds["plan.samples_per_prompt"], kinds["sampling.top_k"], kinds["plan.total_steps"]) == (
        "changed",
        "changed",
        "added",
    )
    assert {d.field: d.kind for d in diff(b, a).differences}["plan.total_steps"] == "removed"


def test_a_key_written_at_its_default_is_no_difference() -> None:
    # Open-Instruct 2026.08.20 runs with inflight_updates on by default (OLMo 3 defaults, 2026.03.20); the script
    # leaves it unset and the written one states it: the same run.
    case = next(c for c in CASES if case_id(c) == "open-instruct/debug_single_gpu_uv")
    source = translator.load(case.path, **case.load_kwargs())
    translation = translator.translate(source, to=f"open-instruct@{source.version}")
    written = translator.load(read_back(translation), framework=f"open-instruct@{source.version}")
    assert "extras.inflight_updates" not in {d.field for d in diff(source, written).differences}
