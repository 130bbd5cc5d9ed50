"""Oracle: EasyR1 loads every config.yaml and launch.sh rlconf writes for it, as ``verl.trainer.main`` does, and its
start-up checks pass; the loaded config holds the plan rlconf read back.

Where EasyR1 comes from: a checkout of github.com/hiyouga/EasyR1 named by ``$RLCONF_EASYR1_SRC`` (the repository
root, holding ``verl/trainer/config.py``). EasyR1 is not on PyPI, so CI (which reaches only PyPI) skips this file;
README "Verified against the frameworks" says how to run it. The checkout's ``verl/__init__.py`` must say the
version rlconf knows as the newest (``0.3.3.dev0``: commit b44b311).

What runs is EasyR1's own code, loaded from the checkout under the package name ``easyr1_verl`` (the verl oracle
imports upstream verl as ``verl`` in the same test process; EasyR1's config modules import each other relatively,
so the name does not matter to them):
- ``main()``'s loading: ``OmegaConf.merge(OmegaConf.structured(PPOConfig()), OmegaConf.load(config.yaml),
  OmegaConf.from_cli(overrides))`` with the overrides of the written ``launch.sh`` (read with rlconf's own
  ``parse_shell``), ``OmegaConf.to_object`` (type checks and ``${oc.env:HOME}`` resolution, HOME set to a
  temporary directory) and ``deep_post_init()``; run from a directory laid out as the EasyR1 root the launch script
  says to run from (a copy of the checkout's ``examples/``), so a path such as
  ``./examples/reward_function/math.py`` resolves as it would. A file the written config names that the checkout
  does not hold (``gsm8k.py`` of one fixture: the user's own) is copied from beside the fixture or, where the
  fixture does not carry it either, written as a one-line stand-in (an absolute path on the user's machine, such
  as ``/openrlhf/examples/python/reward_func.py``, is stood in for under the run directory and given as a
  command-line override, as the user's own file would be there); every file path EasyR1 resolves with
  ``get_abs_path`` (which turns a missing file into None, silently) must then resolve.
- the checks made before any GPU work, taken from the source with ``ast`` and run as written: the ``if``/``raise``
  statements of ``RayPPOTrainer.__init__`` (estimator, divisibility by the actor/critic global batch and the
  experience micro-batch, GRPO/RLOO with n > 1), ``FSDPWorker._init_dist_mesh`` after its device meshes
  (global batch × n per rank, divisible by the update micro-batch, CPU offload without accumulation) for the
  actor and, with GAE, the critic, ``FSDPWorker._build_rollout``'s tensor-parallel check, and the first two
  checks of ``AutoRewardManager.__init__`` (a reward function is given and its file exists).

Stubbed, and why: only two package ``__init__`` files. ``verl/workers/reward/__init__.py`` imports the reward
manager (torch, transformers) and ``verl/workers/rollout/__init__.py`` imports the vLLM rollout (vllm, not
installable here); ``verl/workers/config.py`` only needs ``RewardConfig`` and ``RolloutConfig`` from them. Each is
replaced by a bare package holding the names its own ``config.py`` defines (loaded from the checkout).
``AdvantageEstimator`` is taken from ``core_algos.py`` with ``ast`` (that module imports torch at the top).

When the written config names no reward function (rlconf notes ``reward.missing`` and the translation fails),
EasyR1's reward check must raise its "Reward function is not provided." and the other checks run with the one
the user then adds (``./examples/reward_function/math.py:compute_score``, a file of the checkout).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import os
import re
import shutil
import sys
import types
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES, Case, case_id, has_group
from translator import translate
from translator.errors import ConfigError
from translator.sources.shell import SYMBOLIC, parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

omegaconf = pytest.importorskip("omegaconf", reason="omegaconf is not installed")
from omegaconf import OmegaConf

VERSION = "0.3.3.dev0"  # the newest EasyR1 version rlconf knows (easyr1_tables.VERSIONS)
ENTRY = "verl.trainer.main"
PACKAGE = "easyr1_verl"
DEFAULT_REWARD = "./examples/reward_function/math.py:compute_score"


def _root() -> Path:
    where = os.environ.get("RLCONF_EASYR1_SRC")
    if not where:
        pytest.skip(
            "EasyR1 is not on PyPI: set RLCONF_EASYR1_SRC to a checkout of github.com/hiyouga/EasyR1 "
            f"(version {VERSION}, commit b44b311) to run this oracle",
            allow_module_level=True,
        )
    root = Path(where)
    init = root / "verl" / "__init__.py"
    if not init.is_file():
        pytest.skip(f"RLCONF_EASYR1_SRC={where} holds no verl/__init__.py", allow_module_level=True)
    found = re.search(r'__version__ = "([^"]+)"', init.read_text())
    if not found or found.group(1) != VERSION:
        pytest.skip(
            f"the EasyR1 checkout says {found.group(1) if found else 'no version'}; this oracle runs {VERSION}",
            allow_module_level=True,
        )
    return root


ROOT = _root()
SOURCE = ROOT / "verl"


def _load(name: str, path: Path, package: bool = False) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=[str(path.parent)] if package else None
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _bare(name: str, directory: Path) -> None:
    """A package without its __init__ (module docstring), holding what its own config.py defines."""
    module = types.ModuleType(name)
    module.__path__ = [str(directory)]  # type: ignore[attr-defined]
    sys.modules[name] = module
    config = _load(f"{name}.config", directory / "config.py")
    module.__dict__.update({k: v for k, v in vars(config).items() if not k.startswith("_")})


@cache
def ppo_config_class() -> Any:
    if f"{PACKAGE}.trainer.config" not in sys.modules:
        _load(PACKAGE, SOURCE / "__init__.py", package=True)  # its real __init__ (numpy, yaml, codetiming)
        _load(f"{PACKAGE}.workers", SOURCE / "workers" / "__init__.py", package=True)
        for part in ("reward", "rollout"):
            _bare(f"{PACKAGE}.workers.{part}", SOURCE / "workers" / part)
        _load(f"{PACKAGE}.trainer", SOURCE / "trainer" / "__init__.py", package=True)
        _load(f"{PACKAGE}.trainer.config", SOURCE / "trainer" / "config.py")
    return sys.modules[f"{PACKAGE}.trainer.config"].PPOConfig


def _function(path: Path, name: str, cls: str | None = None) -> ast.FunctionDef:
    body = ast.parse(path.read_text(), str(path)).body
    if cls is not None:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == name)


def _raises(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Raise) for n in ast.walk(node))


def _compiled(statements: list[ast.stmt], arguments: str, namespace: dict[str, Any]) -> Any:
    """The statements as the body of ``def check(<arguments>)`` (EasyR1's code as written)."""
    function = ast.FunctionDef(
        name="check",
        args=ast.parse(f"def f({arguments}): pass").body[0].args,
        body=statements or [ast.Pass()],
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    module = ast.fix_missing_locations(ast.Module(body=[function], type_ignores=[]))
    exec(compile(module, "<easyr1 start-up checks>", "exec"), namespace)
    return namespace["check"]


@cache
def start_up_checks() -> dict[str, Any]:
    """The checks named in the module docstring, compiled from the checkout's source."""
    namespace: dict[str, Any] = {"os": os}
    algos = ast.parse((SOURCE / "trainer" / "core_algos.py").read_text())
    estimator = next(n for n in algos.body if isinstance(n, ast.ClassDef) and n.name == "AdvantageEstimator")
    enum = ast.Module(body=[ast.parse("from enum import Enum").body[0], estimator], type_ignores=[])
    exec(compile(enum, "core_algos.py", "exec"), namespace)
    trainer = _function(SOURCE / "trainer" / "ray_trainer.py", "__init__", "RayPPOTrainer")
    # use_critic is set by the `if ... GAE` statement; the checks are the statements that raise.
    trainer_checks = [
        s
        for s in trainer.body
        if isinstance(s, ast.If)
        and (_raises(s) or "self.use_critic" in ast.unparse(s))
        and "train_dataloader" not in ast.unparse(s)
    ]
    mesh = _function(SOURCE / "workers" / "fsdp_workers.py", "_init_dist_mesh", "FSDPWorker")
    mesh_checks = [
        s
        for s in mesh.body
        if not any(word in ast.unparse(s) for word in ("init_device_mesh", "ShardingManager", "dist.get_world_size"))
    ]
    rollout = _function(SOURCE / "workers" / "fsdp_workers.py", "_build_rollout", "FSDPWorker")
    rollout_checks = [
        s for s in rollout.body if isinstance(s, ast.Assign) and "init_device_mesh" not in ast.unparse(s)
    ][:2] + [s for s in rollout.body if isinstance(s, ast.If) and _raises(s)][:1]
    reward = _function(SOURCE / "workers" / "reward" / "function.py", "__init__", "AutoRewardManager")
    reward_checks = [s for s in reward.body if isinstance(s, ast.If) and _raises(s)][:2]
    assert len(trainer_checks) >= 6 and len(mesh_checks) >= 4 and len(rollout_checks) == 3 and len(reward_checks) == 2
    return {
        "trainer": _compiled(trainer_checks, "self, config", namespace),
        "mesh": _compiled(mesh_checks, "self, config, role, world_size", namespace),
        "rollout": _compiled(rollout_checks, "self", namespace),
        "reward": _compiled(reward_checks, "self, config, tokenizer", namespace),
    }


def overrides_of(launch: str) -> list[str]:
    """The ``key=value`` words after ``-m verl.trainer.main`` (the script's ``"$@"`` is the user's, left out)."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if ENTRY in argv:
            words = [w for w in argv[argv.index(ENTRY) + 1 :] if not SYMBOLIC.fullmatch(w) and w != "$@"]
            assert all("=" in w for w in words), words
            return words
    raise AssertionError(f"no {ENTRY} command in:\n{launch}")


def load(directory: Path, overrides: list[str]) -> Any:
    """``verl.trainer.main.main()``'s loading of the config, up to ``deep_post_init()`` (module docstring)."""
    cli_args = OmegaConf.from_cli(overrides)
    default_config = OmegaConf.structured(ppo_config_class()())
    config_path = cli_args.pop("config", None)
    assert config_path is not None, "the launch line names no config file"
    default_config = OmegaConf.merge(default_config, OmegaConf.load(directory / config_path))
    config = OmegaConf.to_object(OmegaConf.merge(default_config, cli_args))
    with contextlib.redirect_stdout(io.StringIO()):  # get_abs_path prints about files it does not find
        config.deep_post_init()
    return config


PATH_KEYS = (
    ("data", "format_prompt"),
    ("data", "override_chat_template"),
    ("data", "image_dir"),
    ("worker.reward", "reward_function"),
)  # the keys post_init passes through get_abs_path


def written_path(written: Any, section: str, key: str) -> str | None:
    value = OmegaConf.select(written, f"{section}.{key}")
    if value is None:
        return None
    return str(value).rsplit(":", 1)[0] if key == "reward_function" and ":" in str(value) else str(value)


def run_directory(where: Path, case: Case, written: Any) -> list[str]:
    """The EasyR1 root stand-in (module docstring); returns the overrides that point an absolute path the source
    names on the user's machine at a stand-in here."""
    shutil.copytree(ROOT / "examples", where / "examples")
    moved = []
    for section, key in PATH_KEYS:
        path = written_path(written, section, key)
        if path is None or "${" in path or (where / path).exists():
            continue
        target = where / "user" / path.lstrip("/") if Path(path).is_absolute() else where / path
        target.parent.mkdir(parents=True, exist_ok=True)
        beside = (case.path.parent if case.path.is_file() else case.path) / path
        if beside.is_file():
            shutil.copy(beside, target)
        else:
            target.write_text("def main(reward_inputs):\n    return [{'overall': 0.0} for _ in reward_inputs]\n")
        if Path(path).is_absolute():
            value = str(OmegaConf.select(written, f"{section}.{key}"))
            moved.append(f"{section}.{key}={value.replace(path, str(target), 1)}")
    return moved


def run_checks(config: Any) -> None:
    """EasyR1's checks before any GPU work, as the trainer and the workers make them."""
    checks = start_up_checks()
    trainer = types.SimpleNamespace()
    checks["trainer"](trainer, config)
    world = config.trainer.n_gpus_per_node * config.trainer.nnodes
    worker = types.SimpleNamespace(config=config.worker, print_rank0=lambda *_: None, world_size=world)
    checks["mesh"](worker, config.worker.actor, "actor", world)
    if trainer.use_critic:
        checks["mesh"](worker, config.worker.critic, "critic", world)
    checks["rollout"](worker)
    checks["reward"](None, config.worker.reward, None)


@pytest.mark.parametrize("case", [c for c in CASES if has_group(c)], ids=case_id)
def test_written_config_loads_and_passes_easyr1s_checks(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        translation = translate(case.path, to=f"easyr1@{VERSION}", **case.load_kwargs())
    except ConfigError as error:
        if "number of training processes is unknown" in str(error):
            pytest.skip(f"nothing is emitted: {error}")
        raise
    written = tmp_path / "written"
    written.mkdir()
    for name, text in translation.files.items():
        (written / name).write_text(text)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    overrides = overrides_of(translation.files["launch.sh"])
    stated = OmegaConf.merge(OmegaConf.load(written / "config.yaml"), OmegaConf.from_cli(overrides))
    run = tmp_path / "run"
    run.mkdir()
    overrides += run_directory(run, case, stated)
    monkeypatch.chdir(run)  # "run it from the EasyR1 repository root" (the written launch.sh)
    config = load(written, overrides)
    for section, key in PATH_KEYS:  # a path the config names resolves (get_abs_path leaves None otherwise)
        if written_path(stated, section, key) is not None:
            assert getattr(OmegaConf.select(OmegaConf.structured(config), section), key) is not None, (section, key)

    if config.worker.reward.reward_function is None:  # the user adds one, as the error note says
        assert "reward.missing" in {n.code for n in translation.notes}
        assert translation.failed
        with pytest.raises(ValueError, match=r"Reward function is not provided."):
            start_up_checks()["reward"](None, config.worker.reward, None)
        config = load(written, [*overrides, f"worker.reward.reward_function={DEFAULT_REWARD}"])
    run_checks(config)

    # The loaded config (after EasyR1's own post-init and the worker's × n) holds the plan rlconf read back.
    plan = translation.plan
    actor, n = config.worker.actor, config.worker.rollout.n
    assert n == plan["samples_per_prompt"]
    assert config.data.rollout_batch_size == plan["prompts_per_step"]
    assert config.data.rollout_batch_size * n == plan["samples_per_step"]
    assert actor.global_batch_size == plan["samples_per_optimizer_step"]  # multiplied by n in _init_dist_mesh
    assert actor.ppo_epochs == plan["epochs_per_step"]
    world = config.trainer.n_gpus_per_node * config.trainer.nnodes
    assert world // actor.ulysses_size == plan["data_parallel_size"]
    # Each epoch splits the step's samples into mini-batches of global_batch_size (ray_trainer's update loop).
    assert Fraction(plan["optimizer_steps_per_step"]) == actor.ppo_epochs * Fraction(
        config.data.rollout_batch_size * n, actor.global_batch_size
    )
    if not actor.dynamic_batching:
        assert actor.micro_batch_size_per_device_for_update == plan["micro_batch_per_device"]
