"""The corpus of config shapes in tests/data/corpus (written for these tests; its README says what the shapes are):
every file explains, checks and translates, and the plans below are derived by hand from docs/frameworks/<fw>.md."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import translator
from tests.conftest import ROOT
from tests.test_accounting import TARGETS, assert_accounted
from tests.test_check_trl import changes, only

CORPUS = ROOT / "tests" / "data" / "corpus"
FILES = sorted(p for p in CORPUS.glob("*/*") if p.suffix in (".sh", ".yaml"))
SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())
WORLD = {"trl": 8}  # a TRL recipe states no world size: the accelerate launch gives it


def test_the_corpus_covers_every_framework() -> None:
    assert {p.parent.name for p in FILES} == {"verl", "trl", "easyr1", "openrlhf", "open-instruct"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_config_explains(path: Path) -> None:
    explanation = translator.explain(path, num_processes=WORLD.get(path.parent.name))
    assert explanation.framework == path.parent.name
    assert explanation.plan["data_parallel_size"]
    jsonschema.validate(json.loads(json.dumps(explanation.to_dict(), default=str)), SCHEMA)
    assert not [n for n in explanation.notes if n.code in ("keys.unknown", "keys.unknown-in-version")]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_corpus_key_is_accounted_for(path: Path) -> None:
    source = translator.load(path, num_processes=WORLD.get(path.parent.name))
    for target in TARGETS:
        assert_accounted(translator.translate(source, to=target))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_corpus_finding_comes_with_a_fix(path: Path) -> None:
    report = translator.check(path, num_processes=WORLD.get(path.parent.name))
    assert report.framework == path.parent.name
    for item in report.errors + report.warnings:
        assert item.suggestions, item.rule


PLAN_NAMES = (
    "prompts_per_step",
    "samples_per_step",
    "samples_per_optimizer_step",
    "optimizer_steps_per_step",
    "data_parallel_size",
    "micro_batch_per_device",
    "grad_accum_steps",
    "total_steps",
)


@pytest.mark.parametrize(
    ("name", "world", "expected"),
    [
        # docs/frameworks/verl.md §1, §2.2: 256 prompts × n 4 = 1024 samples; mini 64 prompts × 4 = 256 samples per
        # update → 1024 / 256 = 4 updates; 8 GPUs, no SP → 8 ranks; 256 / 8 = 32 per rank ÷ micro 8 = 4; no step count.
        ("verl/grpo_gsm8k_overrides.sh", None, (256, 1024, 256, 4, 8, 8, 4, None)),
        # verl.md §1: 1024 × n 1 = 1024; mini 256 → 4 updates; 2 nodes × 8 = 16 ranks; dynamic batch sizes → micro and
        # accumulation unknown (a token budget); total_training_steps 500.
        ("verl/ppo_gae_dynamic_bsz.sh", None, (1024, 1024, 256, 4, 16, None, None, 500)),
        # docs/frameworks/easyr1.md §1: 512 × n 5 = 2560; global 128 × 5 = 640 per update → 4 updates; 8 ranks;
        # 640 / 8 = 80 per rank ÷ static micro 4 = 20; no max_steps, dataset size unknown.
        ("easyr1/config.yaml", None, (512, 2560, 640, 4, 8, 4, 20, None)),
        # The launch line overrides the YAML beside it (easyr1.md §6): n 8 → 512 × 8 = 4096; 128 × 8 = 1024 per
        # update → 4 updates; 1024 / 8 = 128 per rank ÷ 4 = 32.
        ("easyr1/run_qwen_math.sh", None, (512, 4096, 1024, 4, 8, 4, 32, None)),
        # docs/frameworks/openrlhf.md §1 item 2, §4: 128 prompts × 8 = 1024 samples; train batch 1024 samples → 1
        # update; 1 × 8 actor GPUs → 8 ranks; GA = 1024 // 4 // 8 = 32.
        ("openrlhf/train_grpo_ray_dotted.sh", None, (128, 1024, 1024, 1, 8, 4, 32, None)),
        # docs/frameworks/open-instruct.md §1.1: 48 × 8 = 384 samples per step, num_mini_batches 1 → one update of 384;
        # 6 learners; packed rows → micro and accumulation unknown; 384000 episodes // 384 = 1000 steps.
        ("open-instruct/grpo_fast_qwen_math.sh", None, (48, 384, 384, 1, 6, None, None, 1000)),
        # docs/frameworks/trl.md §2, §6 (Open-R1 keys → trl 0.18.0): a round = pdtbs 16 × W 7 × spg (= GAS 4) = 448
        # completions = 448 / 16 = 28 prompts, one optimizer step of 16 × 7 × 4 = 448; dataset size unknown.
        ("trl/grpo_math_server.yaml", 7, (28, 448, 448, 1, 7, 16, 4, None)),
    ],
)
def test_corpus_plans(name: str, world: int | None, expected: tuple) -> None:
    plan = translator.explain(CORPUS / name, num_processes=world).plan
    assert tuple(plan[key] for key in PLAN_NAMES) == expected


def test_open_r1_code_recipe_needs_seven_processes() -> None:
    # docs/frameworks/trl.md §4, §6: under the trl 0.18.0 that Open-R1's keys imply, W·pdtbs·GAS must hold whole
    # groups of 14. 7 × 16 × 4 = 448 = 32 × 14 is valid; 8 × 16 × 4 = 512 = 36 × 14 + 8 is not. The nearest fixes
    # keep 14 and run 7 processes, or keep 8 processes with groups of 16 (512 = 32 × 16).
    path = CORPUS / "trl" / "grpo_code_g14.yaml"
    assert translator.explain(path, num_processes=8).version == "0.18.0"
    assert not translator.check(path, num_processes=7).errors
    item = only(translator.check(path, num_processes=8), "trl.num-generations-divisible")
    assert item.message.startswith(
        "The effective train batch size (8 x 16 x 4) must be evenly divisible by the "
        "number of generations per prompt (14)."
    )
    assert {"num_processes": 7} in changes(item) and {"num_generations": 16} in changes(item)
