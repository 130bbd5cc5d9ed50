"""Oracle: NeMo-RL's own config loading reads every config rlconf writes for it (and every NeMo-RL fixture), and the
plan NeMo-RL's loaded config gives is the one rlconf states.

Where NeMo-RL comes from: a git checkout of github.com/NVIDIA-NeMo/RL named by ``$RLCONF_NEMO_RL_SRC`` holding the
release tags (NeMo-RL is not on PyPI; CI skips this file). The tag read is ``v`` + rlconf's newest NeMo-RL version.

What runs is NeMo-RL's own code: ``nemo_rl/utils/config.py`` at the tag (it imports only hydra and omegaconf),
loaded from ``git show`` into a module of its own (``nemo_rl/__init__.py`` is not imported: it pulls in torch and
ray), then ``register_omegaconf_resolvers()``, ``load_config(path)`` (``defaults:`` inheritance) and
``parse_hydra_overrides(cfg, overrides)`` with the overrides of the launch line, and
``OmegaConf.to_container(cfg, resolve=True)``. The recipe is placed where its ``defaults:`` line expects it, in a
directory holding the tag's ``examples/configs`` (``git archive``): rlconf's written ``config.yaml`` at the root
(its ``defaults: examples/configs/grpo_math_1B.yaml``), a fixture recipe in ``examples/configs/recipes/llm/``.

The plan is then worked out from the loaded mapping with docs/frameworks/nemo-rl.md §3 (independently of rlconf's
reader), and NeMo-RL's batch checks are evaluated on it: the two assertions of
``BatchedDataDict.shard_by_batch_size`` (``nemo_rl/distributed/batched_data_dict.py:395-401@v0.7.0``) and the
world-size and placement conditions of ``lm_policy.py:196-211`` and ``grpo.py:614-644`` — those live in functions
that need torch, ray and GPUs, so their conditions are restated here as plain arithmetic, not executed from source.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import subprocess
import tarfile
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import CASES, Case, case_id, translatable
from translator import dialects, load, translate
from translator.frameworks.nemo_rl.dialect import held_by_ray_sub
from translator.sources.files import Source
from translator.sources.shell import parse_shell, unwrap_command

SRC = os.environ.get("RLCONF_NEMO_RL_SRC")
pytestmark = pytest.mark.skipif(not SRC, reason="RLCONF_NEMO_RL_SRC names no NeMo-RL checkout")

VERSION = dialects.get("nemo-rl").versions[-1]
TAG = f"v{VERSION}"
OWN = [c for c in CASES if c.framework == "nemo-rl" and str(c.expected["version"]) == VERSION]
OTHERS = [c for c in CASES if c.framework != "nemo-rl" and translatable(c)]


def _git(*argv: str) -> bytes:
    return subprocess.run(["git", "-C", str(SRC), *argv], check=True, capture_output=True).stdout


def _module(tag: str, path_at_tag: str, name: str) -> ModuleType:
    """A file of NeMo-RL at ``tag``, from git show, as a module of its own."""
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"rlconf-nemo-rl-{tag}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_bytes(_git("show", f"{tag}:{path_at_tag}"))
    spec = importlib.util.spec_from_file_location(f"{name}_oracle_{tag.replace('.', '_')}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def nemo_config(tag: str = TAG) -> ModuleType:
    """nemo_rl/utils/config.py at the tag."""
    module = _module(tag, "nemo_rl/utils/config.py", "nemo_rl_config")
    if hasattr(module, "register_omegaconf_resolvers"):
        module.register_omegaconf_resolvers()
    else:
        from omegaconf import OmegaConf

        # before 0.6.0 the entry registers `mul` itself (examples/run_grpo_math.py:43@v0.4.0)
        if not OmegaConf.has_resolver("mul"):
            OmegaConf.register_new_resolver("mul", lambda a, b: a * b)
    return module


def checkout(tmp: Path, tag: str = TAG) -> Path:
    """A directory holding the tag's examples/configs (the layout a launch runs in)."""
    with tarfile.open(fileobj=io.BytesIO(_git("archive", "--format=tar", tag, "examples/configs"))) as tar:
        tar.extractall(tmp, filter="data")
    return tmp


def loaded(recipe: Path, overrides: list[str], tag: str = TAG) -> dict[str, Any]:
    module = nemo_config(tag)
    from omegaconf import OmegaConf

    cfg = module.load_config(str(recipe))
    cfg = module.parse_hydra_overrides(cfg, overrides)
    return OmegaConf.to_container(cfg, resolve=True)  # type: ignore[return-value]


def launch_line(text: str) -> tuple[str | None, list[str]]:
    """(--config, overrides) of the run_grpo launch in a script, read with rlconf's shell parser (never run)."""
    script = parse_shell(text, {})
    # a launch held in $COMMAND for NeMo-RL's ray.sub is the one the job runs
    for command in [*script.commands, *held_by_ray_sub(script, Source(text, "run.sh"))]:
        argv = unwrap_command(command.argv)
        index = next((i for i, w in enumerate(argv) if "run_grpo" in w), None)
        if index is None:
            continue
        words, config, rest = argv[index + 1 :], None, []
        i = 0
        while i < len(words):
            if words[i] == "--config":
                config, i = words[i + 1], i + 2
                continue
            if words[i] != "$@":
                rest.append(words[i])
            i += 1
        return config, rest
    raise AssertionError("no run_grpo launch line")


def plan_of(cfg: dict[str, Any]) -> dict[str, Any]:
    """docs/frameworks/nemo-rl.md §3 on NeMo-RL's loaded config, with §5's batch conditions asserted."""
    grpo, policy, cluster = cfg["grpo"], cfg["policy"], cfg["cluster"]
    p, n, gbs = grpo["num_prompts_per_step"], grpo["num_generations_per_prompt"], policy["train_global_batch_size"]
    nodes, gpn = cluster["num_nodes"], cluster["gpus_per_node"]
    colocated = policy["generation"]["colocated"]
    if colocated["enabled"]:
        train = nodes * gpn
    elif nodes == 1:
        gen = colocated["resources"]["gpus_per_node"]
        assert gen is not None and gen > 0, "grpo.py:617-623: generation GPUs must be set"
        assert gpn - gen > 0, "grpo.py:636-644: No enough GPUs for training"
        train = gpn - gen
    else:
        resources = colocated["resources"]
        assert resources["gpus_per_node"] == gpn
        train = (nodes - resources["num_nodes"]) * gpn
    if policy["megatron_cfg"]["enabled"]:
        m = policy["megatron_cfg"]
        model = m["tensor_model_parallel_size"] * m["pipeline_model_parallel_size"] * m["context_parallel_size"]
    else:
        model = policy["dtensor_cfg"]["tensor_parallel_size"] * policy["dtensor_cfg"]["context_parallel_size"]
    assert train >= model and train % model == 0, "lm_policy.py:196-211: world size against PP * CP * TP"
    tp = policy["megatron_cfg" if policy["megatron_cfg"]["enabled"] else "dtensor_cfg"][
        "tensor_model_parallel_size" if policy["megatron_cfg"]["enabled"] else "tensor_parallel_size"
    ]
    if tp >= 4 and not cfg["loss_fn"].get("force_on_policy_ratio"):
        assert policy["train_micro_batch_size"] == policy["logprob_batch_size"], (
            "There is a known batch-variant accuracy issue with TP>=4 for both DTensor and Megatron backend."
        )
    dp = train // model
    assert (p * n) % gbs == 0, f"Total batch size ({p * n}) is not a multiple of batch_size ({gbs})"
    assert gbs % dp == 0, f"Batch size ({gbs}) is not a multiple of shards ({dp})"
    if grpo.get("async_grpo", {}).get("enabled"):
        assert not colocated["enabled"], "grpo.py:3421-3423: async GRPO needs non-colocated inference"
        assert (p * n) % dp == 0, "grpo.py:3747-3750"
    packed = policy["sequence_packing"]["enabled"] or policy["dynamic_batching"]["enabled"]
    micro = None if packed else policy["train_micro_batch_size"]
    return {
        "prompts_per_step": p,
        "samples_per_prompt": n,
        "samples_per_step": p * n,
        "samples_per_optimizer_step": gbs,
        "optimizer_steps_per_step": (p * n) // gbs,
        "epochs_per_step": 1,
        "data_parallel_size": dp,
        "micro_batch_per_device": micro,
        "grad_accum_steps": None if micro is None else Fraction(gbs, dp * micro),
    }


def same(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    return {k: (ours[k], v) for k, v in theirs.items() if ours[k] != v}


@pytest.mark.parametrize("case", OWN, ids=case_id)
def test_nemo_rl_loads_each_fixture_to_the_plan_rlconf_reads(case: Case, tmp_path: Path) -> None:
    if case.expected["plan"]["data_parallel_size"] is None:
        pytest.skip("the fixture's world size is unknown or rejected: no plan to compare")
    root = checkout(tmp_path)
    text = case.path.read_text()
    if case.path.suffix == ".sh":
        config, overrides = launch_line(text)
        recipe = root / (config or "examples/configs/grpo_math_1B.yaml")
    else:
        overrides = []
        recipe = root / "examples/configs/recipes/llm" / case.path.name
        recipe.write_text(text)
    cfg = loaded(recipe, overrides)
    check = case.expected.get("framework_check") or {}
    if check.get("outcome") == "rejected":
        # the fixture states that NeMo-RL stops it at start-up: its conditions on the loaded config must, in the
        # fixture's words
        with pytest.raises(AssertionError) as stopped:
            plan_of(cfg)
        assert str(stopped.value).partition("\n")[0] == check["message"]
        return
    explanation = load(case.path, **case.load_kwargs())
    assert not same(explanation.plan, plan_of(cfg))


@pytest.mark.parametrize("case", OTHERS, ids=case_id)
def test_nemo_rl_loads_each_written_config_to_the_translated_plan(case: Case, tmp_path: Path) -> None:
    source = load(case.path, **case.load_kwargs())
    translation = translate(source, to=f"nemo-rl@{VERSION}")
    root = checkout(tmp_path)
    for name, text in translation.files.items():
        (root / name).write_text(text)
    config, overrides = launch_line(translation.files["launch.sh"])
    assert config == "config.yaml"
    cfg = loaded(root / config, overrides)
    shutil.rmtree(root)
    rejected = [n.message for n in translation.notes if n.code == "target.rejected"]
    if rejected:
        # rlconf said NeMo-RL would reject what it wrote (its checks on the written config): so must NeMo-RL's
        # conditions on the config its loader built, in the same words.
        with pytest.raises(AssertionError) as stopped:
            plan_of(cfg)
        said = str(stopped.value).partition("\n")[0]
        assert any(said in message for message in rejected), (said, rejected)
        return
    assert not same(translation.spec.plan.to_dict(), plan_of(cfg))


# ---- the source's data, through each release's own config loading and file loader.
# What the GRPO entry then builds from the loaded data section is restated (it needs torch, ray and the
# environments): up to 0.5.0 load_response_dataset's ResponseDataset branch (nemo_rl/data/datasets/
# response_datasets/__init__.py:97-115@v0.4.0, 109-127@v0.5.0) and grpo.setup's validation assertion
# (grpo.py:271-274@v0.4.0); from 0.6.0 setup_response_data (nemo_rl/data/utils.py:98-211@v0.6.0) with
# update_single_dataset_config (entries filled from data.default) and grpo.py:403-410@v0.7.0. The files
# themselves are loaded with the release's own load_dataset_from_path (nemo_rl/data/datasets/utils.py at the tag).
DATA_ROWS = [{"question": "What is 2+2?", "output": "4", "reward_model": {"ground_truth": "4"}}]
DATA_VERL = """python3 -m verl.trainer.main_ppo \\
    data.train_files="{train}" data.val_files={val} data.prompt_key=question \\
    data.train_batch_size=8 actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.ppo_mini_batch_size=4 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 actor_rollout_ref.model.path=m \\
    trainer.n_gpus_per_node=2 trainer.nnodes=1 trainer.test_freq=5
"""


def release_datasets(cfg: dict[str, Any], version: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(training, validation) ResponseDataset arguments the release builds from a loaded config."""
    data = cfg["data"]
    if version in ("0.4.0", "0.5.0"):
        assert data["dataset_name"] == "ResponseDataset"
        keys = {"input_key": data.get("input_key", "input"), "output_key": data.get("output_key", "output")}
        train = [{"data_path": data["train_data_path"], "split": data.get("train_split"), **keys}]
        val = [{"data_path": data["val_data_path"], "split": data.get("val_split"), **keys}]
        return train, val if data.get("val_data_path") else []

    def entries(part: str) -> list[dict[str, Any]]:
        listed = data.get(part)
        listed = [listed] if isinstance(listed, dict) else listed or []
        filled = [{**(data.get("default") or {}), **e} for e in listed]
        for e in filled:
            assert e["dataset_name"] == "ResponseDataset" and e["env_name"] in cfg["env"]
        return [
            {
                "data_path": e["data_path"],
                "split": e.get("split"),
                "input_key": e.get("input_key", "input"),
                "output_key": e.get("output_key", "output"),
                "split_validation_size": e.get("split_validation_size", 0),
            }
            for e in filled
        ]

    assert not data.get("use_multiple_dataloader"), "several datasets are concatenated, as the source's"
    return entries("train"), entries("validation")


@pytest.mark.parametrize("version", ["0.4.0", "0.5.0", "0.6.0", "0.7.0"])
@pytest.mark.parametrize("count", [1, 2])
def test_each_release_loads_the_sources_data(version: str, count: int, tmp_path: Path) -> None:
    tag = f"v{version}"
    where = tmp_path / "src"
    where.mkdir()
    names = [str(where / f"train{i}.jsonl") for i in range(count)] + [str(where / "val.jsonl")]
    for name in names:
        Path(name).write_text("".join(json.dumps(row) + "\n" for row in DATA_ROWS))
    *train_files, val_file = names
    listed = train_files[0] if count == 1 else "[" + ",".join(f"'{p}'" for p in train_files) + "]"
    (where / "run.sh").write_text(DATA_VERL.format(train=listed, val=val_file))
    translation = translate(load(where / "run.sh"), to=f"nemo-rl@{version}")
    if count == 2 and version in ("0.4.0", "0.5.0"):
        # one train_data_path: not written (noted); the base's OpenMathInstruct-2 stays
        assert any(n.code == "data.not-expressible" for n in translation.notes)
        return
    root = checkout(tmp_path / "nemo", tag)
    for name, text in translation.files.items():
        (root / name).write_text(text)
    config, overrides = launch_line(translation.files["launch.sh"])
    cfg = loaded(root / str(config), overrides, tag)
    train, val = release_datasets(cfg, version)
    # the source's files and prompt column; verl names no answer column, so `output` (the rows have it)
    assert [e["data_path"] for e in train] == train_files
    assert [e["data_path"] for e in val] == [val_file]
    assert all((e["input_key"], e["output_key"]) == ("question", "output") for e in [*train, *val])
    assert all(not e.get("split_validation_size") for e in train)  # no training rows held back
    assert cfg["grpo"]["val_period"] == 5 and val  # validation on: a validation set exists
    utils = _module(tag, "nemo_rl/data/datasets/utils.py", "nemo_rl_data_utils")
    for e in [*train, *val]:
        # load_dataset_from_path(path, split) up to 0.5.0, (path, subset, split) from 0.6.0
        args = (e["split"],) if version in ("0.4.0", "0.5.0") else (None, e["split"])
        rows = utils.load_dataset_from_path(e["data_path"], *args)
        assert len(rows) == len(DATA_ROWS)
        # ResponseDataset reads example[input_key] and example[output_key] of every row
        assert all(row[e["input_key"]] and row[e["output_key"]] for row in rows)
