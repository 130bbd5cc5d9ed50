"""Unsloth as a variant of TRL (docs/frameworks/unsloth.md): each fixture's framework_check against `check`, the
rewrite of per_device_train_batch_size in `explain` (and its dependence on the process count), the release from
the project's pins, and the notes of `translate`."""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from tests.conftest import CASES, FIXTURES, Case, case_id, findings_of
from translator.sources.files import Source

UNSLOTH = [c for c in CASES if c.framework == "unsloth"]
FIRST_LINE_2026 = (
    "Unsloth: We now expect `per_device_train_batch_size` * `gradient_accumulation_steps` * `world_size` to be a "
    "multiple of `num_generations`."
)


@pytest.mark.parametrize("case", UNSLOTH, ids=case_id)
def test_check_reports_what_unsloth_does(case: Case) -> None:
    expected = case.expected["framework_check"]
    report = translator.check(case.path, **case.load_kwargs())
    rewrite = findings_of(report, "unsloth.batch-rewrite")
    skipped = [s.rule for s in report.skipped]
    if expected["outcome"] == "rewritten":
        assert len(rewrite) == 1 and rewrite[0].severity == "warning"
        assert rewrite[0].message == expected["message"]
        assert not findings_of(report, "trl.num-generations-divisible")  # what runs is valid TRL
    elif expected["outcome"] == "rejected":
        found = findings_of(report, f"unsloth.{expected['check']}")
        assert len(found) == 1 and found[0].severity == "error" and found[0].message == expected["message"]
        assert not rewrite
    elif expected["outcome"] == "accepted":
        assert not report.errors and not rewrite
    else:  # unknown: the rewrite depends on the process count, which is not stated
        assert not rewrite and "unsloth.batch-rewrite" in skipped


@pytest.mark.parametrize("case", [c for c in UNSLOTH if "instead_of" in c.expected["framework_check"]], ids=case_id)
def test_trl_alone_would_stop_where_unsloth_rewrites(case: Case) -> None:
    # The same script read as TRL 1.15.0 (behaves as 1.10.0): TRL's own check, with the message the fixture quotes.
    kwargs = {**case.load_kwargs(), "framework": "trl@1.15.0"}
    report = translator.check(case.path, **kwargs)
    found = findings_of(report, "trl.num-generations-divisible")
    assert len(found) == 1 and found[0].message == case.expected["framework_check"]["instead_of"]


def test_explain_states_the_plan_that_runs_with_a_note() -> None:
    explanation = translator.explain(FIXTURES / "unsloth" / "rewrite_pdtbs6_g8.py", framework="unsloth@2026.10.9")
    notes = [n.message for n in explanation.notes if n.code == "unsloth.plan-rewritten"]
    # 6 written, 8 run: 8 × 1 × 1 = 8 completions per optimizer step instead of 6 × 1 × 1 = 6.
    assert len(notes) == 1
    assert "rewrite_pdtbs6_g8.py:34: Unsloth runs per_device_train_batch_size 8, not the 6 written" in notes[0]
    assert "8 completions per optimizer step instead of 6, micro-batch 8 instead of 6" in notes[0]


@pytest.mark.parametrize(
    "processes,micro,prompts",
    [
        # (GA 1 × W × 4) % 8: W = 2 → 8 % 8 = 0, no rewrite: micro 4, 4 × 2 × 1 / 8 = 1 prompt per step.
        (2, 4, 1),
        # W = 3 → 12 % 8 = 4: rewritten to 8: 8 × 3 × 1 = 24 completions = 3 prompts per step.
        (3, 8, 3),
        # W = 1 → 4 % 8 = 4: rewritten to 8: 8 completions = 1 prompt per step.
        (1, 8, 1),
    ],
)
def test_the_rewrite_depends_on_the_process_count(processes: int, micro: int, prompts: int) -> None:
    path = FIXTURES / "unsloth" / "accelerate_unset_world" / "launch.sh"
    explanation = translator.explain(path, framework="unsloth@2026.10.9", num_processes=processes)
    assert explanation.plan["micro_batch_per_device"] == micro
    assert explanation.plan["prompts_per_step"] == prompts
    assert any(n.code == "unsloth.plan-rewritten" for n in explanation.notes) == (micro != 4)


def test_unknown_process_count_says_what_to_pass() -> None:
    path = FIXTURES / "unsloth" / "accelerate_unset_world" / "launch.sh"
    explanation = translator.explain(path, framework="unsloth@2026.10.9")
    notes = [n.message for n in explanation.notes if n.code == "unsloth.plan-rewritten"]
    assert len(notes) == 1 and "pass --num-processes N" in notes[0]


SCRIPT = (
    "from unsloth import FastLanguageModel\nfrom trl import GRPOConfig\n"
    "args = GRPOConfig(per_device_train_batch_size=2, gradient_accumulation_steps=4, num_generations=8)\n"
)


def test_the_release_comes_from_the_projects_pin(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("unsloth==2025.8.9\ntrl\n")
    (tmp_path / "train.py").write_text(SCRIPT)
    explanation = translator.explain(tmp_path / "train.py")
    # 2025.8.9: 2 % 8 ≠ 0 → 8, although 2 × 1 × 4 = 8 is valid TRL: 8 × 1 × 4 = 32 completions, 4 prompts.
    assert explanation.framework == "unsloth" and explanation.version == "2025.8.9"
    assert explanation.plan["micro_batch_per_device"] == 8 and explanation.plan["prompts_per_step"] == 4


def test_unsloths_own_defaults_replace_trls() -> None:
    # Nothing but the group: Unsloth 2026.10.9's per_device_train_batch_size 4 and gradient_accumulation_steps 2
    # (TRL's: 8 and 1); (2 × 1 × 4) % 8 = 0, no rewrite; 4 × 1 × 2 = 8 completions = 1 prompt of 8; its
    # learning rate 5e-5 and weight decay 0.001.
    text = "import unsloth\nfrom trl import GRPOConfig\nargs = GRPOConfig(num_generations=8)\n"
    explanation = translator.explain(Source(text, "train.py"), framework="unsloth@2026.10.9")
    assert explanation.plan["micro_batch_per_device"] == 4 and explanation.plan["grad_accum_steps"] == 2
    assert explanation.plan["samples_per_optimizer_step"] == 8
    assert explanation.spec.get("optimizer.lr") == 5e-5 and explanation.spec.get("optimizer.weight_decay") == 0.001


def test_translating_an_unsloth_script_writes_the_plan_that_runs() -> None:
    explanation = translator.explain(FIXTURES / "unsloth" / "rewrite_pdtbs6_g8.py", framework="unsloth@2026.10.9")
    translation = translator.translate(explanation, to="verl@0.9.1")
    # The written plan is the one that runs: 8 completions per step (1 prompt × 8), not 6.
    assert translation.spec.plan.samples_per_step == 8
    assert any(n.code == "unsloth.plan-rewritten" for n in explanation.notes)  # the source's note (the CLI shows it)


def test_writing_trl_notes_a_batch_unsloth_would_rewrite() -> None:
    # 2 completions × GA 4 × 1 process = 8 = one group: valid TRL, kept as written; under unsloth 2025.3.19 and
    # 2025.8.9 (rl_replacements.py:309-321@2025.3.19, rl.py:600-608@2025.8.9), 2 % 8 ≠ 0 → 8: 8 × 4 = 32
    # completions per optimizer step instead of 8. 2026.10.9: (4 × 1 × 2) % 8 = 0, no rewrite.
    recipe = Source(
        "per_device_train_batch_size: 2\ngradient_accumulation_steps: 4\nnum_generations: 8\n", "recipe.yaml"
    )
    explanation = translator.load(recipe, framework="trl@1.16.0", num_processes=1)
    translation = translator.translate(explanation, to="trl@1.16.0")
    notes = [n.message for n in translation.notes if n.code == "unsloth.plan-rewritten"]
    assert len(notes) == 1 and "unsloth 2025.3.19, 2025.8.9 would set per_device_train_batch_size 2" in notes[0]
    assert "32 completions per optimizer step instead of 8" in notes[0]


def test_a_trl_pin_beside_unsloth_decides_the_trl_it_runs(tmp_path: Path) -> None:
    # requirements.txt installs unsloth from a commit (no release) and pins trl==0.15.2: only unsloth 2025.3.19
    # (trl <= 0.15.2) and 2025.8.9 (trl >= 0.7.9) install beside it; both rewrite per_device_train_batch_size 1
    # to num_generations 8 (1 % 8 ≠ 0). TRL 0.15.2 generates every micro-step: 8 completions = 1 prompt per
    # micro-step, one optimizer step every GAS 4 (0.25 per generation round), 32 completions per optimizer step.
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text(
        "unsloth @ git+https://github.com/unslothai/unsloth.git@0887650427\ntrl==0.15.2\n"
    )
    (tmp_path / "train.py").write_text(
        "import unsloth\nfrom trl import GRPOConfig\n"
        "args = GRPOConfig(per_device_train_batch_size=1, gradient_accumulation_steps=4, num_generations=8)\n"
    )
    explanation = translator.explain(str(tmp_path / "train.py"))
    plan = explanation.spec.plan
    assert explanation.spec.framework == "unsloth" and explanation.spec.version in ("2025.3.19", "2025.8.9")
    assert (plan.prompts_per_step, plan.samples_per_step, plan.micro_batch_per_device) == (1, 8, 8)
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step) == (32, 0.25)
