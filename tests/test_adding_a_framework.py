"""docs/adding-a-framework.md followed end to end: a toy framework (tests/toy/toyrl.py) registered from a test
reads, explains, checks and translates both ways, and no built-in framework's module is touched."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import translator
from translator import checks, dialects
from translator.dialects import sniff

SCRIPT = "#!/usr/bin/env bash\npython -m toyrl.train --prompts 64 --group 8 --update_batch 128 --gpus 4 --micro 2\n"


@pytest.fixture
def toyrl() -> Iterator[None]:
    # The registry's tables are restored after the test, so the toy never leaks into other tests.
    saved = [(t, dict(t)) for t in (dialects._DIALECTS, dialects._ALIASES, dialects._cache, sniff.SCRIPT_PATTERNS,
                                    checks._RULES)]
    dialects.register("toyrl", "tests.toy.toyrl:ToyDialect", aliases=("toy",), script_pattern=r"-m\s+toyrl\.train",
                      rules="tests.toy.toyrl")
    yield
    for table, content in saved:
        table.clear()
        table.update(content)


def test_a_registered_framework_is_detected_explained_checked_and_translated(toyrl: None, tmp_path: Path) -> None:
    source = tmp_path / "run.sh"
    source.write_text(SCRIPT)
    explanation = translator.explain(source)  # detected from its launcher line, no --from
    assert explanation.framework == "toyrl" and explanation.version == "1.1.0"
    # 64 prompts × 8 = 512 samples per step; 128 per update → 4 updates; 128 / 4 GPUs / micro 2 = 16 accumulation
    assert explanation.plan["samples_per_step"] == 512
    assert explanation.plan["optimizer_steps_per_step"] == 4
    assert explanation.plan["grad_accum_steps"] == 16
    assert not translator.check(source).errors
    bad = tmp_path / "bad.sh"
    bad.write_text(SCRIPT.replace("--update_batch 128", "--update_batch 96"))
    assert [f.rule for f in translator.check(bad).errors] == ["toyrl.divisible"]
    # Out to a built-in framework and back: the plan is kept.
    to_verl = translator.translate(source, to="verl")
    assert to_verl.plan["samples_per_optimizer_step"] == 128 and to_verl.plan["samples_per_step"] == 512
    back = translator.translate(translator.load(translator.api.Source(
        to_verl.files["launch.sh"], "launch.sh", None, to_verl.files)), to="toy@1.0.0")
    assert back.framework == "toyrl" and back.version == "1.0.0"
    assert {k: back.plan[k] for k in ("prompts_per_step", "samples_per_prompt", "samples_per_optimizer_step",
                                      "data_parallel_size")} == {"prompts_per_step": 64, "samples_per_prompt": 8,
                                                                 "samples_per_optimizer_step": 128,
                                                                 "data_parallel_size": 4}
    assert "toyrl" in [entry["name"] for entry in dialects.listing()]


def test_the_toy_is_gone_after_its_test() -> None:
    assert "toyrl" not in dialects.names()
