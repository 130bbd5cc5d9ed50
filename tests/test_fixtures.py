"""Every fixture explains to the plan worked out by hand in its .expect.yaml, and the JSON fits the schema."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest

import translator
from tests.conftest import ALL_CASES, CASES, ROOT, Case
from translator.plan import PLAN_FIELDS

SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())


def close(actual: object, expected: object) -> bool:
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) and not isinstance(expected, bool):
        return math.isclose(actual, expected, rel_tol=1e-9)
    return actual == expected


def test_there_are_enough_fixtures() -> None:
    per_framework = {fw: sum(c.framework == fw for c in CASES) for fw in {c.framework for c in CASES}}
    assert per_framework["verl"] >= 8 and per_framework["trl"] >= 6, per_framework
    assert all(count >= 6 for count in per_framework.values()), per_framework


def explained(case: Case) -> translator.Explanation:
    """The fixture explained; one that breaks a check its release runs at start-up on purpose (``stops_at_start``:
    the rule codes, for the check tests) is refused by explain naming the rule, and its plan is the one read."""
    stops = case.expected.get("stops_at_start")
    if not stops:
        return translator.explain(case.path, **case.load_kwargs())
    with pytest.raises(translator.ConfigError) as error:
        translator.explain(case.path, **case.load_kwargs())
    assert any(code in str(error.value) for code in stops), str(error.value)
    return translator.load(case.path, **case.load_kwargs())


def test_fixture_explains_to_its_expected_plan(case: Case) -> None:
    explanation = explained(case)
    plan = explanation.plan
    assert set(case.expected["plan"]) == set(PLAN_FIELDS), "an expectation must state all ten plan names"
    wrong = {k: (plan[k], v) for k, v in case.expected["plan"].items() if not close(plan[k], v)}
    assert not wrong, f"(actual, expected): {wrong}"
    assert explanation.version == str(case.expected["version"])
    for dotted, expected in (case.expected.get("fields") or {}).items():
        assert close(explanation.spec.get(dotted), expected), dotted
    codes = {note.code for note in explanation.notes}
    assert set(case.expected.get("notes") or []) <= codes
    assert not set(case.expected.get("absent_notes") or []) & codes


def test_fixture_json_matches_the_schema(case: Case) -> None:
    document = explained(case).to_dict()
    jsonschema.validate(json.loads(json.dumps(document, default=str)), SCHEMA)


def test_every_fixture_file_is_used() -> None:
    used = {c.path.resolve() for c in ALL_CASES}
    for path in Path(ROOT / "fixtures").glob("*/*"):
        if path.parent.name == "end-to-end":
            continue  # read by tests/test_end_to_end.py, which checks that each is used
        if path.suffix in (".sh", ".yaml") and not path.name.endswith(".expect.yaml"):
            assert path.resolve() in used, f"{path.name} has no .expect.yaml"


@pytest.mark.parametrize("framework", sorted({c.framework for c in CASES}))
def test_fixtures_are_detected_without_from(framework: str) -> None:
    for case in CASES:
        if case.framework == framework:
            kwargs = case.load_kwargs()
            version = (kwargs.pop("framework") or "").partition("@")[2]
            explanation = translator.load(case.path, **kwargs)
            assert explanation.framework == framework
            if not version:
                assert explanation.version == str(case.expected["version"])


# docs/frameworks/verl.md §2.4: the critic mini-batch counted samples up to 0.3 and prompts (× n) from 0.4 (PR #853).
CRITIC_SCRIPT = """python3 -m verl.trainer.main_ppo algorithm.adv_estimator=gae \\
    data.train_batch_size=256 actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=64 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    critic.ppo_micro_batch_size_per_gpu=4 actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 trainer.n_gpus_per_node=8
"""


@pytest.mark.parametrize(
    "version,critic_samples",
    [
        ("0.3.0", 64),  # critic.ppo_mini_batch_size inherits the actor's 64, read as 64 samples
        ("0.4.1", 64 * 4),  # 64 prompts × n 4 = 256 samples, like the actor
    ],
)
def test_critic_mini_batch_units_changed_in_0_4(version: str, critic_samples: int) -> None:
    from translator.sources.files import Source

    explanation = translator.load(Source(CRITIC_SCRIPT, "run.sh"), framework=f"verl@{version}")
    assert explanation.plan["samples_per_optimizer_step"] == 256  # actor: 64 prompts × 4 in every version
    assert explanation.spec.critic.samples_per_optimizer_step == critic_samples
    # Writing it for 0.9.1 keeps the critic's batch: 64 samples = 16 prompts × 4.
    translation = translator.translate(explanation, to="verl@0.9.1")
    assert f"critic.ppo_mini_batch_size={critic_samples // 4} " in translation.files["launch.sh"]
    assert translation.spec.critic.samples_per_optimizer_step == critic_samples


@pytest.mark.parametrize(
    "version,message",
    [
        # open-r1#249: 7 training processes × 1 completion each cannot hold groups of 8 (trl 0.15–0.16).
        (
            "0.16.0",
            "The global train batch size (7 x 1) must be evenly divisible by the number of generations per prompt (8).",
        ),
        # 0.20+: generation_batch_size = 1 × 7 × GAS 1 = 7 completions.
        ("1.16.0", "generation_batch_size (7) must be divisible by num_generations (8)."),
    ],
)
def test_trl_group_divisibility_is_noted_in_the_eras_words(version: str, message: str) -> None:
    from translator.sources.files import Source

    recipe = Source(
        "per_device_train_batch_size: 1\ngradient_accumulation_steps: 1\nnum_generations: 8\n", "recipe.yaml"
    )
    explanation = translator.load(recipe, framework=f"trl@{version}", num_processes=7)
    notes = [n.message for n in explanation.notes if n.code == "batch.indivisible"]
    assert len(notes) == 1 and notes[0].startswith(message) and "[7]" in notes[0]
