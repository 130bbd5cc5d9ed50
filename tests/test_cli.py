"""The rlconf command: outputs, exit codes 0/1/2, files, and one clear message for every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import FIXTURES, ROOT
from translator.cli import main

VERL = FIXTURES / "verl" / "grpo_fixed_micro_tp2.sh"
VERL_ARGS = ["--from", "verl@0.7.1", "--env", "HOME=/home/me"]
TRL = FIXTURES / "trl" / "openr1_server_zero2_g14" / "launch.sh"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def assert_input_error(args: list[str], *expected: str, stdin: str | None = None) -> str:
    code, out, err = run(*args, stdin=stdin)
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    assert err.count("\n") <= 2, "one clear message"
    for text in expected:
        assert text in err, (text, err)
    return err


def test_explain_text_states_units_and_derivations() -> None:
    code, out, _ = run("explain", VERL, *VERL_ARGS)
    assert code == 0
    # docs/frameworks/verl.md §1: ppo_mini_batch_size counts prompts and is multiplied by rollout.n.
    assert "1024 samples per optimizer step = ppo_mini_batch_size 128 prompts × rollout.n 8" in out
    assert "8 data-parallel ranks = n_gpus_per_node 8 × nnodes 1 GPUs ÷ Ulysses SP 1" in out


def test_explain_json_has_the_contract_keys() -> None:
    code, out, _ = run("explain", TRL, "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert {"framework", "version", "plan", "notes"} <= set(document)
    assert document["framework"] == "trl" and document["plan"]["data_parallel_size"] == 7


def test_plan_toml_is_a_first_class_input(tmp_path: Path) -> None:
    code, toml_text, _ = run("explain", VERL, *VERL_ARGS, "--format", "toml")
    assert code == 0
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text(toml_text)
    code, out, _ = run("explain", plan_file, "--format", "json")
    assert code == 0
    original = json.loads(run("explain", VERL, *VERL_ARGS, "--format", "json")[1])
    assert json.loads(out)["plan"] == original["plan"]
    # Exit 1: verl's default scorer has no TRL reward, and TRL's script (written for verl's chat-list prompts) stops
    # without one (reward.missing); the plan is written all the same.
    code, out, _ = run("translate", plan_file, "--to", "trl", "--format", "json")
    assert code == 1 and json.loads(out)["plan"] == original["plan"]
    assert [n["code"] for n in json.loads(out)["notes"] if n["severity"] == "error"] == ["reward.missing"]


def test_edited_plan_toml_recomputes_derived_values(tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text(
        "[plan]\nprompts_per_step = 32\nsamples_per_prompt = 4\nsamples_per_optimizer_step = 64\n"
        "epochs_per_step = 1\ndata_parallel_size = 4\nmicro_batch_per_device = 2\n"
        "optimizer_steps_per_step = 3\n"
    )
    _code, out, _ = run("explain", plan_file, "--format", "json")
    document = json.loads(out)
    # 32 × 4 = 128 samples; 128 / 64 = 2 optimizer steps (the stated 3 is inconsistent); 64 / 4 / 2 = 8.
    assert document["plan"]["samples_per_step"] == 128
    assert document["plan"]["optimizer_steps_per_step"] == 2
    assert document["plan"]["grad_accum_steps"] == 8
    assert "plan.inconsistent" in {n["code"] for n in document["notes"]}


def test_translate_json_shape() -> None:
    code, out, _ = run("translate", VERL, "--to", "trl@1.16.0", *VERL_ARGS, "--format", "json")
    assert code == 1  # reward.missing (test_plan_toml_is_a_first_class_input)
    document = json.loads(out)
    assert set(document) == {"source", "target", "files", "plan", "notes", "alternatives", "accounting", "suppressed"}
    assert document["target"] == {"framework": "trl", "version": "1.16.0"}
    assert set(document["files"]) == {"recipe.yaml", "accelerate.yaml", "launch.sh", "requirements.txt"}


def test_translate_writes_files_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    code, out, _ = run("translate", VERL, "--to", "trl", *VERL_ARGS, "-o", out_dir)
    # exit 1 (reward.missing, test_plan_toml_is_a_first_class_input): the files are written all the same
    assert code == 1 and (out_dir / "launch.sh").exists() and (out_dir / "recipe.yaml").exists()
    before = (out_dir / "recipe.yaml").read_text()
    (out_dir / "recipe.yaml").write_text("edited by hand\n")
    assert_input_error(["translate", VERL, "--to", "trl", *VERL_ARGS, "-o", out_dir], "already exist", "--force")
    assert (out_dir / "recipe.yaml").read_text() == "edited by hand\n"
    code, _, _ = run("translate", VERL, "--to", "trl", *VERL_ARGS, "-o", out_dir, "--force")
    assert code == 1 and (out_dir / "recipe.yaml").read_text() == before
    # The written launch.sh names its siblings, so explaining it reads the whole set back, as the release it was
    # written for (its header and requirements.txt say 1.16.0: no --from).
    code, out, _ = run("explain", out_dir / "launch.sh", "--format", "json")
    assert code == 0 and json.loads(out)["plan"]["samples_per_optimizer_step"] == 1024
    assert json.loads(out)["version"] == "1.16.0"


def test_strict_exits_1_on_warnings() -> None:
    dynamic = FIXTURES / "verl" / "grpo_dynamic_bsz.sh"
    home = ["--env", "HOME=/home/me"]
    assert run("translate", dynamic, "--to", "skyrl", *home)[0] == 0
    assert run("translate", dynamic, "--to", "skyrl", *home, "--strict")[0] == 1


def test_translate_exits_1_when_what_it_wrote_cannot_start() -> None:
    # The EasyR1 source names no reward function; OpenRLHF does not start without a reward model or a remote
    # reward, so the written launch line is an error-level note: written, exit 1.
    source = FIXTURES / "easyr1" / "v032_no_reward_function.sh"
    code, out, err = run("translate", source, "--to", "openrlhf@0.11.2")
    assert code == 1, err
    # (the source's own reading warns of the same gap first; the translation's note is the error)
    missing = [line for line in out.splitlines() if "[reward.missing]" in line and "OpenRLHF" in line]
    assert missing and missing[0].lstrip().startswith("error:")
    assert "{'" not in out and "['" not in "".join(missing)


def test_translate_refuses_without_a_world_size() -> None:
    code, _, err = run(
        "translate", FIXTURES / "trl" / "recipe_only_no_world_size" / "recipe_only_no_world_size.yaml", "--to", "verl"
    )
    assert code == 2 and "--num-processes" in err


def test_plural_units_in_text() -> None:
    # The Open-R1 recipe: spg = GAS = 4 and one iteration → "1 optimizer step per step" and one epoch. As trl 0.18.0
    # (the release Open-R1 pins; --from states it, so nothing rests on an inferred version).
    code, out, _ = run("explain", TRL, "--from", "trl@0.18.0")
    assert code == 0
    assert "  1 optimizer step per step = " in out and "  1 pass over each step's samples = " in out
    step = out.split("One step:")[1].split("Policy:")[0]
    assert "× 1 epoch = 1 optimizer step" in step and "(s)" not in step and "(es)" not in step


def test_standard_input() -> None:
    code, out, _ = run("explain", "-", "--format", "json", stdin=VERL.read_text().replace("$HOME", "/home/me"))
    assert code == 0 and json.loads(out)["plan"]["prompts_per_step"] == 512


def test_num_processes_supplies_the_world_size() -> None:
    recipe = FIXTURES / "trl" / "recipe_only_no_world_size" / "recipe_only_no_world_size.yaml"
    code, out, _ = run("explain", recipe, "--num-processes", "4", "--format", "json")
    assert code == 0 and json.loads(out)["plan"]["data_parallel_size"] == 4


# ------------------------------------------------------------------ bad input: one message, exit 2


def test_missing_file() -> None:
    assert_input_error(["explain", "no/such/file.sh"], "no/such/file.sh", "no such file")


def test_directory_without_configs(tmp_path: Path) -> None:
    # a directory is searched for configs (tests/test_many.py); one with none is an input error
    (tmp_path / "notes.yaml").write_text("title: not a config\n")
    assert_input_error(["explain", str(tmp_path)], "no config found", "1 skipped")


def test_broken_yaml_names_the_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("actor_rollout_ref:\n  rollout:\n    n: 4\n  actor: [unclosed\n")
    assert_input_error(["explain", broken], "broken.yaml:", "broken YAML")


def test_unknown_launcher(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/bash\necho training\nmake all\n")
    assert_input_error(["explain", script], "run.sh", "cannot tell which framework", "--from")


@pytest.mark.parametrize(
    "value,problem",
    [("abc", "whole number"), ("0", "greater than 0"), ("-8", "greater than 0"), ("12.5", "whole number")],
)
def test_bad_batch_value(tmp_path: Path, value: str, problem: str) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        f"python3 -m verl.trainer.main_ppo \\\n  data.train_batch_size={value} \\\n"
        "  actor_rollout_ref.rollout.name=vllm\n"
    )
    assert_input_error(["explain", script], "data.train_batch_size", problem, "run.sh:1")


def test_bad_trl_batch_value(tmp_path: Path) -> None:
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("num_generations: 8\nper_device_train_batch_size: eight\n")
    assert_input_error(["explain", recipe, "--num-processes", "8"], "per_device_train_batch_size", "whole number")


def test_unresolved_variable_is_named(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        "set -x\npython3 -m verl.trainer.main_ppo data.train_batch_size=$BATCH \\\n"
        "  actor_rollout_ref.rollout.name=vllm\n"
    )
    # The variable policy: an unset $BATCH leaves the batch unknown (named, with the fix), not an error.
    code, out, _ = run("explain", script)
    assert code == 0 and "prompts_per_step: unknown: depends on $BATCH (pass --env BATCH=...)" in out
    code, out, _ = run("explain", script, "--env", "BATCH=64", "--format", "json")
    assert code == 0 and json.loads(out)["plan"]["prompts_per_step"] == 64


def test_unterminated_quote(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo \\\n  trainer.logger='[console\n")
    assert_input_error(["explain", script], "run.sh:2")


def test_missing_recipe_named_by_launch_line(tmp_path: Path) -> None:
    script = tmp_path / "launch.sh"
    script.write_text("accelerate launch --num_processes 8 src/open_r1/grpo.py --config missing.yaml\n")
    assert_input_error(["explain", script], "missing.yaml", "not found")


def test_unknown_framework_and_version() -> None:
    assert_input_error(["explain", VERL, "--from", "megatron-lm"], "unknown framework")
    assert_input_error(
        ["translate", VERL, *VERL_ARGS, "--to", "trl@0.10.0"], "older than the oldest supported", "0.14.0"
    )


def test_bad_env_option() -> None:
    code, _, err = run("explain", VERL, "--env", "NOEQUALS")
    assert code == 2 and "NAME=VALUE" in err and "Traceback" not in err


def test_empty_and_binary_input(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sh"
    empty.write_text("")
    assert_input_error(["explain", empty], "cannot tell")
    binary = tmp_path / "model.sh"
    binary.write_bytes(b"\x00\x01\x02")
    assert_input_error(["explain", binary], "binary")


def test_broken_plan_toml(tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text("[plan\nprompts_per_step = 3\n")
    assert_input_error(["explain", plan], "broken TOML")
    plan.write_text("[plan]\nprompts_per_step = 0\n")
    assert_input_error(["explain", plan], "plan.prompts_per_step", "greater than 0")


# ------------------------------------------------------------------ entry points


def test_python_dash_m_and_console_script() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "translator", "explain", str(VERL), *VERL_ARGS, "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["plan"]["micro_batch_per_device"] == 16
    missing = subprocess.run(
        [sys.executable, "-m", "translator", "explain", "nope.sh"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
