"""A key the release's parser refuses: explain and translate refuse the file (translator/dialects/rejected_keys.py)
only where the launch runs that release's own code; check reports it as a finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import translator

ROOT = Path(__file__).resolve().parent.parent
OPENRLHF = ROOT / "fixtures" / "openrlhf" / "reinforce_baseline_lr_horizon_v072.sh"


def _project(root: Path, extra: str, pin: str = "openrlhf==0.7.2\n") -> Path:
    """A project (its top marked by .git) with requirements.txt and run.sh: the fixture's launch plus ``extra``."""
    (root / ".git").mkdir(parents=True)
    (root / "requirements.txt").write_text(pin)
    text = OPENRLHF.read_text().rstrip("\n") + f" \\\n   {extra}\n"
    (root / "run.sh").write_text(text)
    return root / "run.sh"


def test_a_flag_the_pinned_release_lacks_stops_the_read(tmp_path: Path) -> None:
    # openrlhf 0.7.2 (the pin), no copy of openrlhf in the project: train_ppo_ray's argparse stops with
    # "unrecognized arguments: --rollout_batch_sizes", so no plan is stated; the message names the closest flag
    script = _project(tmp_path, "--rollout_batch_sizes 8")
    with pytest.raises(translator.ConfigError, match="--rollout_batch_sizes") as error:
        translator.explain(str(script))
    assert "did you mean --rollout_batch_size?" in str(error.value) and error.value.key == "rollout_batch_sizes"
    with pytest.raises(translator.ConfigError):
        translator.translate(str(script), to="verl")
    # check reports it instead, with its fix
    report = translator.check(translator.load(str(script)))
    assert any("rollout_batch_sizes" in f.keys for f in report.errors)


def test_a_project_with_its_own_copy_keeps_a_warning(tmp_path: Path) -> None:
    # the project holds openrlhf/cli/train_ppo_ray.py: the launch may run that copy, whose flags may differ
    script = _project(tmp_path, "--rollout_batch_sizes 8")
    (tmp_path / "openrlhf" / "cli").mkdir(parents=True)
    (tmp_path / "openrlhf" / "cli" / "train_ppo_ray.py").write_text("# the project's copy\n")
    explanation = translator.explain(str(script))
    assert "keys.unknown" in {n.code for n in explanation.notes}


def test_a_framework_installed_from_a_branch_keeps_a_warning(tmp_path: Path) -> None:
    # uv installs openrlhf from a fork's branch: its parser may take flags no release has
    script = _project(
        tmp_path,
        "--env_file envs.json",
        pin='[tool.uv.sources]\nopenrlhf = { git = "https://github.com/someone/OpenRLHF-fork", branch = "main" }\n',
    )
    (tmp_path / "requirements.txt").rename(tmp_path / "pyproject.toml")
    explanation = translator.explain(str(script))
    assert "keys.unknown" in {n.code for n in explanation.notes}


def test_a_trl_flag_no_argument_class_declares_stops_every_release(tmp_path: Path) -> None:
    # HfArgumentParser's parse_args_into_dataclasses raises on a command-line argument no dataclass declares in
    # every TRL release, while TrlParser <= 0.18 drops an unknown recipe key: the flag is refused, the key kept
    source = ROOT / "fixtures" / "trl" / "sweep_over_configs"
    shutil.copytree(source, tmp_path / "p")
    (tmp_path / "p" / ".git").mkdir()
    (tmp_path / "p" / "requirements.txt").write_text("trl==0.18.0\n")
    # Open-R1's script: its parser takes its own GRPOScriptArguments and TRL's classes, nothing else
    (tmp_path / "p" / "src" / "open_r1").mkdir(parents=True)
    (tmp_path / "p" / "src" / "open_r1" / "grpo.py").write_text(
        "from dataclasses import dataclass\n\nfrom trl import GRPOConfig, GRPOTrainer, ModelConfig, ScriptArguments, "
        "TrlParser\n\n\n@dataclass\nclass GRPOScriptArguments(ScriptArguments):\n"
        "    reward_funcs: list | None = None\n\n\n"
        "def main(script_args, training_args, model_args):\n    GRPOTrainer(model=model_args.model_name_or_path, "
        "args=training_args).train()\n\n\nif __name__ == '__main__':\n"
        "    main(*TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig)).parse_args_and_config())\n"
    )
    launch = tmp_path / "p" / "launch.sh"
    launch.write_text(launch.read_text().replace('--config "$CONFIG_FILE"', '--config "$CONFIG_FILE" --max_pixel 9'))
    with pytest.raises(translator.ConfigError, match="max_pixel"):
        translator.explain(str(launch))
    launch.write_text(launch.read_text().replace(" --max_pixel 9", ""))
    recipe = tmp_path / "p" / "configs" / "lr_1.0e-06.yaml"
    recipe.write_text(recipe.read_text() + "max_pixel: 9\n")
    assert "keys.unknown" in {n.code for n in translator.explain(str(launch)).notes}
