"""translate: when the plan cannot be kept exactly, the nearest settings of the target that keep it."""

from __future__ import annotations

import json

from click.testing import CliRunner

import translator
from tests.conftest import CASES, case_id, translatable
from translator import api
from translator.cli import main
from translator.sources.files import Source

INITIAL = next(c for c in CASES if case_id(c) == "open-instruct/grpo_fast_initial_2025_03")
EXACT = (
    "prompts_per_step",
    "samples_per_prompt",
    "samples_per_step",
    "samples_per_optimizer_step",
    "optimizer_steps_per_step",
    "epochs_per_step",
)


def test_alternatives_keep_the_plan_exactly() -> None:
    # grpo_fast 2025-03: 6 learners + 10 vLLM GPUs (16), 64 prompts × 16 = 1024 samples per optimizer step, one
    # update per step. 1024 / 6 ranks is no whole number, so the TRL recipe keeps 1008 (63 prompts). Keeping 1024:
    # 8 training processes on 8 of the same 16 GPUs (8 for vLLM) → 128 per rank = per-device 8 × accumulation 16.
    translation = translator.translate(INITIAL.path, to="trl@1.16.0", **INITIAL.load_kwargs())
    assert translation.plan["samples_per_optimizer_step"] == 1008
    assert translation.alternatives
    first = translation.alternatives[0]
    # The written recipe has the vLLM server on a node of its own (6 + 10 GPUs, one node of 6 in the source); with
    # 8 + 8 both fit the 16 GPUs of one node, so the server host is no longer needed.
    # The source evaluates (an eval mixer), and TRL's eval batch over 8 processes must hold whole groups of 16:
    # per-device eval batch 2 (2 × 8 = 16).
    assert first.changes == {
        "gradient_accumulation_steps": 16,
        "steps_per_generation": 16,
        "num_processes": 8,
        "vllm_server_host": None,
        "per_device_eval_batch_size": 2,
    }
    assert first.changes_plan["plan.data_parallel_size"] == [6, 8]
    assert first.changes_plan["topology.rollout_gpus"] == [10, 8]
    assert "--num_processes 8" in first.command
    for alternative in translation.alternatives:  # each, read back as the user would run it, has the source's plan
        main_file = "launch.sh"
        back = translator.load(Source(alternative.files[main_file], main_file, None, alternative.files))
        assert {k: back.plan[k] for k in EXACT} == {k: INITIAL.expected["plan"][k] for k in EXACT}
        assert not translator.check(back).errors


def test_alternatives_in_text_and_json() -> None:
    args = [str(INITIAL.path), "--to", "trl@1.16.0", "--env", "RANDOM=42"]
    out = CliRunner().invoke(main, ["translate", *args]).stdout
    assert "Settings that keep the source's plan exactly:" in out
    assert (
        "  1. gradient_accumulation_steps=16, steps_per_generation=16, per_device_eval_batch_size=2, "
        "vllm_server_host=(remove), num_processes=8"
    ) in out
    document = json.loads(CliRunner().invoke(main, ["translate", *args, "--format", "json"]).stdout)
    alternative = document["alternatives"][0]
    assert set(alternative) == {"changes", "canonical", "keeps", "changes_plan", "command"}
    assert alternative["keeps"]["plan.samples_per_optimizer_step"] == 1024


def test_no_alternatives_when_the_plan_is_kept() -> None:
    case = next(c for c in CASES if case_id(c) == "verl/v09_fetch_granularity_sp2")
    assert translator.translate(case.path, to="trl@1.16.0", **case.load_kwargs()).alternatives == []


def test_the_search_is_bounded(monkeypatch) -> None:
    # A few dozen writes at most, whatever the config.
    from translator import dialects

    dialect = dialects.get("trl")
    calls = {"write": 0}
    original = type(dialect).write

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["write"] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(type(dialect), "write", counting)
    for case in (c for c in CASES if translatable(c)):
        calls["write"] = 0
        translator.translate(case.path, to="trl", **case.load_kwargs())
        assert calls["write"] <= api.MAX_WRITES + 1, case_id(case)
