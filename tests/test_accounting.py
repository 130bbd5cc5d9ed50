"""Nothing is lost: every key a config sets is mapped, equal to the target default, carried, or reported."""

from __future__ import annotations

import pytest

import translator
from tests.conftest import CASES, FIXTURES, Case, case_id, translatable
from translator import dialects

STATUSES = {"mapped", "default", "extra", "unsupported"}
TARGETS = [name for name in dialects.names() if name != "rlconf"]


def assert_accounted(translation: translator.Translation) -> None:
    source = translation.source
    entries = translation.to_dict()["accounting"]
    keys = [entry["key"] for entry in entries]
    assert len(keys) == len(set(keys)), "each key falls in exactly one class"
    assert set(keys) == set(source.native.values), "every key the config sets is accounted for"
    for entry in entries:
        assert entry["status"] in STATUSES
        if entry["status"] == "unsupported":
            assert entry["reason"], entry
        if entry["status"] == "extra":
            assert translation.framework == source.framework


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", [c for c in CASES if translatable(c)], ids=case_id)
def test_every_fixture_key_is_accounted_for(case: Case, target: str) -> None:
    assert_accounted(translator.translate(case.path, to=target, **case.load_kwargs()))


def test_same_framework_keeps_native_keys_as_extras() -> None:
    case = next(c for c in CASES if case_id(c) == "verl/grpo_fixed_micro_tp2")
    translation = translator.translate(case.path, to="verl@0.7.1", **case.load_kwargs())
    statuses = {e.key: e.status for e in translation.accounting()}
    assert statuses["trainer.critic_warmup"] == "extra"  # no canonical field: carried verbatim
    assert statuses["trainer.project_name"] == "mapped"  # logging.project
    assert statuses["data.train_batch_size"] == "mapped"
    assert "trainer.critic_warmup=" in translation.files["launch.sh"]
    assert "trainer.project_name=" in translation.files["launch.sh"]


def test_openrlhf_keys_stored_under_scheme_neutral_names_are_mapped() -> None:
    # OpenRLHF 0.8.9 (flat flags) stores --train_batch_size as train.batch_size and --rollout_batch_size as
    # rollout.batch_size; they decide samples per optimizer step (128) and prompts per step (1024), which verl keeps
    # (ppo_mini_batch_size, data.train_batch_size): mapped, never "has no effect".
    translation = translator.translate(
        FIXTURES / "openrlhf" / "ppo_separate_engines_v089.sh",
        to="verl",
        env={"HOME": "/h", "MASTER_ADDR": "x", "WANDB_API_KEY": "k"},
    )
    status = {a.key: a for a in translation.accounting()}
    for key in ("train.batch_size", "rollout.batch_size", "ckpt.save_steps"):
        assert status[key].status == "mapped", (key, status[key])
    assert not any("has no effect" in (a.reason or "") for a in status.values())
