"""explain's step picture, policy status, run length and provenance; diff across frameworks; frameworks."""

from __future__ import annotations

import json

from click.testing import CliRunner

import translator
from tests.conftest import FIXTURES
from tests.test_roundtrip import PLAN_A, TRL_A, VERL_A
from translator.cli import main
from translator.compare import diff
from translator.sources.files import Source

HYDRA = FIXTURES / "verl" / "grpo_hydra_config.yaml"
OPEN_R1 = FIXTURES / "trl" / "openr1_server_zero2_g14" / "launch.sh"


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout


def test_step_picture_and_off_policy_status() -> None:
    # grpo_hydra_config: 128 prompts × 8 = 1024 samples; mini 32 × 8 = 256 → 4 mini-batches × 2 epochs
    # = 8 updates; 4 ranks → 64 samples per rank per update = 8 micro-batches of 8.
    document = translator.explain(HYDRA).to_dict()
    assert document["step"][0] == "rollout: 128 prompts × 8 samples = 1024 samples"
    assert "4 mini-batches of 256 samples × 2 epochs = 8 optimizer steps" in document["step"][1]
    assert "per rank (4 ranks): 64 samples = 8 micro-batches of 8" in document["step"][2]
    assert document["policy"]["on_policy"] is False


def test_one_update_per_rollout_is_on_policy() -> None:
    # Open-R1 recipe: spg = GAS = 4, μ = 1 → one optimizer step per generation round.
    assert translator.explain(OPEN_R1).to_dict()["policy"]["on_policy"] is True


def test_run_length_stops_at_the_first_limit_in_verl() -> None:
    # 7473 prompts // 128 per step = 58 steps per pass; total_epochs 3 → 174 steps, before
    # total_training_steps 300 (verl stops at whichever comes first). 174 × 8 = 1392 optimizer steps.
    run_ = translator.explain(HYDRA, dataset_size=7473).to_dict()["run"]
    assert (run_["steps"], run_["optimizer_steps"], run_["samples"]) == (174, 1392, 174 * 1024)
    assert run_["steps_per_dataset_pass"] == 58


def test_run_length_in_trl_follows_max_steps() -> None:
    # TRL_A: max_steps 800 optimizer steps ÷ 8 per round = 100 rounds; num_train_epochs (default 3) does not
    # stop it: HF Trainer's max_steps overrides the epochs.
    explanation = translator.explain(
        Source(TRL_A, "recipe.yaml"), framework="trl@1.16.0", num_processes=8, dataset_size=640
    )
    run_ = explanation.to_dict()["run"]
    assert (run_["steps"], run_["optimizer_steps"]) == (100, 800)


def test_provenance_of_values() -> None:
    derivations = translator.explain(HYDRA).to_dict()["derivations"]
    assert derivations["sampling.temperature"]["origin"] == "config"
    assert derivations["sampling.temperature"]["keys"] == ["actor_rollout_ref.rollout.temperature"]
    assert derivations["sampling.top_p"]["origin"] == "default"
    assert derivations["plan.samples_per_step"]["origin"] == "derived"


def test_dataset_size_must_be_positive() -> None:
    assert run("explain", HYDRA, "--dataset-size", "0")[0] == 2


def test_same_plan_in_two_frameworks_has_no_batch_difference() -> None:
    verl = translator.load(Source(VERL_A, "run.sh"), framework="verl@0.9.1")
    trl = translator.load(Source(TRL_A, "recipe.yaml"), framework="trl@1.16.0", num_processes=8)
    assert verl.plan == trl.plan == PLAN_A
    report = diff(verl, trl)
    assert not [d for d in report.differences if d.category == "batch"]
    # The algorithms do differ: verl's default KL is off and its loss is verl's token-mean; TRL 1.16's beta 0.
    categories = {d.field: d.category for d in report.differences}
    assert categories.get("optimizer.lr") is None  # both 1e-6 by default


def test_diff_classifies_and_names_both_sides_keys(tmp_path) -> None:
    other = VERL_A.replace("data.train_batch_size=64", "data.train_batch_size=128").replace(
        "trainer.total_training_steps=100", "trainer.total_training_steps=50"
    )
    a = tmp_path / "a.sh"
    b = tmp_path / "b.sh"
    a.write_text(VERL_A)
    b.write_text(other)
    code, out = run("diff", a, b, "--format", "json")
    assert code == 1
    differences = {d["field"]: d for d in json.loads(out)["differences"]}
    # 128 prompts (vs 64) → 1024 samples per step, 16 optimizer steps per step; total_steps is run length.
    assert differences["plan.prompts_per_step"]["category"] == "batch"
    assert differences["plan.prompts_per_step"]["a"] == {"value": 64, "keys": ["data.train_batch_size"]}
    assert differences["plan.prompts_per_step"]["b"]["value"] == 128
    assert differences["plan.optimizer_steps_per_step"]["b"]["value"] == 16
    assert differences["plan.total_steps"]["category"] == "run-length"
    assert run("diff", a, a)[0] == 0


def test_diff_across_frameworks_from_the_cli(tmp_path) -> None:
    verl = tmp_path / "run.sh"
    verl.write_text(VERL_A)
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(TRL_A)
    code, out = run(
        "diff", verl, recipe, "--from", "verl@0.9.1", "--from", "trl@1.16.0", "--num-processes", "8", "--format", "json"
    )
    document = json.loads(out)
    assert document["a"]["framework"] == "verl" and document["b"]["framework"] == "trl"
    assert not [d for d in document["differences"] if d["category"] == "batch"]
    assert code == (1 if document["differences"] else 0)


def test_frameworks_lists_every_dialect() -> None:
    code, out = run("frameworks", "--format", "json")
    assert code == 0
    listing = {entry["name"]: entry for entry in json.loads(out)}
    assert {"verl", "easyr1", "openrlhf", "open-instruct", "trl", "rlconf"} <= set(listing)
    assert "open-r1" in listing["trl"]["aliases"]
    assert listing["trl"]["default_version"] == "1.16.0"
    trl_versions = {v["version"]: v["changes"] for v in listing["trl"]["versions"]}
    assert "completions" in trl_versions["0.15.2"]
    code, text = run("frameworks")
    assert code == 0 and "verl" in text and "0.9.1" in text


def test_every_version_of_every_dialect_says_what_changed() -> None:
    from translator import dialects

    for name in dialects.names():
        if name == "rlconf":
            continue
        dialect = dialects.get(name)
        assert dialect.versions, dialect.name
        for version in dialect.versions:
            text = dialect.changes.get(version, "")
            assert text.strip(), f"{dialect.name} {version} has no change text"


def test_values_that_mean_not_set_are_no_difference() -> None:
    """Ulysses size 1 is no sequence parallelism; equal weights are an unweighted mixture; 'train' is the split
    every loader reads by default: none of them differs from a side that leaves the field unset."""
    from translator.compare import differences
    from translator.plan import RunSpec

    a, b = RunSpec(framework="verl"), RunSpec(framework="trl")
    a.topology.sequence_parallel_size, a.data.train_weights, b.data.train_split = 1, [1.0, 1.0], "train"
    assert differences(a, b) == []
    a.data.train_weights = [0.7, 0.3]
    assert [d.field for d in differences(a, b)] == ["data.train_weights"]
