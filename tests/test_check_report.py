"""check's report: rules skipped for want of an input, unknown keys of frameworks that refuse them, fixes that
search combinations of knobs and say what they keep."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from tests.conftest import FIXTURES
from translator import dialects
from translator.cli import main
from translator.sources.files import Source

NO_WORLD = FIXTURES / "trl" / "recipe_only_no_world_size.yaml"


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout


def test_a_rule_that_needs_the_world_size_is_skipped_not_passed() -> None:
    # The recipe states no world size; whether W × 8 × spg completions hold whole groups of 8 cannot be told.
    code, out = run("check", NO_WORLD)
    assert code == 0
    assert "skipped: trl.num-generations-divisible needs the world size (pass --num-processes N)" in out
    assert "no rule is broken" not in out
    assert out.splitlines()[0].endswith("1 rule skipped")
    code, out = run("check", NO_WORLD, "--format", "json")
    assert json.loads(out)["skipped"] == [{"rule": "trl.num-generations-divisible", "needs": "the world size",
                                           "hint": "pass --num-processes N"}]
    assert run("check", NO_WORLD, "--strict")[0] == 1


def test_with_the_world_size_nothing_is_skipped() -> None:
    # 8 processes × 8 per device × spg 2 = 128 completions = 16 whole groups of 8: the rule runs and passes.
    report = translator.check(NO_WORLD, num_processes=8)
    assert not report.skipped
    assert "trl.num-generations-divisible" not in {f.rule for f in report.errors}


def test_skipped_only_where_the_rule_applies() -> None:
    # No evaluation: the eval-batch rule does not apply, so it is not "skipped" for want of W either.
    report = translator.check(NO_WORLD)
    assert "trl.eval-batch-divisible" not in {s.rule for s in report.skipped}
    with_eval = Source(NO_WORLD.read_text() + "eval_strategy: steps\n", "recipe.yaml")
    assert "trl.eval-batch-divisible" in {s.rule for s in translator.check(with_eval).skipped}


EASYR1 = FIXTURES / "easyr1" / "head_rpp_kl_reward_static.yaml"


@pytest.fixture
def easyr1_rejects(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(dialects.get("easyr1")), "rejects_unknown_keys", True, raising=False)


def test_unknown_key_is_an_error_where_the_framework_refuses_it(easyr1_rejects: None, tmp_path: Path) -> None:
    # EasyR1's structured config (OmegaConf) rejects a key its dataclasses lack: a typo is an error, and the fix is
    # the key it most likely meant.
    text = EASYR1.read_text()
    assert "  temperature:" in text
    typo = tmp_path / "config.yaml"
    typo.write_text(text.replace("  temperature:", "  temperatur:", 1))
    report = translator.check(typo, framework="easyr1")
    errors = [f for f in report.errors if f.rule == "easyr1.unknown-key"]
    assert len(errors) == 1 and errors[0].keys == ["worker.rollout.temperatur"]
    fix = errors[0].suggestions[0].changes
    assert fix == {"worker.rollout.temperatur": None, "worker.rollout.temperature": errors[0].values[
        "worker.rollout.temperatur"]}
    code, out = run("check", typo, "--from", "easyr1")
    assert code == 1
    assert "fix: worker.rollout.temperatur=(remove), worker.rollout.temperature=" in out


def test_unknown_key_stays_a_note_where_the_framework_ignores_it(tmp_path: Path) -> None:
    typo = tmp_path / "config.yaml"
    typo.write_text(EASYR1.read_text().replace("  temperature:", "  temperatur:", 1))
    if getattr(dialects.get("easyr1"), "rejects_unknown_keys", False):
        pytest.skip("the EasyR1 dialect says it rejects unknown keys")
    assert not [f for f in translator.check(typo, framework="easyr1").errors if f.rule == "easyr1.unknown-key"]
