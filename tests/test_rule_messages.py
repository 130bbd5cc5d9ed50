"""The messages of the rules marked ``at_start``: each is the framework's own error text, found in its source, so
that a copy of the framework kept in a project is refused only while its code still holds the check
(translator/dialects/rejected_keys.py ``kept_by_own_code``, translator/api.py ``start_errors``)."""

from __future__ import annotations

import importlib.util
import os
import shutil
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from translator.cli import main
from translator.dialects.rejected_keys import MIN_KEPT_TEXT, fixed_text, line_of
from translator.rule_info import RuleInfo
from translator.rules import catalogue

ROOT = Path(__file__).resolve().parent.parent
AT_START = [rule for rule in catalogue() if rule.at_start]

# Packages other than the framework whose text a rule quotes (RuleInfo ``message_from``).
OTHER_PACKAGES = {"argparse", "deepspeed", "megatron", "omegaconf", "python", "transformers"}

# The framework's own text holds no fixed part of MIN_KEPT_TEXT characters: a copy cannot be told by it.
NO_SPECIFIC_TEXT = {
    "verl.loss-agg-mode": "'Invalid loss_agg_mode: {…}' has 22 characters of fixed text",
    "verl.trainer-mode": "'Unknown trainer '{…}'. Available trainers: {…}.' has at most 19 between values",
    "open-instruct.gtrl-rollout-divisible": "exact_div's generic ', inexact division: …' (the call passes no text)",
}

# Texts of releases the oracle sources named below do not hold (each checked by hand at the release named).
NOT_IN_THE_ORACLE = {
    "verl.micro-batch-divides-mini": "fsdp_workers.py of 0.4.1 – 0.7.1; 0.9.1's engine workers word it otherwise",
    "verl.mini-batch-zero": "fsdp_workers.py up to 0.7.1, the rule's last release",
    "verl.mini-batch-dp-divisible": "engine_workers.py writes a self-documenting f-string ({mini_batch_size=}): the "
    "raised text is not in the source as written",
    "openrlhf.actor-power-of-two": "train_ppo_ray.py of 0.5.0 – 0.5.5",
    "openrlhf.critic-power-of-two": "train_ppo_ray.py of 0.5.0 – 0.5.5",
    "nemo-rl.async-not-colocated": "grpo.py of v0.4.0 – v0.7.0; later commits allow colocated async generation",
    "open-instruct.group-size": "grpo_fast.py until 2025-04-24",
    "open-instruct.gtrl-mini-batch-divisible": "the gtrl scripts, removed in May 2025",
    "slime.rollout-multiple-of-gbs": "slime/utils/arguments.py up to v0.2.1",
    "trl.vllm-device-available": "grpo_trainer.py of 0.14.0 (line 294) and 0.15.2 (line 383); from 0.16.0 nothing "
    "reads vllm_device",
}


def test_every_start_rule_has_a_text_a_copy_can_be_told_by() -> None:
    # a rule with no message, or one too short to pick out one check, never refuses a project's copy that keeps it
    untold = [
        rule.code
        for rule in AT_START
        if not rule.message_from and len(fixed_text(rule.message)) < MIN_KEPT_TEXT and rule.code not in NO_SPECIFIC_TEXT
    ]
    assert untold == []
    assert {rule.message_from for rule in AT_START} - {""} <= OTHER_PACKAGES
    # another package's text is still quoted where the rule has one; the exceptions are at-start rules, really short
    exceptions = {rule.code: rule for rule in AT_START if rule.code in NO_SPECIFIC_TEXT}
    assert set(exceptions) == set(NO_SPECIFIC_TEXT)
    assert all(not r.message_from and 0 < len(fixed_text(r.message)) < MIN_KEPT_TEXT for r in exceptions.values())
    assert set(NOT_IN_THE_ORACLE) <= {rule.code for rule in AT_START if not rule.message_from}


def _installed(package: str) -> list[Path]:
    spec = importlib.util.find_spec(package)
    return [Path(spec.origin).parent] if spec is not None and spec.origin else []


def _sources(framework: str) -> list[Path]:
    """The folders holding the framework's own code on this machine: the oracle sources the rest of the suite
    uses (the unpacked releases under $RLCONF_ORACLE_DIR, the checkouts named by RLCONF_*_SRC), else an install."""
    oracle = os.environ.get("RLCONF_ORACLE_DIR")
    checkouts = {
        "easyr1": "RLCONF_EASYR1_SRC",
        "open-instruct": "RLCONF_OPEN_INSTRUCT_SRC",
        "nemo-rl": "RLCONF_NEMO_RL_SRC",
        "slime": "RLCONF_SLIME_SRC",
        "miles": "RLCONF_MILES_SRC",
        "skyrl": "RLCONF_SKYRL_PATH",
    }
    if framework in checkouts:
        where = os.environ.get(checkouts[framework], "").split(os.pathsep)[0]
        return [Path(where)] if where and Path(where).is_dir() else []
    if framework in ("verl", "openrlhf"):
        unpacked = sorted(Path(oracle).glob(f"{framework}-*")) if oracle else []
        return unpacked or _installed(framework)
    return _installed(framework)  # trl, unsloth


@cache
def _texts(framework: str) -> tuple[str, ...]:
    return tuple(
        path.read_text(encoding="utf-8", errors="replace")
        for folder in _sources(framework)
        for path in folder.rglob("*.py")
        if path.is_file() and not {"__pycache__", "tests", "test"} & set(path.relative_to(folder).parts)
    )


def _own(rule: RuleInfo) -> bool:
    return not rule.message_from and len(fixed_text(rule.message)) >= MIN_KEPT_TEXT


@pytest.mark.parametrize("framework", sorted({rule.framework for rule in AT_START}))
def test_each_own_message_is_in_the_framework_source(framework: str) -> None:
    rules = [r for r in AT_START if r.framework == framework and _own(r) and r.code not in NOT_IN_THE_ORACLE]
    if not rules:
        pytest.skip(f"{framework} has no at-start rule with a text of its own that the oracle holds")
    if not _sources(framework):
        pytest.skip(f"{framework}'s source is not on this machine (RLCONF_* oracle variables, or an install)")
    texts = [text for text in _texts(framework) if text]
    # the fixed text as kept_by_own_code reads a copy: string literals joined over lines, '+' or on one line
    missing = [r.code for r in rules if not any(line_of(text, fixed_text(r.message)) for text in texts)]
    assert missing == [], f"not in {', '.join(map(str, _sources(framework)))}"


def test_literals_joined_by_plus_or_on_one_line_are_one_text() -> None:
    # verl's core_algos.py@v0.9.1 joins the dual-clip message with '+' over two lines; slime's arguments.py@v0.3.1
    # concatenates two literals on one line: the text starts on line 2 of the first, line 1 of the second
    plus = 'assert c > 1.0, (\n    "should be greater than 1.0,"\n    + f" but get the value: {c}."\n)\n'
    assert line_of(plus, "should be greater than 1.0, but get the value:") == 2
    same_line = 'assert ok, (\n    "num_epoch is not set, " "please set --num-rollout"\n)\n'
    assert line_of(same_line, "is not set, please set --num-rollout") == 2
    assert line_of('x = "is not set, "\ny = 1\n"please"\n', "is not set, please") is None


COPY = ROOT / "tests" / "data" / "forks" / "openrlhf_group_check"
GROUP_TEXT = ', f"{args.advantage_estimator} requires n_samples_per_prompt > 1"'


def _copy_project(root: Path, keeps_text: bool) -> Path:
    """The fixture project (its top marked by .git here: a project's copy under tests/ is taken for test data),
    with the group assert of its openrlhf/cli/train_ppo_ray.py keeping its message or a bare assert."""
    shutil.copytree(COPY, root, dirs_exist_ok=True)
    (root / ".git").mkdir()
    launcher = root / "openrlhf" / "cli" / "train_ppo_ray.py"
    assert GROUP_TEXT in launcher.read_text()
    if not keeps_text:
        launcher.write_text(launcher.read_text().replace(GROUP_TEXT, ""))
    return root / "run.sh"


def test_a_copy_keeping_the_group_assert_is_refused_at_its_line(tmp_path: Path) -> None:
    # run.sh: --advantage_estimator group_norm with --n_samples_per_prompt 1 on the copy (version.txt 0.7.2, whose
    # train_ppo_ray asserts n > 1 for group_norm); the copy's assert is on line 8 of its train_ppo_ray.py
    result = CliRunner().invoke(main, ["explain", str(_copy_project(tmp_path, keeps_text=True))])
    assert result.exit_code == 2
    assert "openrlhf/cli/train_ppo_ray.py:8" in result.output
    assert "openrlhf.group-estimator-needs-samples" in result.output


def test_a_copy_without_the_group_text_is_read_with_the_error_note(tmp_path: Path) -> None:
    # the same project, its assert with no message: whether the copy keeps the check cannot be told, so the plan
    # is stated (64 prompts × 1 sample = 64 samples per step) with the error note
    script = _copy_project(tmp_path, keeps_text=False)
    assert CliRunner().invoke(main, ["explain", str(script)]).exit_code == 0
    explanation = translator.explain(str(script))
    assert explanation.spec.plan.samples_per_step == 64
    assert "algorithm.group-too-small" in {n.code for n in explanation.notes if n.severity == "error"}


def test_a_copy_holding_another_packages_text_is_not_refused(tmp_path: Path) -> None:
    # openrlhf.train-batch-divisible quotes DeepSpeed's batch assertion (message_from "deepspeed"): a copy of
    # OpenRLHF that happens to hold that text tells nothing of DeepSpeed's check, so no refusal. The batch:
    # --train_batch_size 60 over micro 4 × 4 ranks = 16 leaves 60 % 16 = 12; two samples per prompt keep the
    # group check quiet (the copy's assert is kept)
    script = _copy_project(tmp_path, keeps_text=True)
    deepspeed = next(r for r in AT_START if r.code == "openrlhf.train-batch-divisible")
    assert deepspeed.message_from == "deepspeed"
    (tmp_path / "openrlhf" / "cli" / "batch.py").write_text(f"MESSAGE = {fixed_text(deepspeed.message)!r}\n")
    text = script.read_text().replace("--n_samples_per_prompt 1", "--n_samples_per_prompt 2")
    script.write_text(text.replace("--train_batch_size 64", "--train_batch_size 60"))
    assert "openrlhf.train-batch-divisible" in {f.rule for f in translator.check(str(script)).errors}
    assert CliRunner().invoke(main, ["explain", str(script)]).exit_code == 0


def test_first_step_messages_are_in_the_framework_source() -> None:
    rules = [rule for rule in catalogue() if rule.first_step_message]
    assert [rule.code for rule in rules] == ["verl.real-batch-divisible"]
    assert all(len(fixed_text(rule.first_step_message)) >= MIN_KEPT_TEXT for rule in rules)
    if not _sources("verl"):
        pytest.skip("verl's source is not on this machine (RLCONF_ORACLE_DIR, or an install)")
    texts = [text for text in _texts("verl") if text]
    assert all(any(line_of(text, fixed_text(r.first_step_message)) for text in texts) for r in rules)


EARLY_VERL = ROOT / "tests" / "data" / "forks" / "verl_chunk_copy"


def _early_verl_copy(root: Path, keeps_assert: bool, prompts: int = 12) -> Path:
    """The early verl copy (version file 0.1, no validate_config; its DataProto.chunk asserts equal pieces on
    line 14), its top marked by .git, with ``prompts`` per step in run.sh."""
    shutil.copytree(EARLY_VERL, root, dirs_exist_ok=True)
    (root / ".git").mkdir()
    protocol = root / "verl" / "protocol.py"
    if not keeps_assert:
        protocol.write_text(protocol.read_text().replace("only support equal chunk", "pieces"))
    script = root / "run.sh"
    script.write_text(script.read_text().replace("train_batch_size=12", f"train_batch_size={prompts}"))
    return script


def test_an_early_copy_keeping_the_chunk_assert_is_refused_at_its_first_step(tmp_path: Path) -> None:
    # 12 prompts × rollout.n_agent 5 × rollout.n 1 = 60 samples over 7 GPUs: 60 % 7 = 4, and the copy's
    # DataProto.chunk asserts equal pieces where the step's samples are split over the workers
    result = CliRunner().invoke(main, ["explain", str(_early_verl_copy(tmp_path, keeps_assert=True))])
    assert result.exit_code == 2
    assert "stops on it at the first training step: verl/protocol.py:14" in result.output
    assert "the step's 60 samples do not split over 7 GPUs" in result.output


def test_an_early_copy_without_the_assert_is_read_with_the_error(tmp_path: Path) -> None:
    # the same run on a copy holding neither text: how it splits 60 samples over 7 ranks is not known, so the
    # plan is stated (12 × 5 = 60 samples per step) and check reports the error
    script = _early_verl_copy(tmp_path, keeps_assert=False)
    assert CliRunner().invoke(main, ["explain", str(script)]).exit_code == 0
    assert translator.explain(str(script)).spec.plan.samples_per_step == 60
    assert "verl.real-batch-divisible" in {f.rule for f in translator.check(str(script)).errors}


def test_n_agent_copies_count_in_the_split_and_in_the_group(tmp_path: Path) -> None:
    # 14 prompts × 5 copies = 70 samples split 10 per GPU over 7; the 5 copies of a prompt are one GRPO group
    # (do_search unset: the fork's default keeps the prompt's index), so a group is not of one sample
    script = _early_verl_copy(tmp_path, keeps_assert=True, prompts=14)
    assert CliRunner().invoke(main, ["explain", str(script)]).exit_code == 0
    report = translator.check(str(script))
    rules = {f.rule for f in report.errors + report.warnings}
    assert "verl.real-batch-divisible" not in rules and "verl.group-size-one" not in rules


EASYR1_LAUNCH = """\
python3 -m verl.trainer.main config=examples/config.yaml data.rollout_batch_size=64 worker.rollout.n=4 \\
    worker.actor.global_batch_size=32 algorithm.adv_estimator={estimator} trainer.n_gpus_per_node=8
"""


def _easyr1_copy(root: Path, estimators: str) -> Path:
    """A project keeping its own copy of EasyR1 (verl/__init__.py 0.3.2 beside verl/trainer/), whose trainer keeps
    the release's estimator check and whose core_algos names ``estimators``; config.yaml holds one key."""
    (root / ".git").mkdir(parents=True)
    trainer = root / "verl" / "trainer"
    trainer.mkdir(parents=True)
    (root / "verl" / "__init__.py").write_text('__version__ = "0.3.2"\n')
    (trainer / "__init__.py").write_text("")
    (trainer / "main.py").write_text("from verl.trainer.ray_trainer import RayPPOTrainer\n")
    (trainer / "ray_trainer.py").write_text(
        "from verl.trainer.core_algos import ESTIMATORS\n\n\nclass RayPPOTrainer:\n    def __init__(self, name):\n"
        '        if name not in ESTIMATORS:\n            raise ValueError(f"Unknown advantage estimator: {name}.")\n'
    )
    (trainer / "core_algos.py").write_text(f"ESTIMATORS = ({estimators})\n")
    (root / "examples").mkdir()
    (root / "examples" / "config.yaml").write_text("trainer:\n  project_name: copy\n")
    return root


def test_a_kept_check_on_a_value_the_copy_names_does_not_stop_the_launch(tmp_path: Path) -> None:
    # algorithm.adv_estimator=mbpo: EasyR1 0.3.2 has no such estimator and the copy keeps the check's text, but
    # the copy's own code names "mbpo" (its own estimator): whether it refuses it is not certain, so the plan is
    # read (64 prompts × 4 = 256 samples) and check still reports the release's error
    root = _easyr1_copy(tmp_path / "named", '"grpo", "mbpo"')
    (root / "run.sh").write_text(EASYR1_LAUNCH.format(estimator="mbpo"))
    assert translator.explain(str(root / "run.sh")).spec.plan.samples_per_step == 256
    # a copy that does not name it keeps the release's refusal
    other = _easyr1_copy(tmp_path / "plain", '"grpo", "rloo"')
    (other / "run.sh").write_text(EASYR1_LAUNCH.format(estimator="mbpo"))
    result = CliRunner().invoke(main, ["explain", str(other / "run.sh")])
    assert result.exit_code == 2 and "verl/trainer/ray_trainer.py:7" in result.output
