"""A launch whose own code imports a module the project does not have stops at start-up (ModuleNotFoundError):
rlconf refuses it (exit 2) naming the import, where that is certain (translator/sources/code.py
``Project.missing_import``): the package is the project's own, found where Python looks first, and the import runs
unconditionally at the top of a file the launch runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from translator.cli import main
from translator.sources.code import Project

LAUNCH = """\
python3 -m mylab.trainer.main_ppo \\
    data.train_batch_size=32 \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \\
    trainer.n_gpus_per_node=8 trainer.nnodes=1
"""


def _project(root: Path, trainer_imports: str) -> Path:
    """A project (top marked by .git) with its own package mylab: main_ppo imports mylab.trainer.ray_trainer
    at its top, and ray_trainer's top holds ``trainer_imports``; mylab/trainer/algos/ is a package holding
    core.py; mylab/trainer/__init__.py defines the name ``helpers``."""
    (root / ".git").mkdir(parents=True)
    trainer = root / "mylab" / "trainer"
    (trainer / "algos").mkdir(parents=True)
    (root / "mylab" / "__init__.py").write_text("")
    (trainer / "__init__.py").write_text("helpers = None\n")
    (trainer / "algos" / "__init__.py").write_text("")
    (trainer / "algos" / "core.py").write_text("def score():\n    return 0\n")
    (trainer / "main_ppo.py").write_text(
        "import hydra\n\nfrom mylab.trainer.ray_trainer import Trainer\n\n\ndef main():\n    Trainer()\n"
    )
    (trainer / "ray_trainer.py").write_text(f"import os\n{trainer_imports}\n\n\nclass Trainer:\n    pass\n")
    (root / "run.sh").write_text(LAUNCH)
    return root / "run.sh"


def test_a_module_missing_from_the_project_stops_the_launch(tmp_path: Path) -> None:
    # ray_trainer.py line 2 imports rewards from mylab.trainer.algos: algos/ is a regular package without
    # rewards.py and its __init__.py defines no such name, so Python raises ImportError before training
    script = _project(tmp_path, "from mylab.trainer.algos import core, rewards")
    with pytest.raises(translator.ConfigError, match=r"imports rewards from mylab\.trainer\.algos") as error:
        translator.explain(str(script), framework="verl")
    assert error.value.file == "mylab/trainer/ray_trainer.py" and error.value.line == 2
    result = CliRunner().invoke(main, ["explain", str(script), "--from", "verl"])
    assert result.exit_code == 2 and "ImportError" in result.output


def test_a_name_a_module_of_the_project_lacks_stops_the_launch(tmp_path: Path) -> None:
    # algos/core.py defines score only: `from mylab.trainer.algos.core import score_npu` raises ImportError
    script = _project(tmp_path, "from mylab.trainer.algos.core import score, score_npu")
    with pytest.raises(translator.ConfigError, match=r"imports score_npu from mylab\.trainer\.algos\.core") as error:
        translator.explain(str(script), framework="verl")
    assert error.value.file == "mylab/trainer/ray_trainer.py" and error.value.line == 2


@pytest.mark.parametrize("supplier", ["def __getattr__(name):\n    return name\n", "from os.path import *\n"])
def test_a_module_that_may_supply_any_name_is_not_judged(tmp_path: Path, supplier: str) -> None:
    # a module-level __getattr__ or a star import can give score_npu: the plan is read (32 × 4 = 128 samples)
    script = _project(tmp_path, "from mylab.trainer.algos.core import score_npu")
    core = tmp_path / "mylab" / "trainer" / "algos" / "core.py"
    core.write_text(core.read_text() + supplier)
    assert translator.explain(str(script), framework="verl").spec.plan.samples_per_step == 128


@pytest.mark.parametrize(
    "imports",
    [
        "from mylab.trainer.algos import core",  # a module that exists
        "from mylab.trainer import helpers",  # a name the package's __init__.py defines
        "from .algos.core import score",  # relative, to a module that exists
        "try:\n    from mylab.trainer.algos import rewards\nexcept ImportError:\n    rewards = None",  # guarded
        "def later():\n    from mylab.trainer.algos import rewards",  # imported only when called
        "from vendored_elsewhere.algos import rewards",  # not a package of the project: may be installed
    ],
)
def test_imports_that_resolve_or_may_resolve_are_not_judged(tmp_path: Path, imports: str) -> None:
    # the plan is then read: 32 prompts × n 4 = 128 samples per step; verl's ppo_mini_batch_size counts prompts,
    # so an update holds 16 × 4 = 64 samples and the step makes 128 / 64 = 2 optimizer steps
    script = _project(tmp_path, imports)
    plan = translator.explain(str(script), framework="verl").spec.plan
    assert plan.samples_per_step == 128
    assert plan.samples_per_optimizer_step == 64 and plan.optimizer_steps_per_step == 2


def test_a_package_that_extends_its_path_is_not_judged(tmp_path: Path) -> None:
    # pkgutil.extend_path lets modules come from other folders on sys.path: rlconf cannot see them all
    _project(tmp_path, "from mylab.trainer.algos import rewards")
    (tmp_path / "mylab" / "trainer" / "algos" / "__init__.py").write_text(
        "from pkgutil import extend_path\n__path__ = extend_path(__path__, __name__)\n"
    )
    project = Project(str(tmp_path), str(tmp_path))
    assert project.missing_import(str(tmp_path / "mylab" / "trainer" / "main_ppo.py"), "mylab.trainer.main_ppo") is None


def test_a_compiled_module_counts_as_present(tmp_path: Path) -> None:
    # an extension module (rewards.cpython-311-x86_64-linux-gnu.so) is importable like a .py
    _project(tmp_path, "from mylab.trainer.algos import rewards")
    (tmp_path / "mylab" / "trainer" / "algos" / "rewards.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    project = Project(str(tmp_path), str(tmp_path))
    assert project.missing_import(str(tmp_path / "mylab" / "trainer" / "main_ppo.py"), "mylab.trainer.main_ppo") is None


ABSENT_ENTRY = """\
deepspeed --module openrlhf.cli.train_grpo \\
    --pretrain Qwen/Qwen2.5-0.5B --rollout_batch_size 64 --n_samples_per_prompt 4 --train_batch_size 64 \\
    --micro_train_batch_size 4 --advantage_estimator group_norm --prompt_data data.jsonl
"""


def test_a_framework_module_no_release_has_stops_the_launch(tmp_path: Path) -> None:
    # openrlhf/cli of every release 0.4.3 – 0.11.2 holds no train_grpo (the wheels' RECORD), and the project has
    # no openrlhf package: `python -m openrlhf.cli.train_grpo` stops with "No module named ..."
    (tmp_path / ".git").mkdir()
    (tmp_path / "run.sh").write_text(ABSENT_ENTRY)
    with pytest.raises(translator.ConfigError, match=r"No module named openrlhf\.cli\.train_grpo") as error:
        translator.explain(str(tmp_path / "run.sh"), framework="openrlhf@0.7.3")
    assert error.value.line == 1
    # the project's own copy holding the module: a fork's entry, read with train_ppo_ray's semantics
    cli = tmp_path / "openrlhf" / "cli"
    cli.mkdir(parents=True)
    for init in (tmp_path / "openrlhf" / "__init__.py", cli / "__init__.py", cli / "train_grpo.py"):
        init.write_text("")
    explanation = translator.explain(str(tmp_path / "run.sh"), framework="openrlhf@0.7.3")
    assert "framework.fork" in {n.code for n in explanation.notes}


def test_a_script_path_the_cd_target_does_not_hold_stops_the_launch(tmp_path: Path) -> None:
    # `cd src/app` then `torchrun src/app/train.py`: the path is read from src/app, where src/app/src/app/train.py
    # does not exist (the project holds src/app/train.py only): torchrun's worker cannot open the file
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "app").mkdir(parents=True)
    (tmp_path / "src" / "app" / "train.py").write_text(
        "from trl import GRPOConfig, GRPOTrainer\n\nargs = GRPOConfig(output_dir='o', num_generations=4)\n"
    )
    flags = "--per_device_train_batch_size 4 --num_generations 4"
    (tmp_path / "broken.sh").write_text(f"cd src/app\ntorchrun --nproc_per_node 2 src/app/train.py {flags}\n")
    with pytest.raises(translator.ConfigError, match=r"changes into src/app and then runs src/app/train\.py"):
        translator.explain(str(tmp_path / "broken.sh"))
    # the same launch with the path relative to the folder it changes into reads
    (tmp_path / "fine.sh").write_text(f"cd src/app\ntorchrun --nproc_per_node 2 train.py {flags}\n")
    assert translator.explain(str(tmp_path / "fine.sh")).spec.plan.samples_per_prompt == 4
