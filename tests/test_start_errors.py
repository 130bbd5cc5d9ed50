"""A config the release's own start-up checks stop: explain refuses it (exit 2) where that is certain
(translator/api.py ``start_errors``), translate says so in an error note; check reports it as a finding with its
fixes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from translator.cli import main
from translator.dialects.rejected_keys import line_of
from translator.rules import catalogue

ROOT = Path(__file__).resolve().parent.parent
OPENRLHF = ROOT / "fixtures" / "openrlhf" / "reinforce_baseline_lr_horizon_v072.sh"
ONE_SAMPLE = "--n_samples_per_prompt 1"


def _project(root: Path, extra: str = ONE_SAMPLE, pin: str = "openrlhf==0.7.2\n") -> Path:
    """A project (its top marked by .git) with requirements.txt and run.sh: the fixture's launch, whose
    --advantage_estimator is reinforce_baseline, with ``extra`` appended to its command line (argparse keeps the
    last value of a repeated flag)."""
    (root / ".git").mkdir(parents=True)
    (root / "requirements.txt").write_text(pin)
    (root / "run.sh").write_text(OPENRLHF.read_text().rstrip("\n") + f" \\\n   {extra}\n")
    return root / "run.sh"


def test_a_group_estimator_with_one_sample_stops_the_read(tmp_path: Path) -> None:
    # openrlhf 0.7.2's train_ppo_ray asserts n_samples_per_prompt > 1 for reinforce_baseline (a group baseline:
    # with one sample every advantage is 0) before any actor starts: no plan is stated, the fix is named
    script = _project(tmp_path)
    with pytest.raises(translator.ConfigError, match="n_samples_per_prompt > 1") as error:
        translator.explain(str(script))
    assert "openrlhf.group-estimator-needs-samples" in str(error.value)
    assert "n_samples_per_prompt=2" in str(error.value)
    # translate writes the files but says the source never starts (an error note: exit 1)
    translation = translator.translate(str(script), to="verl")
    assert "input.stops-at-start" in {n.code for n in translation.notes if n.severity == "error"}
    assert translation.failed
    # check reports it as an error finding (exit 1), explain as bad input (exit 2)
    report = translator.check(str(script))
    assert [f.rule for f in report.errors] == ["openrlhf.group-estimator-needs-samples"]
    assert CliRunner().invoke(main, ["explain", str(script)]).exit_code == 2
    assert CliRunner().invoke(main, ["check", str(script)]).exit_code == 1


def test_the_same_config_with_two_samples_is_read(tmp_path: Path) -> None:
    # the control: groups of 2 → rollout_batch_size 100 × 2 = 200 samples per step
    explanation = translator.explain(str(_project(tmp_path, "--n_samples_per_prompt 2")))
    assert explanation.spec.plan.samples_per_step == 200


def test_a_project_copy_of_the_framework_is_read_with_the_check_as_a_finding(tmp_path: Path) -> None:
    # the project holds openrlhf/cli/train_ppo_ray.py: the launch may run that copy, whose checks may differ
    script = _project(tmp_path)
    (tmp_path / "openrlhf" / "cli").mkdir(parents=True)
    (tmp_path / "openrlhf" / "cli" / "train_ppo_ray.py").write_text("# the project's copy\n")
    explanation = translator.explain(str(script))
    assert explanation.spec.plan.samples_per_prompt == 1
    assert [f.rule for f in translator.check(str(script)).errors] == ["openrlhf.group-estimator-needs-samples"]


def test_a_silenced_rule_is_not_refused(tmp_path: Path) -> None:
    script = _project(tmp_path)
    script.write_text(script.read_text() + "# rlconf: ignore-file[openrlhf.group-estimator-needs-samples]\n")
    assert translator.explain(str(script)).spec.plan.samples_per_prompt == 1


def test_an_error_that_depends_on_the_uncertain_release_is_not_refused(tmp_path: Path) -> None:
    # EasyR1's reward-function check raises at start-up from 0.3.0; with no --from and no pin the release is
    # inferred from the keys, which 0.2.x also has (where a missing reward function was no start-up error), so
    # the plan is stated and check carries the per-release verdict
    fixture = ROOT / "fixtures" / "easyr1" / "v032_no_reward_function.sh"
    explanation = translator.explain(str(fixture))
    assert "version.assumed" in {n.code for n in explanation.notes}
    assert "easyr1.reward-missing" in {f.rule for f in translator.check(str(fixture)).errors}


def test_a_stated_release_makes_the_same_error_certain() -> None:
    # with --from easyr1@0.3.2 the release is stated: workers/reward/function.py@v0.3.2 raises "Reward function
    # is not provided." when the trainer starts
    fixture = ROOT / "fixtures" / "easyr1" / "v032_no_reward_function.sh"
    with pytest.raises(translator.ConfigError, match="Reward function is not provided"):
        translator.explain(str(fixture), framework="easyr1@0.3.2")


def test_marked_rules_are_errors_of_checks() -> None:
    # a mark on a rule that can never be an error (or is a note) would refuse nothing, or refuse on a warning
    marked = [rule for rule in catalogue() if rule.at_start]
    assert marked and all(rule.kind == "check" and "error" in rule.severities for rule in marked)
    codes = {rule.code for rule in marked}
    # value ranges and unknown keys are not start-up marks (the first are rlconf's ranges, the second go through
    # translator/dialects/rejected_keys.py with conditions of their own)
    assert not {c for c in codes if c.endswith(("-range", "unknown-key", "unknown-flag"))} - {
        "openrlhf.dynamic-filtering-range",
        "trl.vllm-is-clip-range",
        "openrlhf.dual-clip-range",
    }


SKYRL = ROOT / "fixtures" / "skyrl" / "gsm8k_colocated_4gpu_v030.sh"
PLUS_MESSAGE = (
    "The '+' prefix for adding new config fields is not supported: '{arg}'. "
    "To add custom config fields, subclass the relevant config dataclass."
)


def _skyrl_repository(root: Path, keeps_check: bool) -> Path:
    """A SkyRL repository (a fork of it: the package kept in the project, its top marked by .git) whose launch
    appends +trainer.my_knob=1; its config module holds SkyRL's own '+'-prefix check or not."""
    (root / ".git").mkdir(parents=True)
    (root / "skyrl" / "train" / "entrypoints").mkdir(parents=True)
    (root / "skyrl" / "train" / "config").mkdir(parents=True)
    (root / "skyrl" / "train" / "entrypoints" / "main_base.py").write_text("# the project's copy\n")
    check = f'        raise ValueError(f"{PLUS_MESSAGE}")\n' if keeps_check else "        pass\n"
    (root / "skyrl" / "train" / "config" / "config.py").write_text(
        "def from_cli_overrides(args):\n    for arg in args:\n" + "      if arg.startswith('+'):\n" + check
    )
    script = root / "run.sh"
    script.write_text(SKYRL.read_text().rstrip("\n") + " \\\n  +trainer.my_knob=1\n")
    return script


def test_a_copy_that_keeps_the_check_stops_the_read(tmp_path: Path) -> None:
    # skyrl/train/config/config.py (from_cli_overrides) raises on an argument starting with '+': the fork's own
    # copy holds the same message, so its launch stops there too
    script = _skyrl_repository(tmp_path, keeps_check=True)
    with pytest.raises(translator.ConfigError, match="'\\+' prefix") as error:
        translator.explain(str(script))
    assert "skyrl/train/config/config.py:4" in str(error.value)


def test_a_copy_without_the_check_is_read(tmp_path: Path) -> None:
    # the copy's from_cli_overrides takes '+' arguments: its own code may add the key, so the plan is stated
    # (256 prompts × 8 = 2048 samples, as the fixture's derivation) and check still reports SkyRL's rule
    script = _skyrl_repository(tmp_path, keeps_check=False)
    assert translator.explain(str(script)).spec.plan.samples_per_step == 2048
    assert "skyrl.plus-prefix" in {f.rule for f in translator.check(str(script)).errors}


def test_a_message_written_over_lines_is_found() -> None:
    # SkyRL writes validate_batch_sizes' messages as string literals joined over lines
    # (skyrl/train/utils/utils.py@skyrl-v0.3.0: f"... should be divisible " then f"by ..."): read as one text, the
    # message starts on the assert's second line (line 2 here)
    code = (
        'assert ok, (\n    f"normalized size {x} should be divisible "\n'
        '    f"by micro_train_batch_size_per_gpu {y}"\n)\n'
    )
    assert line_of(code, "should be divisible by micro_train_batch_size_per_gpu") == 2
    assert line_of(code, "should be divisible by the world size") is None


def _easyr1_repository(root: Path, extra: str) -> Path:
    """A fork of EasyR1 (its verl package kept in the project) whose trainer keeps EasyR1's check that the rollout
    batch splits into whole global batches, and whose config takes a key of its own, data.train_batch_size, in
    place of rollout_batch_size (EasyR1's default 512 prompts)."""
    (root / ".git").mkdir(parents=True)
    trainer = root / "verl" / "trainer"
    trainer.mkdir(parents=True)
    (root / "verl" / "__init__.py").write_text("")
    (trainer / "__init__.py").write_text("")
    (trainer / "main.py").write_text(
        "from verl.trainer.config import PPOConfig\nfrom verl.trainer.ray_trainer import RayPPOTrainer\n"
    )
    (trainer / "config.py").write_text(
        "class DataConfig:\n    rollout_batch_size: int = 512\n\n    def post_init(self):\n"
        "        if self.train_batch_size is not None:\n            self.rollout_batch_size = self.train_batch_size\n"
        "\n\nclass PPOConfig:\n    data: DataConfig\n"
    )
    (trainer / "ray_trainer.py").write_text(
        "class RayPPOTrainer:\n    def __init__(self, config):\n"
        "        if config.data.rollout_batch_size % config.worker.actor.global_batch_size != 0:\n"
        '            raise ValueError("Rollout batch size must be divisible by actor global batch size.")\n'
    )
    script = root / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main worker.actor.global_batch_size=96 worker.rollout.n=4 "
        f"worker.reward.reward_function=./reward.py:score trainer.n_gpus_per_node=8 {extra}\n"
    )
    return script


def test_a_fork_whose_code_keeps_the_check_stops_the_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # EasyR1's default rollout_batch_size 512 % global_batch_size 96 = 32: ray_trainer.py raises, and the fork's
    # copy holds the same check (verl/trainer/ray_trainer.py:4)
    monkeypatch.chdir(tmp_path)
    script = _easyr1_repository(tmp_path, "")
    with pytest.raises(translator.ConfigError, match="Rollout batch size must be divisible") as error:
        translator.explain(str(script), framework="easyr1@0.3.2")
    assert "verl/trainer/ray_trainer.py:4" in str(error.value)


def test_a_fork_that_remaps_a_batch_key_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # data.train_batch_size 96 is the fork's own key, and its config sets rollout_batch_size from it
    # (verl/trainer/config.py:6): the check the fork keeps reads 96, not the 512 rlconf sees, so the file is read
    # (the prompts per step unknown: the fork's code decides them) and check reports EasyR1's rule
    monkeypatch.chdir(tmp_path)
    script = _easyr1_repository(tmp_path, "data.train_batch_size=96")
    explanation = translator.explain(str(script), framework="easyr1@0.3.2")
    assert explanation.spec.plan.prompts_per_step is None
    assert "framework.fork-batch-key" in {n.code for n in explanation.notes}


def test_a_copy_past_the_release_it_names_is_not_refused_on_that_release(tmp_path: Path) -> None:
    # An EasyR1 copy whose verl/__init__.py still says 0.3.0 but whose config uses worker.reward.reward_function
    # (a key from 0.3.1; 0.3.0 calls it score_function): read as 0.3.0 the reward is missing, which 0.3.0 raises
    # at start-up, and the copy keeps a "… function is not provided." check. But the config's 0.3.1 keys say the
    # copy is a snapshot past 0.3.0, whose own reward key is set: the plan is stated, check reports the error.
    (tmp_path / ".git").mkdir()
    package = tmp_path / "verl"
    (package / "trainer").mkdir(parents=True)
    (package / "workers" / "reward").mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "0.3.0"\n')
    (package / "trainer" / "main.py").write_text("def main():\n    pass\n")
    (package / "workers" / "reward" / "function.py").write_text(
        "def load(config):\n    if config.reward_function is None:\n"
        '        raise ValueError("Reward function is not provided.")\n'
    )
    config = (ROOT / "fixtures" / "easyr1" / "head_rpp_kl_reward_static.yaml").read_text()
    (tmp_path / "config.yaml").write_text(config)
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main config=config.yaml\n")
    explanation = translator.explain(str(script))
    assert explanation.version == "0.3.0"
    # 64 prompts × n 4 = 256 samples per step (the fixture's derivation)
    assert explanation.spec.plan.samples_per_step == 256
    assert "easyr1.reward-missing" in {f.rule for f in translator.check(str(script)).errors}
