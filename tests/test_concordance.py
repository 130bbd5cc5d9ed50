"""The concordance (translator/concordance.py, translator/frameworks/<fw>/concordance.yaml): every native key of every
shipped schema is in it exactly once; its key → field map agrees with what the readers derive; a key it says has no
canonical field has no key of the same meaning mapped to one in another framework; the notes for dropped keys quote it;
docs/concordance.md is current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import translator
from tests.conftest import CASES, read_back, translatable
from translator import concordance, dialects, native_schemas

ROOT = Path(__file__).resolve().parent.parent
ROLES = ("critic", "ref", "reward", "reward_model", "teacher_models", "distillation", "muon", "inference")


def _keys(framework: str) -> set[str]:
    return {
        key
        for schema in concordance.schema_frameworks(framework)
        for _, _, path in native_schemas.available().get(schema, [])
        for key in native_schemas._load(path).properties
    }


@pytest.mark.parametrize("framework", concordance.names())
def test_every_schema_key_is_in_the_concordance_once(framework: str) -> None:
    c = concordance.load(framework)
    keys = _keys(framework)
    listed = list(c.fields) + [k for g in c.groups for k in g.keys]
    assert len(listed) == len(set(listed)), "a key is listed twice"
    assert set(listed) == keys, (sorted(keys - set(listed))[:10], sorted(set(listed) - keys)[:10])
    assert all(g.kind in ("infrastructure", "none") and g.why and "@" in g.cite for g in c.groups)


VARIANT_OF = {"unsloth": "trl"}


def test_the_field_map_agrees_with_the_readers() -> None:
    # Every (schema key, canonical field) a reader derives, from the fixtures and from the files written for them
    # (read back), must be in the concordance's map: a reader that starts reading a key fails here until it is added.
    missing: set[tuple[str, str, str]] = set()
    checked = 0

    def take(explanation: translator.Explanation) -> None:
        nonlocal checked
        spec = explanation.spec
        # Unsloth's keys are TRL's GRPOConfig arguments, read by TRL's reader: TRL's concordance covers them.
        framework = VARIANT_OF.get(spec.framework, spec.framework)
        if framework not in concordance.names():
            return  # no native schema shipped, so no concordance
        c = concordance.load(framework)
        dialect = dialects.get(spec.framework)
        for name, derivation in spec.derivations.items():
            for key in derivation.keys:
                for spelled in {key, dialect.spelling(key, spec.version)}:
                    if c.covers(spelled):
                        checked += 1
                        if name not in c.fields.get(spelled, ()):
                            missing.add((spec.framework, spelled, name))

    for case in CASES:
        source = translator.load(case.path, **case.load_kwargs())
        take(source)
        if not translatable(case):
            continue
        for target in concordance.names():
            if target == case.framework:
                continue
            try:
                take(translator.load(read_back(translator.translate(source, to=target))))
            except translator.ConfigError:
                continue
    assert checked > 500
    assert not missing, sorted(missing)[:20]


def _role(key: str) -> set[str]:
    return {part for part in key.replace("_", ".").split(".") if part in ROLES} | (
        {"critic"} if key.startswith("critic") else set()
    )


# Reviewed: a `none` key whose last word is that of a mapped key elsewhere, but whose meaning differs.
SAME_WORD_OTHER_MEANING = {
    ("verl", "actor_rollout_ref.rollout.response_length"): "an interpolation of data.max_response_length (mapped)",
    ("verl", "actor_rollout_ref.rollout.seed"): "vLLM's sampling seed; the run's seed is data.seed (mapped)",
    ("verl", "actor_rollout_ref.rollout.val_kwargs.top_k"): "validation top-k: no canonical evaluation.top_k",
    ("verl", "actor_rollout_ref.actor.optim.name"): "the optimiser class, not the rollout engine's name",
    ("verl", "actor_rollout_ref.rollout.agent.custom_async_server.name"): "a server class name",
    ("verl", "actor_rollout_ref.rollout.agent.custom_async_server.path"): "a module path, not a checkpoint path",
    ("verl", "custom_reward_function.name"): "read with the path (reward.function_name comes from reward.*)",
    ("verl", "reward.reward_manager.module.name"): "a reward manager class name",
    ("verl", "reward.reward_manager.module.path"): "a module path, not a checkpoint path",
    ("verl", "reward.reward_manager.name"): "a reward manager class name",
    ("verl", "algorithm.rollout_correction.loss_type"): "the correction's loss form, not the policy loss",
    ("easyr1", "algorithm.kl_target"): "adaptive KL's target (OpenRLHF's kl_target is read only to reject it)",
    ("open-instruct", "max_steps"): "tool-call steps per rollout, not training steps",
    ("nemo-rl", "data.train.seed"): "the seed of the train/validation split; the run's seed is grpo.seed (mapped)",
    ("nemo-rl", "policy.optimizer.name"): "the optimiser class, not the rollout engine's name",
    ("nemo-rl", "policy.scheduler"): "a list of torch scheduler specs stepped per rollout step, not a schedule's name",
    ("nemo-rl", "policy.dtensor_cfg.lora_cfg.enabled"): "switches LoRA on, not the fully async trainer",
    ("nemo-rl", "policy.megatron_cfg.peft.enabled"): "switches PEFT on, not the fully async trainer",
    ("nemo-rl", "policy.draft.enabled"): "switches a draft model on, not the fully async trainer",
    ("nemo-rl", "policy.router_replay.enabled"): "switches MoE router replay on, not the fully async trainer",
    ("nemo-rl", "data.validation.seed"): "the seed of a dataset's train/validation split, as data.train.seed",
    ("nemo-rl", "data.default.seed"): "the seed of a dataset's train/validation split, as data.train.seed",
    ("nemo-rl", "data.validation.dataset_name"): "the validation dataset, not a training source",
    ("nemo-rl", "data.split"): "to 0.5.0 a built-in dataset's split (openmathinstruct2), not ResponseDataset's",
    ("nemo-rl", "data.seed"): "in 0.4.0-0.5.0's DataConfig, unread by the GRPO entry (its seed is grpo.seed)",
    ("nemo-rl", "data.default.dataset_name"): "a name every dataset entry inherits; data.train's own (mapped) wins",
    ("nemo-rl", "data.validation.input_key"): "the validation set's own prompt column (the training one is mapped)",
    ("nemo-rl", "data.validation.prompt_key"): "the validation set's own prompt column (the training one is mapped)",
    ("nemo-rl", "policy.pretrained_checkpoint.path"): "a Megatron copy of the weights of policy.model_name (mapped)",
    ("nemo-rl", "checkpointing.pretrained_checkpoint.path"): "a Megatron copy of the policy's starting weights",
    ("verl", "algorithm.kl_ctrl.type"): "the KL controller's type (fixed | adaptive), not dynamic sampling's",
    ("skyrl", "trainer.policy.model.fake_int4_qat.enabled"): "switches quantisation-aware training on",
    ("skyrl", "trainer.mtp.enabled"): "switches MTP draft heads on",
    (
        "skyrl",
        "trainer.ref.model.path",
    ): "a reference model of its own; verl's actor_rollout_ref.model.path is the policy",
    ("skyrl", "trainer.algorithm.kl_ctrl.kl_target"): "adaptive KL's target (as EasyR1's algorithm.kl_target)",
    ("skyrl", "generator.eval_sampling_params.top_k"): "evaluation top-k: no canonical evaluation.top_k",
}


def test_no_none_key_has_a_mapped_key_of_the_same_meaning_in_another_framework() -> None:
    # Same meaning: the same last word under the same role (a critic's weight decay is not the actor's).
    walked = 0
    for framework in concordance.names():
        for group in concordance.load(framework).groups:
            if group.kind != "none":
                continue
            for key in group.keys:
                leaf = key.rpartition(".")[2]
                for target in concordance.names():
                    if target == framework:
                        continue
                    walked += 1
                    same = [
                        k
                        for k in concordance.load(target).fields
                        if k.rpartition(".")[2] == leaf and _role(k) == _role(key)
                    ]
                    if same and (framework, key) not in SAME_WORD_OTHER_MEANING:
                        pytest.fail(f"{framework} {key} is `none` ({group.name}) but {target} maps {same}")
    assert walked > 1000


def test_a_dropped_native_key_is_noted_with_the_concordances_reason() -> None:
    # verl's actor_rollout_ref.model.lora_rank is in the LoRA group; a verl run with it, written for OpenRLHF,
    # drops it, and the note must say why (the group's reason), not only that it is dropped.
    text = (
        (ROOT / "fixtures/verl/ppo_gae_ulysses_sp2.sh")
        .read_text()
        .replace("trainer.total_epochs=10 $@", "trainer.total_epochs=10 actor_rollout_ref.model.lora_rank=8 $@")
    )
    why = concordance.why_not("verl", "actor_rollout_ref.model.lora_rank")
    assert why is not None and "trains every weight" in why
    notes = translator.translate(translator.load(text, framework="verl"), to="openrlhf").notes
    assert any("actor_rollout_ref.model.lora_rank" in n.source_keys and why in n.message for n in notes)


def test_docs_concordance_is_generated_from_the_data() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/gen_docs.py"), "--check"],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_diff_across_frameworks_lists_unmodelled_keys_with_the_concordances_reason() -> None:
    # A verl run with LoRA (rank 16: a `none` key) and parameter offload (infrastructure) against what rlconf
    # writes for OpenRLHF: the LoRA rank is a difference with its reason; the offload is not one; and translate's
    # own check of the written files (the same comparison) finds it covered by the dropped-keys note.
    text = (
        (ROOT / "fixtures/verl/ppo_gae_ulysses_sp2.sh")
        .read_text()
        .replace(
            "trainer.total_epochs=10 $@",
            "trainer.total_epochs=10 actor_rollout_ref.model.lora_rank=16 "
            "actor_rollout_ref.actor.fsdp_config.param_offload=True $@",
        )
    )
    source = translator.load(text, framework="verl")
    translation = translator.translate(source, to="openrlhf")
    report = translator.diff(source, translator.load(read_back(translation)))
    extras = {d.field: d for d in report.differences if d.field.startswith("extras.")}
    lora = extras["extras.actor_rollout_ref.model.lora_rank"]
    assert (lora.kind, lora.a.value, lora.b.value) == ("removed", 16, None)
    assert lora.reason == concordance.why_not("verl", "actor_rollout_ref.model.lora_rank")
    assert "extras.actor_rollout_ref.actor.fsdp_config.param_offload" not in extras
    assert not any(n.code == "translation.changed" and "lora_rank" in n.message for n in translation.notes)


def test_keys_a_reader_knows_to_be_ignored_have_no_field_in_the_concordance() -> None:
    # Open-Instruct's IGNORED_KEYS (grpo_fast parses them and never reads them) must not be mapped to a field.
    import sys

    # the dialect's module, wherever it lives (it imports the table by name)
    ignored = sys.modules[type(dialects.get("open-instruct")).__module__].IGNORED_KEYS
    c = concordance.load("open-instruct")
    assert ignored and all(c.group_of(key) is not None and key not in c.fields for key in ignored)
