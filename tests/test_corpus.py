"""Every real config in the corpus named by RLCONF_CORPUS (verl, trl) explains without error (skipped without it)."""
from __future__ import annotations

import json

import jsonschema
import pytest

import translator
from tests.conftest import CORPUS, ROOT

FILES = sorted(p for fw in ("verl", "trl") for p in (CORPUS / fw).glob("*.y*ml")) if CORPUS.is_dir() else []
SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())


@pytest.mark.skipif(not FILES, reason="no corpus of real configs (set RLCONF_CORPUS)")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_config_explains(path) -> None:
    explanation = translator.explain(path)
    assert explanation.framework == path.parent.name
    assert explanation.plan["data_parallel_size"] or explanation.framework == "trl"
    jsonschema.validate(json.loads(json.dumps(explanation.to_dict(), default=str)), SCHEMA)


@pytest.mark.skipif(not FILES, reason="no corpus of real configs (set RLCONF_CORPUS)")
def test_open_r1_recipe_with_world_size_gives_the_documented_batch() -> None:
    # reference/trl_openr1.md §2.4: config_demo, W=7 (server mode), pdtbs 16, GAS 4, G 16 → 448 completions
    # per round = 28 prompts, one optimizer step per round.
    path = CORPUS / "trl" / "huggingface__open-r1__recipes__DeepSeek-R1-Distill-Qwen-1.5B__grpo__config_demo.yaml"
    plan = translator.explain(path, num_processes=7).plan
    assert (plan["samples_per_step"], plan["prompts_per_step"], plan["optimizer_steps_per_step"]) == (448, 28, 1)
