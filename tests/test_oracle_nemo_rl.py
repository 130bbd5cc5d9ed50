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
from translator.sources.shell import parse_shell, unwrap_command

SRC = os.environ.get("RLCONF_NEMO_RL_SRC")
pytestmark = pytest.mark.skipif(not SRC, reason="RLCONF_NEMO_RL_SRC names no NeMo-RL checkout")

VERSION = dialects.get("nemo-rl").versions[-1]
TAG = f"v{VERSION}"
OWN = [c for c in CASES if c.framework == "nemo-rl" and str(c.expected["version"]) == VERSION]
OTHERS = [c for c in CASES if c.framework != "nemo-rl" and translatable(c)]


def _git(*argv: str) -> bytes:
    return subprocess.run(["git", "-C", str(SRC), *argv], check=True, capture_output=True).stdout


@cache
def nemo_config() -> ModuleType:
    """nemo_rl/utils/config.py at the tag, as its own module."""
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"rlconf-nemo-rl-{TAG}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "nemo_rl_config.py"
    path.write_bytes(_git("show", f"{TAG}:nemo_rl/utils/config.py"))
    spec = importlib.util.spec_from_file_location("nemo_rl_config_oracle", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.register_omegaconf_resolvers()
    return module


def checkout(tmp: Path) -> Path:
    """A directory holding the tag's examples/configs (the layout a launch runs in)."""
    with tarfile.open(fileobj=io.BytesIO(_git("archive", "--format=tar", TAG, "examples/configs"))) as tar:
        tar.extractall(tmp, filter="data")
    return tmp


def loaded(recipe: Path, overrides: list[str]) -> dict[str, Any]:
    module = nemo_config()
    from omegaconf import OmegaConf

    cfg = module.load_config(str(recipe))
    cfg = module.parse_hydra_overrides(cfg, overrides)
    return OmegaConf.to_container(cfg, resolve=True)  # type: ignore[return-value]


def launch_line(text: str) -> tuple[str | None, list[str]]:
    """(--config, overrides) of the run_grpo launch in a script, read with rlconf's shell parser (never run)."""
    for command in parse_shell(text, {}).commands:
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
    explanation = load(case.path, **case.load_kwargs())
    assert not same(explanation.plan, plan_of(loaded(recipe, overrides)))


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
