"""NeMo-RL's dialect: detection beside TRL, recipes read without the base file, version-aware base values, its
checks in its own words, and the written files' form. Expected values are worked out from
docs/frameworks/nemo-rl.md (the base recipe examples/configs/grpo_math_1B.yaml of each tag)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import translator
from tests.conftest import ROOT, expect_finding, read_back, write_project
from translator import native_schemas
from translator.sources.files import Source

LAUNCH = """#!/bin/bash
uv run examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml \\
    cluster.gpus_per_node=8 grpo.num_prompts_per_step=16 policy.train_global_batch_size=128
"""


def test_a_run_grpo_launch_is_nemo_rl_not_trl() -> None:
    # TRL's pattern (grpo\\w*\\.py) matches run_grpo.py too; NeMo-RL is asked first.
    explanation = translator.load(Source(LAUNCH, "run.sh"))
    assert explanation.framework == "nemo-rl"
    # 16 prompts × the base's 16 generations = 256 samples; 256 / gbs 128 = 2 optimizer steps; colocated on 8 GPUs,
    # TP 1 → DP 8; the base packs sequences, so no sample micro-batch.
    plan = explanation.plan
    assert (plan["samples_per_step"], plan["optimizer_steps_per_step"], plan["data_parallel_size"]) == (256, 2, 8)
    assert plan["micro_batch_per_device"] is None


RECIPE = """defaults: ../../grpo_math_1B.yaml
policy:
  train_micro_batch_size: 2
  max_total_sequence_length: 1024
cluster:
  gpus_per_node: 4
"""


@pytest.mark.parametrize(
    "version,logprob",
    [
        ("0.5.0", 4),  # policy.logprob_batch_size is a literal 4 up to 0.5.0
        ("0.6.0", 2),  # from 0.6.0 it is ${policy.train_micro_batch_size}, here 2
    ],
)
def test_a_recipe_inherits_its_releases_base_without_the_file(version: str, logprob: int) -> None:
    explanation = translator.load(Source(RECIPE, "recipe.yaml"), framework=f"nemo-rl@{version}")
    spec = explanation.spec
    # base: P 32, n 16, gbs 512, packing on; train_mb_tokens = ${mul:1024, 2} = 2048 tokens per DP rank
    assert (explanation.plan["prompts_per_step"], explanation.plan["samples_per_prompt"]) == (32, 16)
    assert explanation.plan["samples_per_optimizer_step"] == 512
    assert explanation.plan["data_parallel_size"] == 4
    assert spec.token_budget.dynamic_batching is True
    assert spec.token_budget.max_tokens_per_device == 2048
    assert spec.generation.logprob_micro_batch_per_device == logprob


def test_a_parent_that_is_not_the_base_must_be_present() -> None:
    source = Source("defaults: ../my_parent.yaml\ngrpo:\n  num_prompts_per_step: 8\n", "recipe.yaml")
    with pytest.raises(translator.ConfigError, match=r"my_parent\.yaml"):
        translator.load(source, framework="nemo-rl@0.7.0")


def test_a_present_parent_is_merged_under_the_child() -> None:
    # parent sets P 64 and gbs 256; the child overrides gbs to 128 (the child wins): 64 × 16 / 128 = 8 updates
    files = {
        "parent.yaml": "defaults: grpo_math_1B.yaml\ngrpo:\n  num_prompts_per_step: 64\n"
        "policy:\n  train_global_batch_size: 256\n",
    }
    child = "defaults: parent.yaml\npolicy:\n  train_global_batch_size: 128\n"
    explanation = translator.load(Source(child, "child.yaml", None, files), framework="nemo-rl@0.7.0")
    assert explanation.plan["prompts_per_step"] == 64
    assert explanation.plan["optimizer_steps_per_step"] == 8


def test_a_recipe_that_only_inherits_is_told_by_its_defaults_path(tmp_path: Path) -> None:
    # NeMo-RL recipes often set a few keys over a parent: `defaults:` naming a file (Hydra's is a list) tells them.
    # The parent inherits the 0.7.0 base (32 prompts x 16 generations, gbs 512); the child changes the GPUs only.
    (tmp_path / "parent.yaml").write_text("defaults: grpo_math_1B.yaml\ngrpo:\n  val_period: -1\n")
    (tmp_path / "child.yaml").write_text("defaults: ./parent.yaml\ncluster:\n  gpus_per_node: 4\n")
    explanation = translator.load(str(tmp_path / "child.yaml"))
    assert explanation.spec.framework == "nemo-rl"
    assert explanation.plan["samples_per_step"] == 32 * 16
    # val_period -1 turns validation off (grpo.py validates only when val_period > 0): not an error
    assert explanation.spec.evaluation.every_steps == 0


def test_a_null_response_length_is_unknown_not_a_refusal() -> None:
    # a fork's own generation backend may take max_new_tokens null (no limit but the context): the plan does not
    # depend on it (the base's P 32 x n 16 over gbs 512 = 1 update per step), so it is read, with a warning that
    # NeMo-RL's own vLLM backend expects a number
    text = "defaults: grpo_math_1B.yaml\npolicy:\n  generation:\n    backend: vllm\n    max_new_tokens: null\n"
    explanation = translator.load(Source(text, "recipe.yaml"), framework="nemo-rl@0.7.0")
    assert explanation.plan["samples_per_step"] == 32 * 16 and explanation.plan["optimizer_steps_per_step"] == 1
    assert explanation.spec.lengths.max_response_tokens is None
    assert "lengths.max-new-tokens-null" in {n.code for n in explanation.notes}


def _check(text: str, version: str) -> translator.CheckReport:
    return translator.check(translator.load(Source(text, "recipe.yaml"), framework=f"nemo-rl@{version}"))


def test_force_on_policy_needs_one_update_per_step_from_0_5() -> None:
    text = (
        "defaults: ../../grpo_math_1B.yaml\nloss_fn:\n  force_on_policy_ratio: true\n"
        "policy:\n  train_global_batch_size: 256\ncluster:\n  gpus_per_node: 8\n"
    )
    # 32 × 16 = 512 samples per step ≠ gbs 256 (grpo.py:427-436@v0.7.0)
    finding = expect_finding(
        _check(text, "0.7.0"),
        "nemo-rl.force-on-policy",
        "error",
        "force_on_policy_ratio requires train_global_batch_size == num_prompts_per_step * num_generations_per_prompt",
    )
    assert any(s.changes.get("policy.train_global_batch_size") == 512 for s in finding.suggestions)


def test_batch_multiplier_without_dynamic_sampling_is_refused() -> None:
    text = "defaults: ../../grpo_math_1B.yaml\ngrpo:\n  batch_multiplier: 2\ncluster:\n  gpus_per_node: 8\n"
    expect_finding(
        _check(text, "0.7.0"),
        "nemo-rl.batch-multiplier",
        "error",
        "batch_multiplier>1 can only be used if use_dynamic_sampling=True",
    )


def test_non_colocated_generation_on_one_node_needs_its_gpu_count() -> None:
    text = (
        "defaults: ../../grpo_math_1B.yaml\npolicy:\n  generation:\n    colocated:\n      enabled: false\n"
        "cluster:\n  gpus_per_node: 8\n"
    )
    expect_finding(
        _check(text, "0.7.0"),
        "nemo-rl.non-colocated-needs-gpus",
        "error",
        "policy.generation.colocated.resources.gpus_per_node must be explicitly set to a value > 0 when "
        "policy_nodes = 1 and inference is non-colocated, but got None.",
    )


def test_the_shard_check_counts_training_gpus_only() -> None:
    # 8 GPUs, 2 for vLLM → 6 training ranks; gbs 512 % 6 = 2 → batched_data_dict.py:398-401@v0.7.0
    text = (
        "defaults: ../../grpo_math_1B.yaml\npolicy:\n  generation:\n    colocated:\n      enabled: false\n"
        "      resources:\n        gpus_per_node: 2\ncluster:\n  gpus_per_node: 8\n"
    )
    expect_finding(
        _check(text, "0.7.0"), "nemo-rl.gbs-multiple-of-dp", "error", "Batch size (512) is not a multiple of shards (6)"
    )


_REWARD_MODEL = (
    "defaults: ../../grpo_math_1B.yaml\ndata:\n  default:\n    env_name: {env}\nenv:\n  reward_model:\n"
    "    resources:\n      gpus_per_node: 2\n      num_nodes: 1\npolicy:\n  generation:\n    colocated:\n"
    "      enabled: {colocated}\n      resources:\n        gpus_per_node: 2\n        num_nodes: 1\n"
    "cluster:\n  gpus_per_node: 8\n  num_nodes: {nodes}\n"
)


@pytest.mark.parametrize(
    ("env", "colocated", "nodes", "version", "training"),
    [
        # grpo.py:525-664@v0.7.0, from 0.6.0, when the data uses the reward_model environment:
        ("reward_model", "true", 1, "0.7.0", 6),  # one node shared: 8 - its 2 GPUs
        ("reward_model", "false", 1, "0.7.0", 4),  # and generation's 2 on it: 8 - 2 - 2
        ("reward_model", "true", 3, "0.7.0", 16),  # more nodes: it takes 1 of 3 whole, policy 2 × 8
        ("reward_model", "false", 3, "0.6.0", 8),  # and generation 1 of the other 2: 1 × 8
        ("math", "true", 1, "0.7.0", 8),  # the data uses another environment: nothing is taken
    ],
)
def test_a_reward_model_environment_takes_its_gpus_from_the_policy(
    env: str, colocated: str, nodes: int, version: str, training: int
) -> None:
    text = _REWARD_MODEL.format(env=env, colocated=colocated, nodes=nodes)
    explanation = translator.load(Source(text, "recipe.yaml"), framework=f"nemo-rl@{version}")
    assert explanation.spec.topology.training_gpus == training
    assert explanation.plan["data_parallel_size"] == training  # TP, PP and CP 1 in the base recipe


def test_no_gpu_left_beside_the_reward_model_stops_in_nemo_rls_words() -> None:
    text = _REWARD_MODEL.format(env="reward_model", colocated="false", nodes=1).replace(
        "gpus_per_node: 8", "gpus_per_node: 4"
    )
    expect_finding(
        _check(text, "0.7.0"),
        "nemo-rl.no-gpu-left-for-training",
        "error",
        "No enough GPUs for training, train_gpus_per_node:0 = cluster_config['gpus_per_node']:4 - "
        "inference_gpus_per_node:2 - rm_gpus_per_node:2",
    )


def test_the_written_recipe_inherits_the_base_and_states_the_batch() -> None:
    # verl fixture: read, written for NeMo-RL, read back; the written recipe names the base and every batch key.
    source = translator.load(ROOT / "fixtures/verl/grpo_fixed_micro_tp2.sh")
    translation = translator.translate(source, to="nemo-rl@0.7.0")
    config = translation.files["config.yaml"]
    assert "\ndefaults: examples/configs/grpo_math_1B.yaml\n" in config
    data = yaml.safe_load(config)
    plan = source.plan
    assert data["grpo"]["num_prompts_per_step"] == plan["prompts_per_step"]
    assert data["grpo"]["num_generations_per_prompt"] == plan["samples_per_prompt"]
    assert data["policy"]["train_global_batch_size"] == plan["samples_per_optimizer_step"]
    assert "--config config.yaml" in translation.files["launch.sh"]
    back = translator.load(read_back(translation))
    assert back.framework == "nemo-rl" and back.plan["data_parallel_size"] == plan["data_parallel_size"]


def test_an_async_source_is_written_with_generation_on_its_own_gpus() -> None:
    source = translator.load(ROOT / "fixtures/nemo-rl/async_megatron_2node.yaml", framework="nemo-rl@0.6.0")
    translation = translator.translate(source, to="nemo-rl@0.7.0")
    data = yaml.safe_load(translation.files["config.yaml"])
    # 2 nodes × 8: one node of generation, one of training (Megatron TP 2 → DP 4), trajectories up to 2 steps old
    assert data["policy"]["generation"]["colocated"] == {
        "enabled": False,
        "resources": {"num_nodes": 1, "gpus_per_node": 8},
    }
    assert data["cluster"] == {"gpus_per_node": 8, "num_nodes": 2}
    assert data["grpo"]["async_grpo"] == {"enabled": True, "max_trajectory_age_steps": 2}
    assert translation.spec.asynchrony.max_steps_ahead == 2


# Keys the 0.7.0 config TypedDicts declare but the base recipe (examples/configs/grpo_math_1B.yaml@v0.7.0) does not
# set, so the schema knows them only from the TypedDicts:
#   policy.dtensor_cfg.expert_parallel_size: NotRequired[int] (nemo_rl/models/policy/__init__.py:190@v0.7.0, in
#     DTensorConfig, which PolicyConfig.dtensor_cfg names at :509)
#   policy.megatron_cfg.moe_grouped_gemm: NotRequired[bool] (:382, MegatronConfig)
#   policy.dynamic_batching.sequence_length_round: int (:482, DynamicBatchingConfig)
#   policy.generation.mcore_generation_config.expert_model_parallel_size: a megatron_cfg key (:336) set under
#     mcore_generation_config, which the Megatron generation backend merges over megatron_cfg
#     (nemo_rl/models/generation/megatron/megatron_generation.py:106@v0.7.0)
DECLARED_ONLY = """defaults: ../../grpo_math_1B.yaml
policy:
  dtensor_cfg:
    expert_parallel_size: 2
  megatron_cfg:
    moe_grouped_gemm: true
  dynamic_batching:
    sequence_length_round: 64
  generation:
    mcore_generation_config:
      expert_model_parallel_size: 2
"""


def _unknown(text: str) -> list[tuple[list[str], list[str]]]:
    explanation = translator.load(Source(text, "recipe.yaml"), framework="nemo-rl@0.7.0")
    return [(n.source_keys, n.target_keys) for n in explanation.notes if n.code.startswith("keys.unknown")]


def test_keys_the_typeddicts_declare_are_known_though_the_base_does_not_set_them() -> None:
    assert _unknown(DECLARED_ONLY) == []


def test_a_misspelt_declared_key_is_unknown_and_named() -> None:
    # 'paralel' lacks an l: one edit from the declared expert_parallel_size (policy/__init__.py:190@v0.7.0)
    text = "defaults: ../../grpo_math_1B.yaml\npolicy:\n  dtensor_cfg:\n    expert_paralel_size: 2\n"
    assert _unknown(text) == [(["policy.dtensor_cfg.expert_paralel_size"], ["policy.dtensor_cfg.expert_parallel_size"])]


def test_the_schema_types_a_declared_key_and_keeps_the_bases_default() -> None:
    schema = native_schemas.schema_for("nemo-rl", "0.7.0")
    assert schema is not None
    props = schema["properties"]
    # NotRequired[int] (policy/__init__.py:190@v0.7.0): an integer, and no default (the base does not set it)
    assert props["policy.dtensor_cfg.expert_parallel_size"] == {"type": "integer"}
    # dtensor_cfg: DTensorConfig | DTensorConfigDisabled (:509): enabled is Literal[True] (:183) or Literal[False]
    # (:170); the base sets it true (grpo_math_1B.yaml:118@v0.7.0)
    assert props["policy.dtensor_cfg.enabled"] == {"type": "boolean", "enum": [True, False], "default": True}
    # recompute_granularity: NotRequired[Literal["full", "selective"]] (:320); the base sets "full" (yaml:155)
    assert props["policy.megatron_cfg.recompute_granularity"] == {
        "type": "string",
        "enum": ["full", "selective"],
        "default": "full",
    }


@pytest.mark.parametrize(
    "data,template,expected",
    [
        # data.train.input_key (ResponseDatasetConfig, nemo_rl/data/__init__.py:21@v0.7.0) is the prompt column;
        # split (:24) the training split; data.validation.split the validation set's. A template that is not
        # "default" replaces the tokenizer's (nemo_rl/algorithms/utils.py:373-387@v0.7.0).
        (
            {"train": {"input_key": "question", "split": "train"}, "validation": {"split": "test"}},
            "{{ messages }}",
            ("question", "train", "test", "{{ messages }}"),
        ),
        # data.default is what every dataset entry inherits (grpo_math_1B.yaml@v0.7.0 "default settings for all
        # datasets"): its input_key and split count for train and validation; "default" keeps the tokenizer's
        # template, so no template of the run's own.
        ({"default": {"input_key": "problem", "split": "dev"}}, "default", ("problem", "dev", "dev", None)),
    ],
)
def test_the_prompt_column_splits_and_template_are_read(
    data: dict[str, object], template: str, expected: tuple[object, ...]
) -> None:
    recipe = {"defaults": "../../grpo_math_1B.yaml", "data": data, "policy": {"tokenizer": {"chat_template": template}}}
    spec = translator.load(Source(yaml.safe_dump(recipe), "recipe.yaml"), framework="nemo-rl@0.7.0").spec
    assert (spec.data.prompt_key, spec.data.train_split, spec.data.eval_split, spec.data.chat_template) == expected


def test_a_step_not_made_of_whole_dataloader_draws_stops_at_start() -> None:
    # fixtures/nemo-rl/multiple_dataloaders.yaml with 60 prompts per step: 60 % 16 = 12, so grpo.py:348-353@v0.7.0
    # asserts at start-up; without use_multiple_dataloader the draw size is the step's prompts and nothing is checked
    fixture = (ROOT / "fixtures" / "nemo-rl" / "multiple_dataloaders.yaml").read_text()
    text = fixture.replace("num_prompts_per_step: 64", "num_prompts_per_step: 60")
    with pytest.raises(translator.ConfigError, match="but got 60 and 16"):
        translator.explain(Source(text, "recipe.yaml"), framework="nemo-rl@0.7.0")
    # (and 60 × 8 = 480 samples split into whole global batches of 96 on 4 ranks: 480 % 128 would stop the first
    # training call, batched_data_dict.py:395-397@v0.7.0)
    single = text.replace("use_multiple_dataloader: true", "use_multiple_dataloader: false").replace(
        "train_global_batch_size: 128", "train_global_batch_size: 96"
    )
    explanation = translator.explain(Source(single, "recipe.yaml"), framework="nemo-rl@0.7.0")
    # min(300, 2 passes × batches): 300 steps only with 300 × 60 / 2 = 9,000 prompts, assumed (a cap the dataset may
    # pre-empt); 100 prompts give 2 × floor(100 / 60) = 2 steps
    assert explanation.spec.plan.total_steps == 300 and explanation.spec.run_length.step_cap == 300
    assert explanation.certainty["total_steps"].level == "assumed"
    assert "at least 9,000 prompts" in explanation.certainty["total_steps"].why
    with_data = translator.explain(Source(single, "recipe.yaml"), framework="nemo-rl@0.7.0", dataset_size=100)
    assert with_data.to_dict()["run"]["steps"] == 2
    # 60,000 prompts: 2 × 1,000 = 2,000 steps of data, so max_num_steps 300 ends the run
    with_data = translator.explain(Source(single, "recipe.yaml"), framework="nemo-rl@0.7.0", dataset_size=60_000)
    assert with_data.to_dict()["run"]["steps"] == 300
    # verl also stops at whichever limit comes first: both written, it stops where NeMo-RL does, nothing assumed;
    # TRL's max_steps passes over the data again, so its length rests on the dataset holding 9,000 prompts
    assumed = {
        target: [n for n in translator.translate(explanation, to=target).notes if n.code == "plan.assumed"]
        for target in ("verl@0.9.1", "trl@1.16.0")
    }
    assert assumed["verl@0.9.1"] == [] and "plan.total_steps" in assumed["trl@1.16.0"][0].source_keys


def test_a_step_limit_past_any_common_dataset_is_not_the_run_length() -> None:
    # grpo_math_1B.yaml's max_num_steps 1,000,000 over 1 epoch of 64 prompts per step needs 64,000,000 prompts:
    # the dataset ends the run first (grpo.py:818-822@v0.7.0). An unnamed dataset leaves the length unknown; the cap
    # stays the run's limit: with 6,400 prompts the run is floor(6400 / 64) = 100 steps, and a translation writes the
    # same two limits
    data = {"train": {"data_path": "data/train.jsonl"}}
    recipe = {"defaults": "../../grpo_math_1B.yaml", "grpo": {"num_prompts_per_step": 64, "max_num_epochs": 1}}
    source = Source(yaml.safe_dump({**recipe, "data": data}), "recipe.yaml")
    explanation = translator.explain(source, framework="nemo-rl@0.7.0")
    assert explanation.spec.plan.total_steps is None and explanation.spec.run_length.step_cap == 1_000_000
    assert "64,000,000 prompts" in explanation.certainty["total_steps"].why
    assert translator.explain(source, framework="nemo-rl@0.7.0", dataset_size=6400).to_dict()["run"]["steps"] == 100
    written = translator.translate(explanation, to="verl@0.9.1").files["launch.sh"]
    assert "trainer.total_training_steps=1000000" in written and "trainer.total_epochs=1" in written
    # the base's own OpenMathInstruct-2 (train_1M: 1,000,000 rows, less 5% for validation: 950,000) gives
    # floor(950,000 / 64) = 14,843 steps, assumed (the Hub set's size); --dataset-size still decides, and a
    # translation keeps the source's two limits, not the assumed length
    named = translator.explain(Source(yaml.safe_dump(recipe), "recipe.yaml"), framework="nemo-rl@0.7.0")
    assert named.spec.plan.total_steps == 14_843 and named.certainty["total_steps"].level == "assumed"
    assert named.spec.run_length.step_cap == 1_000_000
    sized = translator.explain(
        Source(yaml.safe_dump(recipe), "recipe.yaml"), framework="nemo-rl@0.7.0", dataset_size=6400
    )
    assert sized.to_dict()["run"]["steps"] == 100
    written = translator.translate(named, to="verl@0.9.1").files["launch.sh"]
    assert "trainer.total_training_steps=1000000" in written and "trainer.total_epochs=1" in written
    # async GRPO ignores max_num_epochs (5 here) but its collector passes over the data once: the same one-pass
    # bound, floor(950,000 / 64) = 14,843 steps of the base's OpenMathInstruct-2
    fixture = (ROOT / "fixtures" / "nemo-rl" / "async_megatron_2node.yaml").read_text()
    text = fixture.replace(
        "  num_generations_per_prompt: 8\n", "  num_generations_per_prompt: 8\n  max_num_epochs: 5\n"
    )
    spec = translator.explain(Source(text, "recipe.yaml"), framework="nemo-rl@0.7.0").spec
    assert spec.plan.total_steps == 14_843 and spec.run_length.dataset_passes == 1


def test_a_step_limit_is_weighed_against_a_dataset_loaded_by_name() -> None:
    # NeMo-RL's registry names load whole Hub splits (response_datasets/dapo_math.py, gsm8k.py@v0.7.0).
    # DAPOMath17K: BytedTsinghua-SIA/DAPO-Math-17k train holds 17,917 prompts × 100 = 1,791,700 rows, so
    # max_num_steps 1000 over one pass of 256 prompts (256,000 prompts, more than rlconf assumes of an unnamed
    # dataset) is reached: assumed. gsm8k: openai/gsm8k train holds 7,473 < 100 × 128 = 12,800, so the pass ends
    # the run first (floor(7473 / 128) = 58 steps, drop_last=True, grpo.py:358-363@v0.7.0): not 100.
    def recipe(name: str, steps: int, prompts: int) -> Source:
        data = {
            "defaults": "../../grpo_math_1B.yaml",
            "grpo": {"num_prompts_per_step": prompts, "max_num_steps": steps, "max_num_epochs": 1},
            "data": {"train": {"dataset_name": name}},
        }
        return Source(yaml.safe_dump(data), "recipe.yaml")

    dapo = translator.explain(recipe("DAPOMath17K", 1000, 256), framework="nemo-rl@0.7.0")
    assert dapo.spec.plan.total_steps == 1000 and dapo.certainty["total_steps"].level == "assumed"
    assert "at least 256,000 prompts" in dapo.certainty["total_steps"].why
    assert "1,791,700 prompts" in dapo.certainty["total_steps"].why
    gsm8k = translator.explain(recipe("gsm8k", 100, 128), framework="nemo-rl@0.7.0")
    assert gsm8k.spec.plan.total_steps == 58 and gsm8k.spec.run_length.step_cap == 100
    assert gsm8k.certainty["total_steps"].level == "assumed" and "7,473 prompts" in gsm8k.certainty["total_steps"].why
    with_data = translator.explain(recipe("gsm8k", 100, 128), framework="nemo-rl@0.7.0", dataset_size=7000)
    assert with_data.to_dict()["run"]["steps"] == 54  # floor(7000 / 128): --dataset-size decides


def test_a_named_dataset_counts_only_where_its_entry_keeps_the_split_the_count_holds_for() -> None:
    # OpenMathInstruct-2's 950,000 is train_1M less split_validation_size 0.05 (openmathinstruct2.py:35-61@v0.7.0):
    # another validation share or split is another count (unknown here); entries are concatenated unless
    # use_multiple_dataloader (data/utils.py:190-218@v0.7.0): OpenMathInstruct-2 + DeepScaler's 40,315 train rows =
    # 990,315 prompts, floor(990,315 / 32) = 30,947 steps over one pass
    def recipe(train: object, **data: object) -> Source:
        grpo = {"num_prompts_per_step": 32, "max_num_steps": 1_000_000, "max_num_epochs": 1}
        text = yaml.safe_dump({"defaults": "../../grpo_math_1B.yaml", "grpo": grpo, "data": {"train": train, **data}})
        return Source(text, "recipe.yaml")

    def steps(source: Source) -> int | None:
        return translator.explain(source, framework="nemo-rl@0.7.0").spec.plan.total_steps

    assert steps(recipe({"dataset_name": "OpenMathInstruct-2"})) == 29_687  # floor(950,000 / 32)
    assert steps(recipe({"dataset_name": "OpenMathInstruct-2", "split_validation_size": 0.1})) is None
    assert steps(recipe({"dataset_name": "OpenMathInstruct-2", "split": "train_2M"})) is None
    both = [{"dataset_name": "OpenMathInstruct-2"}, {"dataset_name": "DeepScaler"}]
    assert steps(recipe(both, use_multiple_dataloader=False)) == 30_947
    # a dataloader per dataset: they never end, so max_num_steps is the run (grpo.py:332-346@v0.7.0)
    assert steps(recipe(both, use_multiple_dataloader=True)) == 1_000_000


def test_a_run_length_resting_on_the_dataset_does_not_hide_a_start_up_stop() -> None:
    # TP 4 with train_micro_batch_size 1 ≠ logprob_batch_size 4 stops at start-up (lm_policy.py:178-194@v0.7.0);
    # max_num_steps 20 over one pass of 32 prompts is assumed (640 prompts), but no start-up check reads it
    recipe = {
        "defaults": "../../grpo_math_1B.yaml",
        "grpo": {"max_num_steps": 20},
        "policy": {"train_micro_batch_size": 1, "logprob_batch_size": 4, "dtensor_cfg": {"tensor_parallel_size": 4}},
    }
    with pytest.raises(translator.ConfigError, match="batch-variant accuracy issue with TP>=4"):
        translator.explain(Source(yaml.safe_dump(recipe), "recipe.yaml"), framework="nemo-rl@0.7.0")


def test_a_command_exported_for_ray_sub_is_the_launch() -> None:
    # export COMMAND=… then `sbatch … ray.sub` (the variable reaches the job through the environment, or through
    # --export=ALL,COMMAND=…): ray.sub runs it, so its uv run line is read; 32 prompts × 8 = 256 samples
    launch = (
        'export COMMAND="uv run examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml '
        'grpo.num_prompts_per_step=32 grpo.num_generations_per_prompt=8 policy.train_global_batch_size=128"\n'
        'sbatch --nodes=1 --export=ALL,COMMAND="$COMMAND" ray.sub\n'
    )
    plan = translator.explain(Source(launch, "submit.sh"), framework="nemo-rl@0.7.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.optimizer_steps_per_step) == (32, 256, 2)
    # without ray.sub the variable is only text: no launch
    with pytest.raises(translator.ConfigError, match="no NeMo-RL launch command found"):
        translator.explain(Source(launch.replace("ray.sub", "other.sub"), "submit.sh"), framework="nemo-rl@0.7.0")


def test_a_release_recipe_the_project_lacks_is_the_releases(tmp_path: Path) -> None:
    # --config examples/configs/grpo_math_8B.yaml, run in the release's checkout (not in this project):
    # grpo_math_8B.yaml (the same batch keys at v0.3.1–v0.7.0) sets 64 prompts × 32 generations and a global batch
    # of 512 samples; the launch's 2 nodes × 8 GPUs, colocated, dtensor TP 1: 16 DP ranks; 2048 ÷ 512 = 4 updates
    (tmp_path / ".git").mkdir()
    script = tmp_path / "run.sh"
    script.write_text(
        "cd /opt/nemo-rl\nuv run python examples/run_grpo_math.py --config examples/configs/grpo_math_8B.yaml "
        "cluster.num_nodes=2 cluster.gpus_per_node=8 grpo.max_num_steps=100\n"
    )
    explanation = translator.explain(str(script))
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_optimizer_step) == (64, 32, 512)
    assert (plan.data_parallel_size, plan.optimizer_steps_per_step) == (16, 4)
    assert any(n.code == "input.release-recipe" for n in explanation.notes)


def test_a_config_named_by_the_absolute_path_of_the_folder_the_launch_moved_to_is_the_projects(
    tmp_path: Path,
) -> None:
    # the project is the author's container checkout at /opt/nemo-rl (not on this machine): `cd /opt/nemo-rl` and
    # `--config /opt/nemo-rl/examples/configs/mine.yaml` name the project's own recipe, which inherits the release's
    # grpo_math_1B.yaml and sets 16 prompts × 4 generations and a global batch of 32 samples: 2 updates per step
    (tmp_path / ".git").mkdir()
    (tmp_path / "examples" / "configs").mkdir(parents=True)
    (tmp_path / "examples" / "configs" / "mine.yaml").write_text(
        "defaults: grpo_math_1B.yaml\ngrpo:\n  num_prompts_per_step: 16\n  num_generations_per_prompt: 4\n"
        "policy:\n  train_global_batch_size: 32\n"
    )
    script = tmp_path / "run.sh"
    script.write_text(
        'ROOT=${ROOT:-/opt/nemo-rl}\ncd "$ROOT"\n'
        'uv run examples/run_grpo.py --config "$ROOT/examples/configs/mine.yaml"\n'
    )
    plan = translator.explain(str(script)).spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_optimizer_step) == (16, 4, 32)
    assert plan.optimizer_steps_per_step == 2


def test_a_word_that_is_no_override_stops_the_releases_run_grpo(tmp_path: Path) -> None:
    # examples/run_grpo.py:58,79@v0.7.0: parse_known_args leaves every word but --config to
    # parse_hydra_overrides, whose parser raises OverridesError on '--model' (no key=value)
    (tmp_path / ".git").mkdir()
    script = tmp_path / "run.sh"
    script.write_text("uv run examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml --model m\n")
    with pytest.raises(translator.ConfigError, match=r"'--model' is not a key=value override.*OverridesError"):
        translator.explain(str(script))


def test_a_project_script_named_like_the_entry_that_never_imports_nemo_rl_is_not_read_as_it(tmp_path: Path) -> None:
    # run_grpo.py of the project's own, building another framework's command: not NeMo-RL's entry
    (tmp_path / ".git").mkdir()
    (tmp_path / "run_grpo.py").write_text("import subprocess\n\nsubprocess.run(['python3', '-m', 'other.main'])\n")
    script = tmp_path / "run.sh"
    script.write_text("python run_grpo.py --model m --batch_size 8\n")
    with pytest.raises(translator.ConfigError, match="imports nemo_rl: it is not"):
        translator.explain(str(script), framework="nemo-rl")
    # a project copy of the entry that imports nemo_rl is read, its own words left to its parser (8 prompts × 16
    # generations = 128 samples, one global batch of 128)
    (tmp_path / "run_grpo.py").write_text("from nemo_rl.utils.config import load_config\n")
    script.write_text("python run_grpo.py grpo.num_prompts_per_step=8 policy.train_global_batch_size=128 --my-flag\n")
    explanation = translator.explain(str(script), framework="nemo-rl")
    assert explanation.spec.plan.prompts_per_step == 8
    assert any(n.code == "keys.unrecognised-argument" for n in explanation.notes)


@pytest.mark.parametrize("loop", ["grpo_train", "sft_train"])
def test_a_project_entry_of_another_name_that_imports_grpo_train_is_the_launch(tmp_path: Path, loop: str) -> None:
    # examples/run_rl.py imports grpo_train (here from the project's own algorithms/rloo.py, as run_grpo.py imports
    # it from grpo.py): NeMo-RL's GRPO entry under another name, read: 8 prompts × 16 generations (the base's) = 128
    # samples. One that imports sft_train runs SFT: no GRPO launch.
    (tmp_path / ".git").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "run_rl.py").write_text(
        f"from nemo_rl.algorithms.rloo import MasterConfig, {loop}, setup\n"
    )
    script = tmp_path / "run.sh"
    script.write_text(
        "uv run python examples/run_rl.py grpo.num_prompts_per_step=8 policy.train_global_batch_size=128\n"
    )
    if loop == "sft_train":
        with pytest.raises(translator.ConfigError, match="no NeMo-RL launch command found"):
            translator.explain(str(script), "nemo-rl@0.7.0")
        return
    plan = translator.explain(str(script), "nemo-rl@0.7.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (8, 16, 128)


def test_an_entry_that_only_runs_another_script_of_the_project_is_read_as_that_script(tmp_path: Path) -> None:
    # exp/b/run.py only runs ../a/run.py as __main__ (runpy.run_path on a path built from __file__), through a boot
    # script that runs its first argument: the launch is exp/a/run.py's, NeMo-RL's GRPO entry (it imports
    # grpo_train); read with no --from: 8 prompts × 16 generations (the base recipe's) = 128 samples
    forward = (
        "import runpy\nfrom pathlib import Path\n\nif __name__ == '__main__':\n"
        "    source = Path(__file__).resolve().parent.parent / 'a' / 'run.py'\n"
        "    runpy.run_path(str(source), run_name='__main__')\n"
    )
    boot = (
        "import runpy, sys\nentry = sys.argv[1]\nsys.argv = sys.argv[1:]\nrunpy.run_path(entry, run_name='__main__')\n"
    )
    write_project(
        tmp_path,
        {
            "exp/a/run.py": "from nemo_rl.algorithms.grpo import MasterConfig, grpo_train, setup\n",
            "exp/b/run.py": forward,
            "boot.py": boot,
            "run.sh": "python boot.py exp/b/run.py grpo.num_prompts_per_step=8 policy.train_global_batch_size=128\n",
        },
    )
    explanation = translator.explain(str(tmp_path / "run.sh"))
    plan = explanation.spec.plan
    assert explanation.framework == "nemo-rl"
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (8, 16, 128)
    assert any(n.code == "shell.wrapper-script" and "exp/a/run.py" in n.message for n in explanation.notes)


@pytest.mark.parametrize(
    ("names", "version", "said"),
    [
        (11, "0.7.0", "no release returns 11"),
        (10, "0.7.0", "the releases that return 10 are 0.3.1, 0.4.0, 0.5.0, 0.6.0"),
        (10, "0.6.0", None),
        (13, "0.7.0", None),
    ],
)
def test_a_project_entry_unpacking_another_number_than_setup_returns_stops_at_start_up(
    tmp_path: Path, names: int, version: str, said: str | None
) -> None:
    # grpo.setup() returns 10 values from v0.3.1 to v0.6.0 and 13 at v0.7.0 (its last `return`, grpo.py:784@v0.6.0,
    # :1235@v0.7.0): a project entry unpacking another number stops with ValueError before training. Under a stated
    # release that is a refusal; so is a number no release returns (11), whatever release is installed. Under the
    # assumed newest release (no version given) a number an older release returns (10) is an error note: the user's
    # install may be that release.
    (tmp_path / ".git").mkdir()
    targets = ", ".join(f"v{i}" for i in range(names))
    (tmp_path / "run.py").write_text(
        "from nemo_rl.algorithms.grpo import MasterConfig, grpo_train, setup\n\n"
        f"{targets} = setup(config, tokenizer, train, val)\n"
    )
    script = tmp_path / "run.sh"
    script.write_text("uv run python run.py grpo.num_prompts_per_step=8 policy.train_global_batch_size=128\n")
    if said is None:
        notes = translator.explain(str(script), f"nemo-rl@{version}").notes
        assert [n for n in notes if n.code == "nemo-rl.setup-unpacking"] == []
        return
    with pytest.raises(translator.ConfigError, match=f"unpacks {names} values") as refused:
        translator.explain(str(script), f"nemo-rl@{version}")
    assert refused.value.file == "run.py" and refused.value.line == 3 and said in str(refused.value)
    if names == 11:
        with pytest.raises(translator.ConfigError, match="no release returns 11"):
            translator.explain(str(script), "nemo-rl")
    else:  # 0.7.0 is the newest release: what rlconf assumes when no version is given
        (note,) = [n for n in translator.explain(str(script), "nemo-rl").notes if n.code == "nemo-rl.setup-unpacking"]
        assert note.severity == "error" and f"run.py:3 unpacks {names} values" in note.message and said in note.message


def test_a_word_that_only_mentions_the_entry_is_not_the_launch_and_unknown_words_leave_the_plan_unknown(
    tmp_path: Path,
) -> None:
    # `echo "entry: examples/run_grpo.py"` runs no training: the uv run line is the launch. Its overrides are
    # grpo.num_prompts_per_step=8 and the words $(cat extra.conf) prints, which rlconf does not run: they may
    # override anything, so only what the launch's own override sets stays known (8 prompts per step); the group,
    # read from the base's default, is unknown.
    script = tmp_path / "run.sh"
    script.write_text(
        'echo "entry: examples/run_grpo.py"\nEXTRA="$(cat extra.conf)"\n'
        'uv run python examples/run_grpo.py grpo.num_prompts_per_step=8 "${EXTRA}"\n'
    )
    explanation = translator.explain(str(script), "nemo-rl@0.7.0")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt) == (8, None)
    assert "input.unknown-overrides" in {n.code for n in explanation.notes}


def test_a_branch_dependent_word_whose_ways_set_no_plan_key_is_not_read(tmp_path: Path) -> None:
    # JUDGE and NL are empty, or overrides of env.* keys (which decide no plan quantity), by ifs on unset variables
    # (6 × 3 ways: more than rlconf reads one at a time), handed inside a `bash -c` command: whichever way runs, the
    # plan is the launch's (32 prompts per step, the base's group of 16)
    script = tmp_path / "run.sh"
    script.write_text(
        'JUDGE=""\nif [[ -n "$URL" ]]; then\n  JUDGE="++env.judge.url=$URL"\n  if [[ -n "$MODEL" ]]; then\n'
        '    JUDGE="${JUDGE} env.judge.model=$MODEL"\n  fi\nelif [[ -n "$M2" ]]; then\n  JUDGE="env.judge.model=$M2"\n'
        'fi\nNL=""\nif [[ -n "$NURL" ]]; then\n  NL="++env.nl.url=$NURL"\nelif [[ -n "$NM" ]]; then\n'
        '  NL="env.nl.model=$NM"\nfi\nbash -c "cd /opt/nemo-rl && uv run python examples/run_grpo.py '
        'grpo.num_prompts_per_step=32 ${JUDGE:+${JUDGE}} ${NL:+${NL}}"\n'
    )
    explanation = translator.explain(str(script), "nemo-rl@0.7.0")
    assert (explanation.spec.plan.prompts_per_step, explanation.spec.plan.samples_per_prompt) == (32, 16)
    assert "input.unknown-overrides" not in {n.code for n in explanation.notes}


def test_an_entry_given_as_a_variables_default_is_nemo_rls() -> None:
    # ENTRY="${ENTRY:-examples/run_grpo_sliding_puzzle.py}" (one of NeMo-RL's own GRPO examples) is the program the
    # launch runs: the script is NeMo-RL's, not a TRL script of a similar name
    from translator.dialects.sniff import detect

    text = (
        'export ENTRY="${ENTRY:-examples/run_grpo_sliding_puzzle.py}"\n'
        'uv run python "$ENTRY" --config examples/configs/grpo_sliding_puzzle.yaml grpo.num_prompts_per_step=8\n'
    )
    assert detect(Source(text, "run.sh")).name == "nemo-rl"


def test_a_config_path_the_script_makes_at_run_time_leaves_what_the_overrides_do_not_set_unknown(
    tmp_path: Path,
) -> None:
    # The script writes its config at run time under a dated name ($(date ...) is never run): which file the launch
    # reads is not known, so only what its own override sets (8 prompts per step) is; the group size, the global
    # batch and the rest are unknown, not read from the base recipe, and the launch is not refused as missing a file.
    script = tmp_path / "run.sh"
    script.write_text(
        'config_path="$RUN_ROOT/grpo_$(date +%Y%m%d).yaml"\n'
        'python make_config.py "$config_path"\n'
        'uv run python examples/run_grpo.py --config "$config_path" grpo.num_prompts_per_step=8\n'
    )
    reading = translator.explain(str(script), "nemo-rl@0.7.0")
    plan = reading.spec.plan
    assert plan.prompts_per_step == 8
    assert plan.samples_per_prompt is None and plan.samples_per_optimizer_step is None
    assert any(n.code == "input.config-unknown" and "$(date +%Y%m%d)" in n.message for n in reading.notes)


def test_a_step_limit_whose_steps_per_pass_are_unknown_leaves_the_run_length_unknown(tmp_path: Path) -> None:
    # grpo.max_num_steps=30, but the config (${CFG}) the prompts per step come from is not known: NeMo-RL stops at
    # 30 steps or when its passes over the dataset end (grpo.py: min of the two), so neither is the run's length
    script = tmp_path / "run.sh"
    script.write_text("uv run examples/run_grpo.py --config ${CFG} grpo.max_num_steps=30\n")
    explanation = translator.explain(str(script), "nemo-rl@0.7.0")
    assert explanation.spec.plan.total_steps is None
    assert "whichever comes first" in explanation.certainty["total_steps"].why


_SUITE_ENV = (
    'SCRIPT_DIR=$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd)\n'
    "EXP_NAME=${EXP_NAME:-$(basename $0 .sh)}\n"
    "CONFIG_PATH=$(echo $SCRIPT_DIR/${EXP_NAME}.yaml | sed 's#tests/suite#examples/recipes#')\n"
)


def test_a_wrapper_that_names_its_base_launch_with_sed_runs_it_with_its_own_recipe(tmp_path: Path) -> None:
    # tests/suite/grpo-a-wrap_b.sh sources wrap.env, which cuts the suffix with `sed -E 's/-wrap_(a|b)$//'`:
    # grpo-a; it exports EXP_NAME=grpo-a-wrap_b and runs grpo-a.sh, whose common.env keeps that EXP_NAME, so the
    # config is examples/recipes/grpo-a-wrap_b.yaml. That recipe inherits grpo-a.yaml (16 prompts × 4 generations
    # = 64 samples per step, global batch 32) and halves the global batch: 64 / 16 = 4 updates per step, where the
    # base launch alone makes 64 / 32 = 2.
    root = write_project(
        tmp_path,
        {
            "tests/suite/common.env": _SUITE_ENV,
            "tests/suite/wrap.env": (
                'WRAP_NAME=$(basename "$0" .sh)\nBASE=$(echo "$WRAP_NAME" | sed -E \'s/-wrap_(a|b)$//\')\n'
            ),
            "tests/suite/grpo-a.sh": (
                'SCRIPT_DIR=$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd)\n'
                "source $SCRIPT_DIR/common.env\nuv run examples/run_grpo.py --config $CONFIG_PATH "
                "grpo.max_num_steps=10 $@\n"
            ),
            "tests/suite/grpo-a-wrap_b.sh": (
                'SCRIPT_DIR=$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd)\n'
                'source "$SCRIPT_DIR/wrap.env"\nexport EXP_NAME="$WRAP_NAME"\nbash "$SCRIPT_DIR/$BASE.sh" "$@"\n'
            ),
            "examples/recipes/grpo-a.yaml": (
                "defaults: ../configs/grpo_math_1B.yaml\ngrpo:\n  num_prompts_per_step: 16\n"
                "  num_generations_per_prompt: 4\npolicy:\n  train_global_batch_size: 32\n"
            ),
            "examples/recipes/grpo-a-wrap_b.yaml": "defaults: grpo-a.yaml\npolicy:\n  train_global_batch_size: 16\n",
        },
    )
    wrapped = translator.explain(str(root / "tests/suite/grpo-a-wrap_b.sh"), framework="nemo-rl@0.7.0").spec.plan
    base = translator.explain(str(root / "tests/suite/grpo-a.sh"), framework="nemo-rl@0.7.0").spec.plan
    assert (wrapped.samples_per_step, wrapped.samples_per_optimizer_step, wrapped.optimizer_steps_per_step) == (
        64,
        16,
        4,
    )
    assert (base.samples_per_optimizer_step, base.optimizer_steps_per_step) == (32, 2)


@pytest.mark.parametrize("exported", [False, True])
def test_the_launchs_nrl_ignore_tp_accuracy_check_lets_tp4_run_with_unequal_micro_batches(
    tmp_path: Path, exported: bool
) -> None:
    # lm_policy.py:178-194@v0.7.0: TP 4 with train_micro_batch_size 1 ≠ logprob_batch_size 4 stops at start-up
    # unless the environment holds NRL_IGNORE_TP_ACCURACY_CHECK (any non-empty value); the launch's export is it.
    # 8 GPUs ÷ TP 4 = 2 DP ranks; 32 × 16 = 512 samples per step, global batch 512: 1 update.
    root = write_project(
        tmp_path,
        {
            "run.sh": ("export NRL_IGNORE_TP_ACCURACY_CHECK=1\n" if exported else "")
            + "uv run examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml cluster.gpus_per_node=8 "
            "policy.dtensor_cfg.tensor_parallel_size=4 policy.train_micro_batch_size=1 policy.logprob_batch_size=4\n"
        },
    )
    message = "There is a known batch-variant accuracy issue with TP>=4 for both DTensor and Megatron backend."
    if not exported:
        with pytest.raises(translator.ConfigError, match=re.escape(message)):
            translator.explain(str(root / "run.sh"), framework="nemo-rl@0.7.0")
        return
    explanation = translator.load(str(root / "run.sh"), framework="nemo-rl@0.7.0")
    assert (explanation.spec.plan.data_parallel_size, explanation.spec.plan.optimizer_steps_per_step) == (2, 1)
    skipped = message + " (NRL_IGNORE_TP_ACCURACY_CHECK=1 set by the launch: NeMo-RL skips the check)"
    expect_finding(translator.check(explanation), "nemo-rl.tp4-micro-equals-logprob", "warning", skipped)
