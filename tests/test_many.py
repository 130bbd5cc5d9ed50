"""Many configs at once: check / explain / translate PATH..., the four check formats, the
pre-commit hook. Expected counts come from the fixture layout itself: one .expect.yaml per fixture, whose
`input` names the script, YAML or directory the fixture is."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from tests.conftest import readable_frameworks
from translator.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
# The fixtures of the frameworks rlconf reads; the pending ones (tests/conftest.py PENDING) wait for their dialects.
READ = sorted(fw for fw in readable_frameworks() if (FIXTURES / fw).is_dir())
EXPECTS = sorted(e for e in FIXTURES.rglob("*.expect.yaml") if e.relative_to(FIXTURES).parts[0] in READ)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


# The config files a training script composes with Hydra (fixtures/trl/hydra_composed/recipes) are named by no launch
# line: a folder walk reads each alone.
# YAMLs a launch reaches only through a composition or a file listing (Hydra groups, a sweep's `find` of its
# recipes): a folder walk reads each on its own as well
HYDRA_GROUP_FILES = sorted(
    str(p.relative_to(ROOT))
    for folder in (FIXTURES / "trl" / "hydra_composed" / "recipes", FIXTURES / "trl" / "sweep_over_configs" / "configs")
    for p in folder.rglob("*.yaml")
)


def fixture_inputs() -> dict[str, dict]:
    """fixture input path (the launch script for a directory fixture) → its .expect.yaml document."""
    inputs = {}
    for expect in EXPECTS:
        document = yaml.safe_load(expect.read_text())
        target = (
            expect.parent / document["input"]
            if "input" in document
            else expect.with_name(expect.name.removesuffix(".expect.yaml"))
        )
        if target.is_dir():
            target = target / "launch.sh"
        inputs[str(target.relative_to(ROOT))] = document
    return inputs


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_check_fixtures_directory_reads_every_fixture_once(in_root: None) -> None:
    code, output = run("check", *(f"fixtures/{fw}/" for fw in READ), "fixtures/end-to-end/", "--format", "json")
    document = json.loads(output)
    # fixtures/end-to-end/ (tests/test_end_to_end.py): one run per framework, named by the folder's test
    end_to_end = {
        "fixtures/end-to-end/oi_ppo_10m_7_learners.sh": "open-instruct",
        "fixtures/end-to-end/oi_grpo_fast_70b_4_plus_2_nodes.sh": "open-instruct",
        "fixtures/end-to-end/openrlhf_085_ppo_rm_critic.sh": "openrlhf",
        "fixtures/end-to-end/easyr1_qwen25vl_geo3k/launch.sh": "easyr1",
        "fixtures/end-to-end/openr1_grpo_7_processes/launch.sh": "trl",
    }
    # a Python training script is read when named (or through its launch script), not found by walking a folder
    fixtures = {p: d for p, d in fixture_inputs().items() if not p.endswith(".py")}
    inputs = {**fixtures, **{path: {} for path in HYDRA_GROUP_FILES}, **{path: {} for path in end_to_end}}
    results = {entry["path"]: entry for entry in document["files"]}
    # every fixture is one config; the YAMLs its launch script names are read with it, not again
    assert sorted(Path(p).as_posix() for p in results) == sorted(inputs)
    for path, entry in results.items():
        # Every fixture reads without --env: a variable the script never sets stays symbolic.
        assert entry["exit_code"] in (0, 1), entry
        assert entry["framework"] == end_to_end.get(Path(path).as_posix(), Path(path).relative_to("fixtures").parts[0])
        assert entry["exit_code"] == (1 if entry["errors"] else 0)
    summary = document["summary"]
    assert summary["files"] == len(inputs)
    assert summary["unreadable"] == 0
    assert summary["clean"] + summary["with_findings"] == len(inputs)
    # the worst code wins: some fixtures break their framework's rules on purpose
    assert summary["with_findings"] > 0 and code == 1 == summary["exit_code"]
    skipped = {s["path"]: s["reason"] for s in document["skipped"]}
    assert all(str(e.relative_to(ROOT)) in skipped for e in EXPECTS)  # the expectations are not configs
    assert skipped["fixtures/trl/trl016_mu2_server/zero2.yaml"] == "read with fixtures/trl/trl016_mu2_server/launch.sh"
    assert skipped["fixtures/easyr1/head_math_grpo_dynamic/examples/config.yaml"].startswith("read with")
    assert summary["skipped"] == len(document["skipped"])


def test_text_summary_and_exit_code_without_unreadable(in_root: None) -> None:
    # fixtures/trl needs no shell variables: every fixture there reads; none breaks a TRL rule
    code, output = run("check", "fixtures/trl")
    count = sum(1 for p in fixture_inputs() if p.startswith("fixtures/trl/")) + len(HYDRA_GROUP_FILES)
    last = output.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"{count} configs checked: ")
    assert " 0 unreadable" in last
    assert "skipped" in output and code in (0, 1)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# TRL 0.18 GRPO: the global generation batch, per_device_train_batch_size 4 × 2 processes = 8 completions, must
# be divisible by num_generations. 8 / 4 works; 8 / 3 does not (GRPOConfig's own ValueError).
GOOD_RECIPE = (
    "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: org/data\nnum_generations: 4\n"
    "per_device_train_batch_size: 4\ngradient_accumulation_steps: 1\n"
)
BAD_RECIPE = GOOD_RECIPE.replace("num_generations: 4", "num_generations: 3")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path / "configs" / "good.yaml", GOOD_RECIPE)
    write(tmp_path / "configs" / "bad.yaml", BAD_RECIPE)
    write(tmp_path / "configs" / "notes.yaml", "title: not a config\n")
    write(tmp_path / "configs" / "broken.yaml", "num_generations: [4\n")
    write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")
    return tmp_path


def test_check_formats_and_worst_code(repo: Path) -> None:
    args = ["check", str(repo), "--from", "trl@0.18.0", "--num-processes", "2"]
    code, text = run(*args)
    assert code == 2  # broken.yaml cannot be read; the others are still checked
    assert "bad.yaml" in text and "good.yaml: trl 0.18.0 — 0 errors" in text
    assert text.rstrip().splitlines()[-1] == (
        "3 configs checked: 1 clean, 1 with findings (1 error, 0 warnings), 1 unreadable; 2 files skipped"
    )
    code, output = run(*args, "--format", "json")
    document = json.loads(output)
    codes = {Path(f["path"]).name: f["exit_code"] for f in document["files"]}
    assert codes == {"bad.yaml": 1, "broken.yaml": 2, "good.yaml": 0}
    assert {Path(s["path"]).name for s in document["skipped"]} == {"notes.yaml", "pyproject.toml"}
    code, output = run(*args, "--format", "github", "--exclude", "broken.yaml")
    assert code == 1
    error_lines = [line for line in output.splitlines() if line.startswith("::error ")]
    assert len(error_lines) == 1
    # the finding sits on the line that sets num_generations (line 3 of the recipe)
    assert error_lines[0].startswith(f"::error file={repo / 'configs' / 'bad.yaml'},line=3,title=trl.")
    code, output = run(*args, "--format", "sarif")
    log = json.loads(output)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(log)
    results = log["runs"][0]["results"]
    assert sorted(
        (r["level"], Path(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).name) for r in results
    ) == [("error", "bad.yaml"), ("error", "broken.yaml")]


def test_exclude_and_globs(repo: Path) -> None:
    code, output = run(
        "check",
        str(repo / "configs" / "*.yaml"),
        "--exclude",
        "b*.yaml",
        "--from",
        "trl@0.18.0",
        "--num-processes",
        "2",
        "--format",
        "json",
    )
    document = json.loads(output)
    assert [Path(f["path"]).name for f in document["files"]] == ["good.yaml"]
    assert code == 0
    code, output = run("check", str(repo / "nothing-*.sh"), "--format", "json")
    assert code == 2 and json.loads(output)["summary"]["unreadable"] == 1


def test_single_file_output_is_unchanged(repo: Path) -> None:
    # one file keeps the single-file report: no summary line, no skipped list
    code, output = run("check", str(repo / "configs" / "bad.yaml"), "--from", "trl@0.18.0", "--num-processes", "2")
    assert code == 1 and "configs checked" not in output
    assert output.startswith(f"{repo / 'configs' / 'bad.yaml'}: trl 0.18.0 — 1 error")


def test_explain_many(repo: Path) -> None:
    code, output = run(
        "explain",
        str(repo / "configs" / "good.yaml"),
        str(repo / "configs" / "notes.yaml"),
        "--from",
        "trl@0.18.0",
        "--num-processes",
        "2",
        "--format",
        "json",
    )
    document = json.loads(output)
    assert code == 0 and len(document["files"]) == 1
    # 2 processes × 4 per device = 8 completions per step, in groups of 4 → 2 prompts per step
    assert document["files"][0]["explanation"]["plan"]["prompts_per_step"] == 2
    assert document["skipped"] == [
        {"path": str(repo / "configs" / "notes.yaml"), "reason": "YAML without a known key tree or launcher"}
    ]


def test_translate_verl_directory_to_trl(tmp_path: Path, in_root: None) -> None:
    inputs = {p: d for p, d in fixture_inputs().items() if p.startswith("fixtures/verl/")}
    envs = {k: v for d in inputs.values() for k, v in d.get("options", {}).get("env", {}).items()}
    env_args = [a for k, v in sorted(envs.items()) for a in ("--env", f"{k}={v}")]
    out = tmp_path / "out"
    code, output = run("translate", "fixtures/verl", "--to", "trl", "-o", str(out), *env_args, "--format", "json")
    document = json.loads(output)
    rows = {row["path"]: row for row in document["files"]}
    assert sorted(rows) == sorted(inputs)
    for path, row in rows.items():
        folder = out / Path(path).relative_to("fixtures/verl").with_suffix("")
        if row["status"] == "failed":
            assert row["reason"] and row["exit_code"] == 2
            continue
        assert row["output_dir"] == str(folder)
        assert sorted(Path(w).name for w in row["written"]) == sorted(p.name for p in folder.iterdir())
        assert (row["status"] == "changed") == bool(row["changed_fields"])
    summary = document["summary"]
    assert summary["kept"] + summary["changed"] + summary["failed"] == len(inputs)
    assert summary["failed"] < len(inputs)
    # never overwrite without --force: every file now fails, and nothing is lost
    code, output = run("translate", "fixtures/verl", "--to", "trl", "-o", str(out), *env_args)
    assert code == 2 and "already exist" in output
    code, output = run("translate", "fixtures/verl", "--to", "trl", "-o", str(out), *env_args, "--force")
    assert "source" in output.splitlines()[0] and "translated to trl" in output.splitlines()[-1]


def test_translate_many_needs_an_output_directory(in_root: None) -> None:
    code, output = run("translate", "fixtures/verl", "--to", "trl")
    assert code == 2 and "-o OUTDIR" in output


def test_no_progress_bar_when_piped(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "translator", "check", str(FIXTURES / "trl")], capture_output=True, text=True, cwd=ROOT
    )
    assert result.stderr == ""


def pre_commit_in(repo: Path, config: dict, **env: str) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``repo`` made a git repository with ``config`` as its .pre-commit-config.yaml: a function running the
    rlconf-check hook on files of it with the real pre-commit."""
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    env = {
        "HOME": str(repo),
        "PATH": "/usr/bin:/bin:" + str(Path(sys.executable).parent),
        "PRE_COMMIT_HOME": str(repo / ".cache"),
        **env,
    }
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "safe.directory=*"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run([*git, "add", "."], cwd=repo, check=True, env=env)

    def pre_commit(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["pre-commit", "run", "rlconf-check", "--files", *files], cwd=repo, env=env, capture_output=True, text=True
        )

    return pre_commit


@pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("pre-commit") is None,
    reason="pre-commit 4 and git are needed to run the hook",
)
def test_pre_commit_hook(repo: Path) -> None:
    """The repository's own hook definition, run by the real pre-commit with the rlconf of this working tree
    (`language: system`), so that uncommitted changes are tested too; test_pre_commit_hook_as_published runs it
    as published."""
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "rlconf-check")
    local = {
        **hook,
        "language": "system",
        "entry": f"{sys.executable} -m translator check --from trl@0.18.0 --num-processes 2",
    }
    pre_commit = pre_commit_in(repo, {"repos": [{"repo": "local", "hooks": [local]}]}, PYTHONPATH=str(ROOT))
    good = pre_commit("configs/good.yaml", "configs/notes.yaml")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout
    bad = pre_commit("configs/good.yaml", "configs/bad.yaml")
    assert bad.returncode == 1 and "Failed" in bad.stdout
    assert "configs/bad.yaml: trl 0.18.0 — 1 error" in bad.stdout


@pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("pre-commit") is None or not (ROOT / ".git").exists(),
    reason="pre-commit 4, git and a git checkout are needed",
)
def test_pre_commit_hook_as_published(repo: Path) -> None:
    """The hook as users add it: `repo:` this repository at its HEAD commit, `language: python`, so pre-commit
    pip-installs rlconf into a fresh environment (from an index: skipped where none is reachable)."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if head.returncode:
        pytest.skip("this checkout has no commit to install the hook from")
    pre_commit = pre_commit_in(
        repo,
        {
            "repos": [
                {
                    "repo": str(ROOT),
                    "rev": head.stdout.strip(),
                    "hooks": [{"id": "rlconf-check", "args": ["--from", "trl@0.18.0", "--num-processes", "2"]}],
                }
            ]
        },
    )
    good = pre_commit("configs/good.yaml", "configs/notes.yaml")
    if good.returncode == 3 and "pip" in (good.stdout + good.stderr):
        pytest.skip("pre-commit could not install the hook's environment (no package index reachable)")
    assert good.returncode == 0, good.stdout + good.stderr
    bad = pre_commit("configs/good.yaml", "configs/bad.yaml")
    assert bad.returncode == 1 and "configs/bad.yaml: trl 0.18.0 — 1 error" in bad.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal(repo: Path) -> None:
    import os
    import pty

    for i in range(6):  # more than 5 configs get a bar
        write(repo / "many" / f"r{i}.yaml", GOOD_RECIPE)
    leader, follower = pty.openpty()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "translator",
            "check",
            str(repo / "many"),
            "--from",
            "trl@0.18.0",
            "--num-processes",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=follower,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    os.close(follower)
    bar = os.read(leader, 65536).decode()
    os.close(leader)
    assert result.returncode == 0 and "checking" in bar
    assert "checking" not in result.stdout.decode()  # the report itself stays clean
