"""The run settings outside the batch plan (translator/dialects/settings.py): each is read from the framework's
own key at the release's default, survives a round trip between two frameworks that both have it, and every
note that says a target has no counterpart is true of the target's native schema."""

from __future__ import annotations

import re
from pathlib import Path

import translator
from tests.conftest import CASES, read_back
from translator import dialects
from translator.dialects.settings import FIELDS
from translator.native_schemas import schemas_for

TARGETS = [name for name in dialects.names() if name != "rlconf"]
# The native keys that would hold each field: a "no counterpart" note is false where the target's schema has one.
MEANING = {
    "algorithm.gamma": r"gamma",
    "algorithm.gae_lambda": r"(^|[._])lam(bd|bda)?($|[._])",
    "algorithm.reward_normalization": r"normali[sz]e.*reward|reward.*normali[sz]e|norm_reward|whiten_reward",
    "critic.value_clip": r"value_clip|cliprange_value|clip_value|vf_clip",
    "optimizer.gradient_checkpointing": r"gradient_checkpointing|activation_checkpointing",
    "data.image_key": r"image",
    "data.apply_chat_template": r"apply_chat_template",
    "data.chat_template": r"chat_template",
    "data.filter_overlong_prompts": r"filter_overlong|overlong_prompt",
    "evaluation.temperature": r"(eval|val)\w*[._]temperature",
    "evaluation.top_p": r"(eval|val)\w*[._]top_p",
    "evaluation.samples_per_prompt": r"(eval|val)\w*[._](n|n_samples\w*|num_generations\w*|pass_at_k)$",
    "launch.seed": r"seed",
    "logging.entity": r"entity|wandb[._]org",
}
# Reviewed: keys that match a field's pattern but mean something else.
EXCEPTIONS = {
    ("trl", "algorithm.gae_lambda"): {"vespo_lambda_pos", "vespo_lambda_neg"},  # VESPO loss weights, not GAE's λ
    ("trl", "data.chat_template"): {"chat_template_kwargs"},  # arguments to the template, not a template
    ("openrlhf", "data.chat_template"): {"apply_chat_template", "data.apply_chat_template"},  # a switch only
    ("open-instruct", "data.image_key"): {"oe_eval_beaker_image"},  # a Docker image for evaluation jobs
    ("open-instruct", "logging.entity"): {"hf_entity"},  # the Hugging Face Hub organisation, not W&B's
    ("openrlhf", "data.image_key"): set(),
}


def _no_counterpart_notes(translation: translator.Translation) -> list[tuple[str, str]]:
    found = []
    for note in translation.notes:
        fields = [f for f in note.source_keys if f in FIELDS]
        if fields and note.code.endswith("not-expressible") and "no counterpart" in note.message:
            found.extend((f, note.message) for f in fields)
    return found


def test_every_no_counterpart_note_is_true_of_the_targets_schema() -> None:
    checked = 0
    for case in CASES:
        source = translator.load(case.path, **case.load_kwargs())
        if source.plan["data_parallel_size"] is None:
            continue
        for target in TARGETS:
            if target == case.framework:
                continue
            try:
                translation = translator.translate(source, to=target)
            except translator.ConfigError:
                continue  # a run the target cannot hold at all (tested elsewhere)
            version = translation.version
            schemas = schemas_for(target, version)
            if not schemas:
                continue
            for name, message in _no_counterpart_notes(translation):
                checked += 1
                exempt = EXCEPTIONS.get((target, name), set())
                keys = [k for k in schemas[0].properties if re.search(MEANING[name], k) and k not in exempt]
                assert not keys, f"{case.path.name} → {target} {version}: '{message}' but its schema has {keys}"
    assert checked > 10  # the notes exist (GAE runs to GRPO-only targets, entities, filters)


def _translate(text: str, source: str, target: str) -> translator.Translation:
    return translator.translate(translator.load(text, framework=source), to=target)


ROOT = Path(__file__).resolve().parent.parent
VERL_GAE = ROOT / "fixtures/verl/ppo_gae_ulysses_sp2.sh"
OPENRLHF_PPO = ROOT / "fixtures/openrlhf/ppo_critic_colocated_v0101.sh"


def _verl(*overrides: str) -> str:
    """The verl GAE fixture (validation every 5 steps on data.val_files) with more overrides on its launch line."""
    return VERL_GAE.read_text().replace(
        "trainer.total_epochs=10 $@", "trainer.total_epochs=10 " + " ".join(overrides) + " $@"
    )


def _flags(translation: translator.Translation) -> str:
    return "\n".join(translation.files.values())


def test_verl_defaults_reach_an_openrlhf_release_whose_defaults_differ() -> None:
    # verl's algorithm.lam and critic.cliprange_value default to 1.0 and 0.5 (ppo_trainer.yaml); OpenRLHF 0.5.0's
    # argparse defaults are --lambd 0.95 and --value_clip 0.2: both must be written, not left to the target.
    spec = translator.load(str(VERL_GAE)).spec
    assert (spec.algorithm.gae_lambda, spec.critic.value_clip, spec.algorithm.gamma) == (1.0, 0.5, 1.0)
    written = _flags(translator.translate(str(VERL_GAE), to="openrlhf@0.5.0"))
    assert re.search(r"--lambd 1(\.0)?\b", written) and re.search(r"--value_clip 0\.5\b", written)


def test_gae_settings_and_checkpointing_survive_openrlhf_to_verl_and_back() -> None:
    # The fixture leaves --lambd/--gamma/--value_clip at 0.10.1's defaults 1, 1, 0.5 and sets
    # --gradient_checkpointing and --apply_chat_template; verl holds all of them (apply_chat_template by always
    # applying it), so the way back has the same values. --normalize_reward has no verl key: a note says so.
    source = translator.load(str(OPENRLHF_PPO))
    s = source.spec
    assert (s.algorithm.gae_lambda, s.algorithm.gamma, s.critic.value_clip) == (1, 1, 0.5)
    assert s.optimizer.gradient_checkpointing and s.data.apply_chat_template and s.algorithm.reward_normalization
    there = translator.translate(source, to="verl")
    assert "critic.cliprange_value=0.5" in _flags(there)
    assert "actor_rollout_ref.model.enable_gradient_checkpointing=True" in _flags(there)
    assert any(
        n.code == "algorithm.not-expressible" and "algorithm.reward_normalization" in n.source_keys for n in there.notes
    )
    back = translator.translate(read_back(there), to="openrlhf@0.10.1").spec
    assert (back.algorithm.gae_lambda, back.critic.value_clip) == (1, 0.5)
    assert back.optimizer.gradient_checkpointing is True and back.data.apply_chat_template is True


def test_image_key_is_written_where_the_target_has_one_and_noted_where_not() -> None:
    text = _verl("data.image_key=pixels")
    assert translator.load(text, framework="verl").spec.data.image_key == "pixels"
    assert "--data.image_key pixels" in _flags(_translate(text, "verl", "openrlhf@0.11.2"))
    assert "image_key: pixels" in _flags(_translate(text, "verl", "easyr1"))
    lost = _translate(text, "verl", "trl")
    assert any("data.image_key" in n.source_keys and "text-only" in n.message for n in lost.notes)


def test_evaluation_sampling_follows_do_sample_and_crosses_to_openrlhf() -> None:
    # verl validates greedily unless val_kwargs.do_sample (vllm_rollout: temperature 0, top_p 1); with it, the
    # val_kwargs values hold. OpenRLHF 0.11.2 has --eval.temperature and --eval.n_samples_per_prompt.
    greedy = translator.load(_verl("actor_rollout_ref.rollout.val_kwargs.temperature=0.7"), framework="verl").spec
    assert (greedy.evaluation.temperature, greedy.evaluation.top_p, greedy.evaluation.samples_per_prompt) == (0, 1, 1)
    text = _verl(
        "actor_rollout_ref.rollout.val_kwargs.do_sample=True",
        "actor_rollout_ref.rollout.val_kwargs.temperature=0.7",
        "actor_rollout_ref.rollout.val_kwargs.n=4",
    )
    sampled = translator.load(text, framework="verl").spec.evaluation
    assert (sampled.temperature, sampled.samples_per_prompt) == (0.7, 4)
    written = _flags(_translate(text, "verl", "openrlhf@0.11.2"))
    assert "--eval.temperature 0.7" in written and "--eval.n_samples_per_prompt 4" in written


def test_wandb_entity_and_seed_cross_and_verl_exports_the_entity() -> None:
    text = OPENRLHF_PPO.read_text().replace(
        "--gradient_checkpointing", "--gradient_checkpointing --wandb_org my-team --seed 7"
    )
    spec = translator.load(text, framework="openrlhf").spec
    assert (spec.logging.entity, spec.launch.seed) == ("my-team", 7)
    trl = _translate(text, "openrlhf", "trl")
    assert "seed: 7" in _flags(trl) and "my-team" in _flags(trl)
    verl = _translate(text, "openrlhf", "verl")
    assert "data.seed=7" in _flags(verl)
    assert "export WANDB_ENTITY=my-team" in _flags(verl)  # verl/utils/tracking.py@v0.9.1 reads it
    assert translator.load(read_back(verl)).spec.logging.entity == "my-team"


def test_trl_reads_the_wandb_project_its_launch_script_exports() -> None:
    # The TRL writer exports WANDB_PROJECT for TRL's own script (no wandb_project key there); reading the written
    # files back must see the same project (formerly 'logging.project unset' beside the export).
    there = translator.translate(str(OPENRLHF_PPO), to="trl")
    assert "export WANDB_PROJECT=openrlhf_train_ppo" in _flags(there)
    assert translator.load(read_back(there)).spec.logging.project == "openrlhf_train_ppo"
    assert not any(n.code == "translation.changed" and "logging.project" in n.message for n in there.notes)
    # OpenRLHF's cosine_with_min_lr is TRL's cosine with min_lr_rate: no contradictory note.
    assert not any(n.code == "translation.changed" and "lr_schedule" in n.message for n in there.notes)


def test_accounting_maps_the_newly_modelled_keys() -> None:
    # OpenRLHF's keys by internal (0.11) name: --gradient_checkpointing is verl's enable_gradient_checkpointing;
    # --apply_chat_template is what verl always does (its default); --normalize_reward has no verl key.
    accounts = {a.key: a for a in translator.translate(str(OPENRLHF_PPO), to="verl").accounting()}
    checkpointing = accounts["actor.gradient_checkpointing_enable"]
    assert checkpointing.status == "mapped"
    assert checkpointing.target_keys == ["actor_rollout_ref.model.enable_gradient_checkpointing"]
    assert accounts["data.apply_chat_template"].status == "default"
    assert accounts["reward.normalize_enable"].status == "unsupported"
    assert "reward_normalization" in (accounts["reward.normalize_enable"].reason or "")
