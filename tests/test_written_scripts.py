"""Written launch scripts run nothing a config holds.

Each target's ``launch.sh`` is run with ``bash`` in a temporary directory whose PATH starts with fake launchers
(python3, accelerate, trl, ray, ...: each logs its argv, NUL-separated, and exits 0). The sources carry values
and keys with ``$(...)``, backticks, quotes, ``;``, newlines, ``${X:-$(...)}``, lists, unicode and spaces. Every
run must leave the payload's marker file uncreated and hand each launcher exactly the source's value; verl's
override words are also parsed with Hydra's own override parser.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import tomli_w
import yaml
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import translator
from translator import ConfigError
from translator.dialects.rlconf import to_toml
from translator.dialects.writing import (
    env_assignment,
    flag_words,
    hydra_override,
    shell_word,
)
from translator.sources.files import Source
from translator.sources.hydra import parse_override, scalar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
LAUNCHERS = ("python3", "python", "accelerate", "trl", "ray", "torchrun", "deepspeed", "vllm", "uv")
# A fake launcher: its name and arguments, NUL-separated, in a file of its own; WANDB_PROJECT beside them.
FAKE = """#!/bin/bash
out="$ARGV_DIR/${0##*/}.$$"
printf '%s\\0' "${0##*/}" "$@" > "$out"
if [ -n "${WANDB_PROJECT+set}" ]; then printf '%s' "$WANDB_PROJECT" > "$out.env"; fi
exit 0
"""


def hostile(mark: Path) -> str:
    """Text that runs `touch MARK` wherever a shell gets to expand or split it."""
    return f"a b'c\"d;touch {mark};#\n$(touch {mark})`touch {mark}`${{X:-$(touch {mark})}} é ${{HOME}} back\\slash\\"


def run_launch(files: dict[str, str], tmp: Path, env: dict[str, str] | None = None) -> list[list[str]]:
    """Run launch.sh with the fakes first on PATH; the argv of each launcher call (name first), by name."""
    work, bin_dir, argv_dir = tmp / "run", tmp / "bin", tmp / "argv"
    for folder in (work, bin_dir, argv_dir):
        folder.mkdir(exist_ok=True)
    for name in LAUNCHERS:
        fake = bin_dir / name
        fake.write_text(FAKE)
        fake.chmod(0o755)
    for name, text in files.items():
        (work / name).write_text(text, encoding="utf-8")
    run_env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "ARGV_DIR": str(argv_dir),
        "HOME": str(tmp / "home"),
        "LANG": "C.UTF-8",
        **(env or {}),
    }
    done = subprocess.run(["bash", "launch.sh"], cwd=work, env=run_env, capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    calls = []
    for log in sorted(argv_dir.iterdir()):
        if log.suffix != ".env":
            calls.append(log.read_bytes().decode().split("\0")[:-1])
    return sorted(calls)


def wandb_env(tmp: Path, launcher: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((tmp / "argv").glob(f"{launcher}.*.env"))]


def after(argv: list[str], flag: str, count: int = 1) -> list[str]:
    """The ``count`` words after ``flag`` (which must occur once)."""
    assert argv.count(flag) == 1, (flag, argv)
    i = argv.index(flag)
    return argv[i + 1 : i + 1 + count]


def hydra_values(words: list[str]) -> dict[str, Any]:
    """Override words parsed by Hydra itself: {key: value}."""
    parser = pytest.importorskip("hydra.core.override_parser.overrides_parser").OverridesParser.create()
    return {o.key_or_group: o.value() for o in parser.parse_overrides(words)}


# ---------------------------------------------------------------------------- a plan file with hostile values
BASE = ROOT / "fixtures" / "verl" / "grpo_fixed_micro_tp2.sh"


def plan_source(mark: Path, **sections: dict[str, Any]) -> tuple[Source, dict[str, Any]]:
    """The fixture's plan as a plan file, with hostile text in the model, data, logging and a carried key."""
    data = tomllib.loads(to_toml(translator.explain(str(BASE), env={"HOME": "/h"}).spec))
    h = hostile(mark)
    values = {
        "model": "/m/" + h,
        "files": ["/a.parquet", f"/b'\"; touch {mark}; echo '.parquet"],
        "project": f"proj;touch {mark}\n$(touch {mark}) é x",
        "run": f"run`touch {mark}`",
        "extra": h,
    }
    data["references"]["model"] = values["model"]
    data["data"]["train_sources"] = values["files"]
    data["logging"]["project"] = values["project"]
    data["logging"]["run_name"] = values["run"]
    data["extras"].append({"framework": "verl", "key": "trainer.weird", "value": values["extra"]})
    for section, changes in sections.items():
        data.setdefault(section, {}).update(changes)
    return Source(tomli_w.dumps(data), "plan.toml"), values


def test_verl_overrides_reach_hydra_as_the_plan_values(tmp_path: Path) -> None:
    mark = tmp_path / "PWNED"
    source, want = plan_source(mark)
    files = translator.translate(source, to="verl").files
    [call] = run_launch(files, tmp_path)
    assert not mark.exists()
    assert call[:3] == ["python3", "-m", "verl.trainer.main_ppo"]
    parsed = hydra_values(call[3:])
    # Each value is the plan's text exactly (the plan's references.model is verl's model path, data.train_sources
    # its train_files list, logging project/run_name trainer.project_name/experiment_name; the carried key as is).
    assert parsed["actor_rollout_ref.model.path"] == want["model"]
    assert parsed["data.train_files"] == want["files"]
    assert parsed["trainer.project_name"] == want["project"]
    assert parsed["trainer.experiment_name"] == want["run"]
    assert parsed["trainer.weird"] == want["extra"]  # '${HOME}' in it stays text: it came from a plan file


def test_openrlhf_flags_carry_the_plan_values(tmp_path: Path) -> None:
    mark = tmp_path / "PWNED"
    source, want = plan_source(mark)
    files = translator.translate(source, to="openrlhf@0.11.2").files
    [call] = run_launch(files, tmp_path)
    assert not mark.exists()
    assert call[:5] == ["ray", "job", "submit", "--address=http://127.0.0.1:8265", "--"]
    argv = call[5:]
    assert argv[:3] == ["python3", "-m", "openrlhf.cli.train_ppo_ray"]
    assert after(argv, "--actor.model_name_or_path") == [want["model"]]
    # OpenRLHF takes several prompt datasets as one comma-separated value.
    assert after(argv, "--data.prompt_dataset") == [",".join(want["files"])]
    assert after(argv, "--logger.wandb.project") == [want["project"]]
    assert after(argv, "--logger.wandb.run_name") == [want["run"]]
    assert argv[-1] != "$@"  # "$@" expanded to nothing


def test_open_instruct_flags_carry_the_plan_values(tmp_path: Path) -> None:
    mark = tmp_path / "PWNED"
    source, want = plan_source(mark)
    files = translator.translate(source, to="open_instruct").files
    [call] = run_launch(files, tmp_path)
    assert not mark.exists()
    assert call[:2] == ["python", "open_instruct/grpo_fast.py"]
    assert after(call, "--model_name_or_path") == [want["model"]]
    # The mixer lists each file with its share; two files of equal weight: 1.0 each.
    assert after(call, "--dataset_mixer_list", 4) == [want["files"][0], "1.0", want["files"][1], "1.0"]
    assert after(call, "--wandb_project") == [want["project"]]
    assert after(call, "--exp_name") == [want["run"]]


def test_easyr1_launch_runs_its_entry_point_and_the_yaml_holds_the_values(tmp_path: Path) -> None:
    mark = tmp_path / "PWNED"
    source, want = plan_source(mark)
    files = translator.translate(source, to="easyr1").files
    [call] = run_launch(files, tmp_path)
    assert not mark.exists()
    assert call == ["python3", "-m", "verl.trainer.main", "config=config.yaml"]
    # EasyR1 reads config.yaml through OmegaConf (verl/trainer/main.py), which resolves ${...}: resolve it so.
    omegaconf = pytest.importorskip("omegaconf").OmegaConf
    config = omegaconf.to_container(omegaconf.create(files["config.yaml"]), resolve=True)
    assert config["worker"]["actor"]["model"]["model_path"] == want["model"]
    assert config["trainer"]["project_name"] == want["project"]


def test_trl_recipe_launch_and_wandb_project(tmp_path: Path) -> None:
    """TRL's own script (chosen for a reward function file) takes the project from WANDB_PROJECT."""
    mark = tmp_path / "PWNED"
    source, want = plan_source(mark, reward={"function_path": "/r.py", "function_name": "score"})
    files = translator.translate(source, to="trl@1.16.0").files
    [call] = run_launch(files, tmp_path)
    assert not mark.exists()
    assert call == [
        "accelerate",
        "launch",
        "--config_file",
        "accelerate.yaml",
        "--num_processes",
        "8",
        "-m",
        "trl.scripts.grpo",
        "--config",
        "recipe.yaml",
    ]
    assert wandb_env(tmp_path, "accelerate") == [want["project"]]
    assert yaml.safe_load(files["recipe.yaml"])["model_name_or_path"] == want["model"]


def test_trl_server_mode_serves_the_plan_model(tmp_path: Path) -> None:
    """vLLM on 2 GPUs of its own besides 8 training processes: a node of its own (NODE_ROLE=vllm)."""
    mark = tmp_path / "PWNED"
    source, want = plan_source(
        mark,
        reward={"function_path": "/r.py", "function_name": "score"},
        topology={"rollout_gpus": 2},
        generation={"rollout_mode": "server"},
    )
    files = translator.translate(source, to="trl@1.16.0").files
    [serve] = run_launch(files, tmp_path, {"NODE_ROLE": "vllm"})
    assert not mark.exists()
    assert serve[:2] == ["trl", "vllm-serve"]
    assert after(serve, "--model") == [want["model"]]
    assert wandb_env(tmp_path, "trl") == [want["project"]]
    for log in (tmp_path / "argv").iterdir():
        log.unlink()
    [train] = run_launch(files, tmp_path, {"NODE_ROLE": "train", "VLLM_SERVER_HOST": "10.0.0.9"})
    assert not mark.exists()
    assert train[0] == "accelerate" and after(train, "--vllm_server_host") == ["10.0.0.9"]


# ---------------------------------------------------------------------------- a source shell script
SCRIPT = """python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_files=$HOME/data/train.parquet \\
    data.train_batch_size=64 \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \\
    actor_rollout_ref.model.path="$(touch MARK)" \\
    trainer.project_name="${PROJ:-$(touch MARK)}" \\
    trainer.experiment_name=`touch MARK` \\
    trainer.n_gpus_per_node=8 trainer.nnodes=1
"""


@pytest.mark.parametrize("target", ["verl", "openrlhf@0.11.2", "open_instruct"])
def test_a_shell_sources_unset_variable_expands_when_the_written_script_runs(tmp_path: Path, target: str) -> None:
    """$HOME the source never sets is left to the shell, as the source left it; its substitutions (never run by
    the reader) are text. The reader takes ${PROJ:-...} with PROJ unset as its default, the substitution."""
    mark = tmp_path / "PWNED"
    source = Source(SCRIPT.replace("MARK", str(mark)), "run.sh")
    files = translator.translate(source, to=target).files
    home = "/home/t e'st"
    [call] = run_launch(files, tmp_path, {"HOME": home})
    assert not mark.exists()
    train = f"{home}/data/train.parquet"
    if target == "verl":
        parsed = hydra_values(call[3:])
        assert parsed["data.train_files"] == train
        assert parsed["actor_rollout_ref.model.path"] == f"$(touch {mark})"
        assert parsed["trainer.project_name"] == f"$(touch {mark})"
        assert parsed["trainer.experiment_name"] == f"`touch {mark}`"
    elif target.startswith("openrlhf"):
        assert after(call, "--data.prompt_dataset") == [train]
        assert after(call, "--actor.model_name_or_path") == [f"$(touch {mark})"]
    else:
        assert after(call, "--dataset_mixer_list", 2) == [train, "1.0"]
        assert after(call, "--model_name_or_path") == [f"$(touch {mark})"]


# ---------------------------------------------------------------------------- keys
@pytest.mark.parametrize(
    "framework, key, target",
    [
        ("verl", "trainer.x;touch PWNED;#", "verl"),
        ("verl", "trainer.a b", "verl"),
        ("verl", "trainer.é", "verl"),
    ],
)
def test_a_key_outside_the_targets_grammar_is_refused(tmp_path: Path, framework: str, key: str, target: str) -> None:
    data = tomllib.loads(to_toml(translator.explain(str(BASE), env={"HOME": "/h"}).spec))
    data["extras"].append({"framework": framework, "key": key, "value": 1})
    with pytest.raises(ConfigError) as error:
        translator.translate(Source(tomli_w.dumps(data), "plan.toml"), to=target)
    assert key in str(error.value)


def test_a_yaml_key_outside_hydras_grammar_is_refused_with_exit_2(tmp_path: Path) -> None:
    config = yaml.safe_load((ROOT / "fixtures" / "verl" / "grpo_hydra_config.yaml").read_text())
    config["trainer"]["x;touch PWNED;#"] = 1
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    done = subprocess.run(
        [sys.executable, "-m", "translator", "translate", str(path), "--to", "verl"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2 and "trainer.x;touch PWNED;#" in done.stderr


@pytest.mark.parametrize("name", ["WANDB PROJECT", "A;touch x", "1A", "A-B", "", "É"])
def test_env_names_are_checked(name: str) -> None:
    with pytest.raises(ConfigError):
        env_assignment(name, "v")


@pytest.mark.parametrize("name", ["x;touch PWNED", "a b", "$(x)", "", "é"])
def test_flag_names_are_checked(name: str) -> None:
    """OpenRLHF, Open-Instruct and TRL write only flags they know; the check holds for any name all the same."""
    with pytest.raises(ConfigError):
        flag_words(name, "v")


# ---------------------------------------------------------------------------- the helper
CHARS = st.characters(exclude_characters="\0", codec="utf-8")  # any text an argv can hold (no NUL, no surrogate)
TEXT = st.text(CHARS, max_size=40)


def bash_words(words: list[str], env: dict[str, str] | None = None) -> list[str]:
    """What bash hands a program for the words, as the script text would hold them."""
    script = "printf '%s\\0' " + " ".join(words)
    with tempfile.TemporaryDirectory() as where:  # a word bash misread could redirect into a file: not here
        done = subprocess.run(
            ["bash", "-c", script], capture_output=True, check=True, cwd=where, env={**os.environ, **(env or {})}
        )
    return done.stdout.decode("utf-8", errors="surrogateescape").split("\0")[:-1]


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=8))
def test_shell_word_round_trips_any_text(texts: list[str]) -> None:
    assert bash_words([shell_word(t) for t in texts]) == texts


@settings(max_examples=40, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=4), TEXT)
def test_only_a_live_name_expands(texts: list[str], home: str) -> None:
    """With HOME live, '${HOME}' becomes HOME's value; '${OTHER}', '$(...)' and the rest stay text."""
    words = [f"{t}${{HOME}}{t}${{OTHER}}$(echo x)" for t in texts]
    expected = [f"{t}{home}{t}${{OTHER}}$(echo x)" for t in texts]
    assert bash_words([shell_word(w, {"HOME"}) for w in words], {"HOME": home, "OTHER": "no"}) == expected


def test_flag_words_keep_a_dash_value_with_its_flag() -> None:
    """argparse would take a separate '-x...' word for a flag: it goes in the same word, --name=value."""
    assert bash_words([flag_words("run_name", "-x $(y)")]) == ["--run_name=-x $(y)"]
    assert bash_words([flag_words("lr", -0.5)]) == ["--lr", "-0.5"]  # a number argparse reads as a value


HYDRA_TEXT = st.text(CHARS, max_size=30)


@settings(max_examples=80, deadline=None)
@example(["\\\n"])  # a backslash before a final newline: Hydra keeps it as written (no quote follows it)
@given(
    st.one_of(
        HYDRA_TEXT,
        st.lists(HYDRA_TEXT, max_size=4),
        st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), HYDRA_TEXT, max_size=3),
    )
)
def test_hydra_override_round_trips_through_bash_and_both_hydra_parsers(value: Any) -> None:
    """The override word, after bash, is parsed by Hydra and by rlconf's reader to the same value. A bare
    value that Hydra would type (1, true, null) is a number or switch by design; such text is left out."""

    for text in value if isinstance(value, list) else value.values() if isinstance(value, dict) else [value]:
        assume(not isinstance(scalar(text.strip()), (int, float, bool, type(None))))
        assume(text == text.strip() or not isinstance(value, str))
    [word] = bash_words([hydra_override("+a.b", value)])
    parser = pytest.importorskip("hydra.core.override_parser.overrides_parser").OverridesParser.create()
    assert parser.parse_overrides([word])[0].value() == value
    ours = parse_override(word)
    assert ours is not None and ours.key == "a.b" and ours.value == value
