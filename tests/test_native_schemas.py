"""Native schemas (schemas/native, made by scripts/gen_schemas.py) and the validation of native keys against them."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import jsonschema
import pytest

import translator
from tests.conftest import CASES, COMPUTED_AT_RUN, ROOT, case_id, read_back
from translator import dialects, native_schemas
from translator.dialects.base import Reading, ReadOptions
from translator.errors import ConfigError
from translator.frameworks.trl.tables import OPEN_R1_KEYS
from translator.notes import NoteList
from translator.sources.files import Source, read_source

NATIVE = ROOT / "schemas" / "native"
PACKAGED = ROOT / "translator" / "schema_data"
REQUIRED = [
    ("trl", "0.14.0"),
    ("trl", "0.18.0"),
    ("trl", "1.16.0"),
    ("verl", "0.4.1"),
    ("verl", "0.7.1"),
    ("verl", "0.9.1"),
    ("openrlhf", "0.10.1"),
    ("openrlhf", "0.11.2"),
    ("easyr1", "0.3.3.dev0"),
    ("open-instruct", "2026.08.20"),
    ("nemo-rl", "0.3.1"),
    ("nemo-rl", "0.4.0"),
    ("nemo-rl", "0.5.0"),
    ("nemo-rl", "0.6.0"),
    ("nemo-rl", "0.7.0"),
    ("slime", "0.3.1"),
    ("skyrl", "0.3.0"),
    ("skyrl", "0.4.0"),
]


def schema(framework: str, version: str) -> dict:
    return json.loads((NATIVE / f"{framework}-{version}.schema.json").read_text())


# ---------------------------------------------------------------------------- the committed schemas
@pytest.mark.parametrize(("framework", "version"), REQUIRED, ids=lambda x: x)
def test_schema_is_committed_with_its_source(framework: str, version: str) -> None:
    doc = schema(framework, version)
    jsonschema.Draft202012Validator.check_schema(doc)
    assert (doc["x-framework"], doc["x-version"], doc["type"]) == (framework, version, "object")
    assert len(doc["properties"]) > 100
    assert doc["additionalProperties"] is (doc["x-unknown-keys"] != "rejected")
    sources = doc["x-source"]
    assert sources and "scripts/gen_schemas.py" in doc["$comment"]
    first = sources[0]
    if first["kind"] == "wheel":
        assert first["file"].startswith(framework.replace("-", "_") + f"-{version}-") and first["file"].endswith(".whl")
        assert re.fullmatch(r"[0-9a-f]{64}", first["sha256"])
        assert first["file"] in doc["$comment"]
    else:
        assert first["kind"] == "repository" and re.fullmatch(r"[0-9a-f]{40}", first["commit"])
        assert first["repository"] in ("hiyouga/EasyR1", "allenai/open-instruct", "THUDM/slime", "NVIDIA-NeMo/RL")
        assert re.fullmatch(r"[0-9a-f]{64}", first["files_sha256"]) and first["read"]
    # The copy the package reads at run time is the same file.
    assert (PACKAGED / f"{framework}-{version}.schema.json").read_bytes() == (
        NATIVE / f"{framework}-{version}.schema.json"
    ).read_bytes()


@pytest.mark.parametrize("version", ["0.14.0", "0.18.0", "1.16.0"])
def test_trl_schemas_hold_transformers_and_open_r1_keys(version: str) -> None:
    doc = schema("trl", version)
    files = [s.get("file", "") for s in doc["x-source"]]
    assert any(f.startswith("transformers-") for f in files)  # TrainingArguments
    assert any(s.get("name") == "OPEN_R1_KEYS" for s in doc["x-source"])  # said so in the schema
    assert set(doc["properties"]) >= OPEN_R1_KEYS
    for key in (
        "num_generations",
        "learning_rate",
        "per_device_train_batch_size",
        "model_name_or_path",
        "dataset_name",
        "reward_funcs",
    ):
        assert key in doc["properties"], key
    assert doc["x-unknown-keys"] == ("rejected" if version == "1.16.0" else "dropped")


def test_schema_types_map_the_annotations() -> None:
    trl = schema("trl", "0.18.0")["properties"]
    assert trl["num_generations"] == {"type": ["integer", "null"], "default": 8}
    assert trl["learning_rate"]["type"] == "number" and trl["bf16"]["type"] == "boolean"
    assert trl["torch_dtype"]["enum"][:4] == ["auto", "bfloat16", "float16", "float32"]
    assert trl["model_init_kwargs"]["type"][:2] == ["object", "string"]
    orl = schema("openrlhf", "0.11.2")["properties"]
    assert orl["rollout.batch_size"]["type"] == "integer" and orl["actor.optim"]["enum"] == ["adam", "muon"]
    assert orl["actor.eps_clip_low_high"]["items"] == {"type": "number"}  # nargs=2, type=float
    assert orl["actor.muon.no_nesterov"]["type"] == "boolean"  # unrolled from `for prefix in (...)`
    assert "eps_clip_low_high" in schema("openrlhf", "0.10.1")["properties"]  # flat flags
    verl = schema("verl", "0.9.1")
    assert verl["properties"]["data.train_batch_size"] == {"type": "number", "default": 1024}
    assert "actor_rollout_ref.actor.megatron.tensor_model_parallel_size" in verl["properties"]
    assert not any(k.endswith("._target_") for k in verl["properties"])
    easyr1 = schema("easyr1", "0.3.3.dev0")["properties"]
    assert easyr1["worker.actor.global_batch_size"]["type"] == "integer"
    assert easyr1["worker.actor.optim.betas"]["type"] == "array"
    oi = schema("open-instruct", "2026.08.20")["properties"]
    assert oi["kl_estimator"] == {"type": "integer", "enum": [0, 1, 2, 3], "default": 2}


def test_nearest_schema_at_or_below_the_version() -> None:
    assert native_schemas.schema_for("verl", "0.6.1")["x-version"] == "0.6.1"
    assert native_schemas.schema_for("verl", "0.6.0")["x-version"] == "0.6.0"
    assert native_schemas.schema_for("verl", "0.8.0")["x-version"] == "0.8.0"
    assert native_schemas.schema_for("trl", "0.22.2")["x-version"] == "0.18.0"
    assert native_schemas.schema_for("openrlhf", "0.11.2")["x-version"] == "0.11.2"
    assert native_schemas.schema_for("verl", "0.3.0")["x-version"] == "0.3.0"  # from the 0.3.0.post1 wheel
    assert native_schemas.schema_for("verl", "0.1") is None  # vendored copies, no release to read
    assert native_schemas.schema_for("easyr1", "0.3.2") is None
    assert native_schemas.validate("verl", "0.1", {"no.such.key": "x"}) == []  # no schema → no validation


# ---------------------------------------------------------------------------- validation
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_fixture_still_explains(case) -> None:
    kwargs = case.load_kwargs()
    translator.load(case.path, **kwargs)  # validated on load: a rejected value type would raise ConfigError
    source = read_source(str(case.path))
    dialect, version = (
        dialects.parse_framework(kwargs["framework"]) if kwargs["framework"] else (dialects.detect(source), None)
    )
    reading = dialect.read(
        source, ReadOptions(version=version, env=kwargs["env"], num_processes=kwargs["num_processes"])
    )
    added = native_schemas.validate_reading(reading, source.text)
    # Only warnings, and only true ones: keys the parser of that TRL version does not have.
    assert all(n.severity == "warning" for n in added)
    # warmup_ratio (gone in 5.15), overwrite_output_dir (gone in 5.0): not TrainingArguments fields of transformers
    # 5.24, which trl 0.14 and 1.16 resolve to today.
    assert {k for n in added for k in n.source_keys} <= {
        "torch_dtype",
        "dataset_configs",
        "warmup_ratio",
        "overwrite_output_dir",
    }, case.name


TYPOS = [
    ("verl", "0.9.1", "critic.optim.weight_decy", "critic.optim.weight_decay"),
    (
        "verl",
        "0.4.1",
        "actor_rollout_ref.rollout.gpu_memory_utilisation",
        "actor_rollout_ref.rollout.gpu_memory_utilization",
    ),
    ("trl", "0.18.0", "logging_step", "logging_steps"),
    ("trl", "1.16.0", "torch_dtype", "dtype"),  # renamed: the last word still points at it
    ("openrlhf", "0.11.2", "rollout.temprature", "rollout.temperature"),
    ("openrlhf", "0.10.1", "micro_train_batch_sze", "micro_train_batch_size"),
    ("easyr1", "0.3.3.dev0", "worker.rollout.temprature", "worker.rollout.temperature"),
    ("open-instruct", "2026.08.20", "num_samples_per_prompt_rolout", "num_samples_per_prompt_rollout"),
    ("slime", "0.3.1", "n-samples-per-promt", "n-samples-per-prompt"),
    ("skyrl", "0.4.0", "trainer.policy_mini_batch_sise", "trainer.policy_mini_batch_size"),
]


@pytest.mark.parametrize(("framework", "version", "typo", "meant"), TYPOS, ids=lambda x: str(x))
def test_a_typo_gets_the_closest_key(framework: str, version: str, typo: str, meant: str) -> None:
    notes = native_schemas.validate(framework, version, {typo: 1})
    assert [(n.code, n.severity, n.source_keys, n.target_keys) for n in notes] == [
        ("keys.unknown", "warning", [typo], [meant])
    ]
    assert meant in notes[0].message


def test_a_typo_the_reader_does_not_know_is_noted_on_load() -> None:
    script = (
        "python3 -m verl.trainer.main_ppo data.train_batch_size=256 actor_rollout_ref.rollout.n=4 "
        "critic.optim.weight_decy=0.1 +my.own.key=1\n"
    )
    notes = translator.load(Source(script, "run.sh")).notes
    unknown = [n for n in notes if n.code == "keys.unknown"]
    assert [(n.source_keys, n.target_keys) for n in unknown] == [
        (["critic.optim.weight_decy"], ["critic.optim.weight_decay"])
    ]


def test_a_misspelt_slime_flag_is_noted_as_dropped_and_megatron_flags_are_not_judged() -> None:
    # slime v0.3.1 parses train.py's flags with Megatron-LM's parse_args(ignore_unknown_args=True)
    # (slime/backends/megatron_utils/arguments.py megatron_parse_args, called from slime/utils/arguments.py
    # parse_args) and SGLang's with parse_known_args (slime/backends/sglang_utils/arguments.py): a misspelt flag is
    # dropped without an error. --rollout-temprature is --rollout-temperature less one letter, so it is the one
    # note; --num-layers and --tensor-model-parallel-size are Megatron's (not in slime's own schema, and more than
    # one edit from every slime flag: --num-layers is four letters short of --mtp-num-layers), --sglang-mem-fraction-
    # static is SGLang's ServerArgs flag under slime's prefix: none of the three is judged.
    script = (
        "python3 train.py --actor-num-nodes 1 --actor-num-gpus-per-node 8 --rollout-batch-size 32 "
        "--n-samples-per-prompt 8 --global-batch-size 256 --tensor-model-parallel-size 2 --num-layers 28 "
        "--sglang-mem-fraction-static 0.7 --rollout-temprature 0.8\n"
    )
    notes = translator.load(Source(script, "run.sh"), framework="slime@0.3.1").notes
    unknown = [n for n in notes if n.code == "keys.unknown"]
    assert [(n.source_keys, n.target_keys) for n in unknown] == [(["rollout-temprature"], ["rollout-temperature"])]
    assert "an unknown flag is dropped" in unknown[0].message
    assert "did you mean '--rollout-temperature'" in unknown[0].message


def test_a_misspelt_skyrl_key_is_noted_as_rejected() -> None:
    # skyrl 0.4.0's main_base builds its config with SkyRLTrainConfig.from_cli_overrides, whose
    # build_nested_dataclass calls validate_dict_keys_against_dataclass: a key a dataclass lacks raises ValueError
    # ('Invalid fields ...') before training starts (skyrl/train/config/config.py in the wheel).
    # trainer.policy_mini_batch_sise is trainer.policy_mini_batch_size with one letter changed.
    script = (
        (ROOT / "fixtures/skyrl/gsm8k_colocated_4gpu_v030.sh")
        .read_text()
        .replace(
            "trainer.policy_mini_batch_size=64", "trainer.policy_mini_batch_size=64 trainer.policy_mini_batch_sise=32"
        )
    )
    notes = translator.load(Source(script, "run.sh"), framework="skyrl@0.4.0").notes
    unknown = [n for n in notes if n.code == "keys.unknown"]
    assert [(n.source_keys, n.target_keys) for n in unknown] == [
        (["trainer.policy_mini_batch_sise"], ["trainer.policy_mini_batch_size"])
    ]
    assert "rejects a key the config lacks" in unknown[0].message


def test_the_hydra_era_skyrl_train_is_not_judged_by_the_skyrl_package_schema() -> None:
    # skyrl_train 0.4.0 (a Hydra app) spells keys its own way (generator.num_inference_engines); the schemas are
    # the skyrl package's, whose 0.4.0 lacks that key: it must not be reported against them.
    reading = dialects.get("skyrl").read(
        read_source(str(ROOT / "fixtures/skyrl/hydra_old_era_v040.sh")), ReadOptions(version="skyrl_train-0.4.0")
    )
    assert "generator.num_inference_engines" in reading.native.values
    assert native_schemas.validate_reading(reading) == []


def test_reader_notes_are_not_repeated() -> None:
    recipe = "model_name_or_path: m\nnum_generations: 8\nper_device_train_batch_size: 8\nlogging_step: 5\n"
    notes = translator.load(Source(recipe, "recipe.yaml"), framework="trl@0.18.0").notes
    assert len([n for n in notes if n.code == "keys.unknown" and n.source_keys == ["logging_step"]]) == 1


WRONG_TYPES = [
    (
        "trl",
        "recipe.yaml",
        "model_name_or_path: m\nnum_generations: [8]\nper_device_train_batch_size: 8\n",
        "num_generations",
    ),
    ("trl", "recipe.yaml", "model_name_or_path: m\nnum_generations: 8\nlogging_steps: [10]\n", "logging_steps"),
    ("trl", "recipe.yaml", "model_name_or_path: m\nnum_generations: 8\nbf16: maybe\n", "bf16"),
    ("verl", "run.sh", "python3 -m verl.trainer.main_ppo data.train_batch_size=abc\n", "data.train_batch_size"),
    (
        "verl",
        "run.sh",
        "python3 -m verl.trainer.main_ppo data.train_batch_size=64 trainer.save_freq=abc\n",
        "trainer.save_freq",
    ),
    (
        "openrlhf",
        "run.sh",
        (
            "python3 -m openrlhf.cli.train_ppo_ray --actor.num_nodes 1 --rollout.batch_size 128 "
            "--train.batch_size 1024 --rollout.n_samples_per_prompt 8 --ckpt.save_steps abc\n"
        ),
        "--ckpt.save_steps",
    ),
    (
        "easyr1",
        "run.sh",
        ("python3 -m verl.trainer.main data.rollout_batch_size=128 worker.rollout.n=5 trainer.save_freq=abc\n"),
        "trainer.save_freq",
    ),
    (
        "easyr1",
        "run.sh",
        ("python3 -m verl.trainer.main data.rollout_batch_size=128 worker.rollout.n=5 data.max_prompt_length=null\n"),
        "data.max_prompt_length",
    ),  # OmegaConf: not Optional
    (
        "open-instruct",
        "run.sh",
        (
            "python open_instruct/grpo_fast.py --num_unique_prompts_rollout 64 "
            "--num_samples_per_prompt_rollout 8 --save_freq abc\n"
        ),
        "--save_freq",
    ),
]


@pytest.mark.parametrize(("framework", "name", "text", "key"), WRONG_TYPES, ids=lambda x: str(x)[:40])
def test_a_wrong_type_is_an_error_naming_the_key(framework: str, name: str, text: str, key: str) -> None:
    with pytest.raises(ConfigError) as raised:
        translator.load(Source(text, name), framework=framework, num_processes=8)
    assert raised.value.key == key
    assert key in str(raised.value)


def test_values_the_framework_converts_pass() -> None:
    # TrlParser/argparse convert strings; ints pass for floats; HfArgumentParser reads yes/no as booleans.
    trl = {
        "learning_rate": "1e-6",
        "num_train_epochs": 1,
        "bf16": "true",
        "num_generations": "8",
        "report_to": "wandb",
        "beta": 0,
        "max_steps": 10.0,
        "scale_rewards": True,
        "env": {"A": "1"},
    }
    assert native_schemas.validate("trl", "1.16.0", trl) == []
    orl = {
        "rollout.batch_size": "128",
        "actor.eps_clip_low_high": ["0.2", "0.28"],
        "actor.adam.lr": "5e-7",
        "vllm.enforce_eager": True,
        "actor.optim": "muon",
    }
    assert native_schemas.validate("openrlhf", "0.11.2", orl) == []
    verl = {
        "trainer.logger": "console",
        "data.train_files": ["a.parquet", "b.parquet"],  # Hydra is untyped
        "actor_rollout_ref.actor.optim.lr": 1e-6,
        "trainer.val_before_train": "False",
        "actor_rollout_ref.model.override_config.attn_implementation": "eager",  # under a mapping
        "trainer.total_training_steps": "${oc.env:STEPS}",
    }  # unresolved interpolation
    assert native_schemas.validate("verl", "0.9.1", verl) == []
    easyr1 = {
        "worker.actor.optim.lr": "1e-6",
        "worker.actor.optim.betas": [0.9, 0.99],
        "worker.rollout.val_override_config.temperature": 0.6,
        "data.mini_rollout_batch_size": None,
    }
    assert native_schemas.validate("easyr1", "0.3.3.dev0", easyr1) == []
    oi = {"kl_estimator": "2", "async_steps": "4", "load_ref_policy": False, "dataset_mixer_list": ["a", "1.0"]}
    assert native_schemas.validate("open-instruct", "2026.08.20", oi) == []


def test_a_value_outside_the_choices_is_a_warning() -> None:
    notes = native_schemas.validate("openrlhf", "0.11.2", {"actor.optim": "sgd"})
    assert [(n.code, n.severity, n.source_keys) for n in notes] == [("keys.invalid-value", "warning", ["actor.optim"])]


def test_verl_appended_keys_are_exempt() -> None:
    script = (
        "python3 -m verl.trainer.main_ppo data.train_batch_size=64 actor_rollout_ref.rollout.n=4 "
        "+trainer.my_thing=abc ++actor_rollout_ref.model.override_config.foo=1\n"
    )
    notes = translator.load(Source(script, "run.sh")).notes
    assert not [n for n in notes if n.code == "keys.unknown"]


def test_between_two_schemas_a_key_of_the_newer_one_is_accepted() -> None:
    # verl 0.6.1 is read with 0.4.1's schema; a key 0.7.1 has may be one 0.6.1 added.
    newer_only = next(
        k
        for k in schema("verl", "0.7.1")["properties"]
        if k not in schema("verl", "0.4.1")["properties"] and k.startswith("trainer.")
    )
    assert native_schemas.validate("verl", "0.6.1", {newer_only: None}) == []
    # trl 0.22.2 made scale_rewards a string: 0.18.0's boolean does not make it an error.
    assert native_schemas.validate("trl", "0.22.2", {"scale_rewards": "group"}) == []
    with pytest.raises(ConfigError):  # wrong under both neighbours
        native_schemas.validate("trl", "0.22.2", {"scale_rewards": [1]})
    with pytest.raises(ConfigError):  # 0.18.0 itself: string_to_bool('group') fails
        native_schemas.validate("trl", "0.18.0", {"scale_rewards": "group"})


def test_a_release_newer_than_every_schema_keeps_the_newest_ones_removals() -> None:
    # transformers 5.0 removed overwrite_output_dir from TrainingArguments (4.x had it); a release newer than the
    # newest schema (a user's transformers released after rlconf) cannot have it back, and still has learning_rate.
    newest = max(native_schemas.available()["transformers"])[1]
    beyond = ".".join([str(int(newest.split(".")[0]) + 1), "0", "0"])
    assert native_schemas.lacks("transformers", beyond, "overwrite_output_dir")
    assert not native_schemas.lacks("transformers", beyond, "learning_rate")
    # Between two schemas a key one neighbour has is not surely lacking (4.50 lies between 4.46.0 and 4.52.3).
    assert not native_schemas.lacks("transformers", "4.50.0", "overwrite_output_dir")


def test_the_common_path_does_not_import_jsonschema() -> None:
    code = (
        "import sys, translator; translator.explain(sys.argv[1]); "
        "print('jsonschema' in sys.modules, 'translator.native_schemas' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "fixtures/verl/v09_fetch_granularity_sp2.sh")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    assert out == ["False", "True"]


def test_the_schemas_are_package_data() -> None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "schema_data/*.json" in data["tool"]["setuptools"]["package-data"]["translator"]
    assert native_schemas.SCHEMA_DIR.endswith("schema_data") and native_schemas.available()["verl"]


# ---------------------------------------------------------------------------- writers
def _targets() -> list[tuple[str, str]]:
    targets = []
    for framework in ("verl", "trl", "openrlhf", "easyr1", "open-instruct", "slime", "skyrl"):
        versions = {dialects.get(framework).default_version} | {v for f, v in REQUIRED if f == framework}
        targets += [(framework, v) for v in sorted(versions)]
    return targets


# A fixture whose counts its launched code computes when it runs is refused by translate (tests/conftest.py).
TRANSLATABLE = [
    c for c in CASES if not c.path.name.startswith("recipe_only_no_world_size") and case_id(c) not in COMPUTED_AT_RUN
]


@pytest.mark.parametrize("case", TRANSLATABLE, ids=case_id)
def test_every_writer_output_validates_against_the_target_schema(case) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    if source.spec.plan.samples_per_prompt is None or source.spec.plan.data_parallel_size is None:
        pytest.skip("no batch plan to translate")
    for framework, version in _targets():
        translation = translator.translate(source, f"{framework}@{version}")
        written = read_back(translation)
        reading = dialects.get(framework).read(written, ReadOptions(version=version))
        assert native_schemas.schema_for(framework, version)["x-version"] == version
        # The schema's own view (the reader's notes not taken into account): no unknown key, no error.
        notes = native_schemas.validate_reading(Reading(reading.spec, NoteList(), reading.native), written.text)
        assert [n.message for n in notes] == [], f"{case.name} → {framework}@{version}"
