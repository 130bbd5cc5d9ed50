"""Hostile input: one guard around every command (bad input exit 2, a bug exit 3, never 1 and never a traceback);
many-file selection that opens no FIFO or device; output folders that never collide or re-read their own output;
strict output formats; the library's argument types; nonsense values; files outside the project; secrets."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import translator
from tests.conftest import FIXTURES
from translator.cli import main

TRL_DIR = FIXTURES / "trl" / "colocate_trl116_zero3"  # launch.sh --config_file zero3.yaml --config recipe.yaml
TRL_FROM = ["--from", "trl@1.16.0+transformers5.10.4"]
# a release whose TrlParser drops a recipe key no dataclass declares (1.16 stops on it): for keys carried as extras
TRL_DROPS = ["--from", "trl@0.18.0"]
VERL = FIXTURES / "verl" / "grpo_fixed_micro_tp2.sh"
VERL_ARGS = ["--from", "verl@0.7.1", "--env", "HOME=/home/me"]
OPENRLHF = FIXTURES / "openrlhf" / "ppo_separate_engines_v089.sh"  # --actor_learning_rate 5e-7
OPENRLHF_ENV = {"MODEL": "m", "REWARD_MODEL": "r"}


def run(*args: Any, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def assert_one_line(result: tuple[int, str, str], expected_code: int, *expected: str) -> None:
    code, out, err = result
    assert code == expected_code, (code, out, err)
    assert "Traceback" not in out + err
    assert err.count("\n") == 1, err
    for text in expected:
        assert text in err, (text, err)


def trl_copy(folder: Path, recipe: dict[str, str] | None = None) -> Path:
    """The TRL fixture copied, with recipe lines replaced (key → new YAML value) or appended."""
    shutil.copytree(TRL_DIR, folder)
    lines = (folder / "recipe.yaml").read_text().splitlines()
    for key, value in (recipe or {}).items():
        lines = [line for line in lines if not line.startswith(f"{key}:")] + [f"{key}: {value}"]
    (folder / "recipe.yaml").write_text("\n".join(lines) + "\n")
    return folder / "launch.sh"


# ---- the guard -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "code", "text"),
    [
        (KeyError("boom"), 3, "internal error: KeyError"),
        (RecursionError("maximum recursion depth exceeded"), 2, "nested too deeply"),
        (MemoryError(), 2, "out of memory"),
        (PermissionError(13, "Permission denied", "/some/where.sh"), 2, "/some/where.sh: Permission denied"),
    ],
)
def test_anything_escaping_a_command_is_one_line_and_exit_2_or_3(
    monkeypatch: pytest.MonkeyPatch, error: Exception, code: int, text: str
) -> None:
    from translator import render

    def broken(*args: Any) -> str:
        raise error

    monkeypatch.setattr(render, "check_text", broken)  # rendering runs outside any library call
    assert_one_line(run("check", VERL, *VERL_ARGS), code, text)


def test_a_bug_in_file_selection_is_exit_3_not_1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from translator import many

    def broken(*args: Any) -> None:
        raise RuntimeError("selection broke")

    monkeypatch.setattr(many, "select", broken)
    assert_one_line(run("check", tmp_path, VERL, *VERL_ARGS), 3, "internal error: RuntimeError: selection broke")


def test_deeply_nested_value_in_text_output_is_exit_2(tmp_path: Path) -> None:
    # 800 nested lists: PyYAML's C loader reads it, and the text renderer recurses once per level
    launch = trl_copy(tmp_path / "t", {"custom_nested": "[" * 800 + "1" + "]" * 800})
    assert_one_line(run("explain", launch, *TRL_DROPS), 2, "nested too deeply")


def test_deepspeed_config_that_is_not_a_mapping_names_file_and_key(tmp_path: Path) -> None:
    launch = trl_copy(tmp_path / "t")
    accelerate = tmp_path / "t" / "zero3.yaml"
    text = accelerate.read_text()
    start, end = text.index("deepspeed_config:"), text.index("distributed_type:")
    accelerate.write_text(text[:start] + "deepspeed_config: zero3\n" + text[end:])
    assert_one_line(run("check", launch, *TRL_FROM), 2, "zero3.yaml", "deepspeed_config", "mapping")


# ---- many-file selection -------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_fifo_device_and_link_loop_in_a_folder_are_skipped_unopened(tmp_path: Path) -> None:
    shutil.copy(VERL, tmp_path / "run.sh")
    os.mkfifo(tmp_path / "pipe.sh")  # opening it would block until a writer comes: never
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")  # reading it never ends
    (tmp_path / "loop1.sh").symlink_to("loop2.sh")
    (tmp_path / "loop2.sh").symlink_to("loop1.sh")
    code, out, err = run("check", tmp_path, *VERL_ARGS, "--format", "json")
    assert code == 0, (out, err)  # the one real config is clean; the rest is skipped, not an error
    document = json.loads(out)
    reasons = {Path(s["path"]).name: s["reason"] for s in document["skipped"]}
    assert reasons["pipe.sh"].startswith("not a regular file")
    assert reasons["zero.yaml"].startswith("not a regular file")
    assert reasons["loop1.sh"].startswith("cannot read") and reasons["loop2.sh"].startswith("cannot read")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_fifo_named_among_several_is_unreadable_exit_2(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.sh")
    code, out, err = run("check", tmp_path / "pipe.sh", VERL, *VERL_ARGS)
    assert code == 2, (out, err)  # worst of: VERL clean (0), the FIFO unreadable (2)
    assert "not a regular file" in out


def test_sources_with_one_name_get_folders_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(VERL, tmp_path / folder / "run.sh")
    code, out, err = run("translate", "a/run.sh", "b/run.sh", "--to", "openrlhf", "-o", "out", *VERL_ARGS)
    assert code in (0, 1), (out, err)
    # Each named alone: root is its own folder, so both are 'run'; the suffix does not split them (run_sh
    # twice), so the path as given is mirrored: out/a/run_sh and out/b/run_sh.
    assert (tmp_path / "out" / "a" / "run_sh" / "launch.sh").is_file()
    assert (tmp_path / "out" / "b" / "run_sh" / "launch.sh").is_file()


def test_output_folder_inside_the_input_is_never_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(VERL, tmp_path / "run.sh")
    args = ["translate", ".", "--to", "verl", "-o", "out", "--force", "--format", "json", *VERL_ARGS]
    for _ in range(2):  # the second run finds out/run/launch.sh inside '.': it must not be translated
        code, out, err = run(*args)
        assert code in (0, 1), (out, err)
        assert [r["path"] for r in json.loads(out)["files"]] == ["run.sh"]
    assert not (tmp_path / "out" / "out").exists()


def test_files_are_replaced_under_a_lock_on_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fcntl = pytest.importorskip("fcntl")
    from translator.cli import write_files

    locked = []
    replace = os.replace

    def checking_replace(source: str, target: Any) -> None:
        handle = os.open(tmp_path, os.O_RDONLY)  # a second open: its own lock, refused while write_files holds one
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked.append(False)
        except BlockingIOError:
            locked.append(True)
        finally:
            os.close(handle)
        replace(source, target)

    monkeypatch.setattr(os, "replace", checking_replace)
    write_files({"recipe.yaml": "a: 1\n", "launch.sh": "echo\n"}, tmp_path, force=True)
    assert locked == [True, True]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["launch.sh", "recipe.yaml"]  # no temporary left


def test_refusing_to_overwrite_is_decided_under_the_lock(tmp_path: Path) -> None:
    from translator.cli import write_files

    write_files({"launch.sh": "one\n"}, tmp_path, force=False)
    with pytest.raises(translator.ConfigError, match="already exist"):
        write_files({"launch.sh": "two\n"}, tmp_path, force=False)
    assert (tmp_path / "launch.sh").read_text() == "one\n"


# ---- strict formats and paths --------------------------------------------------------------------------


def _no_constants(name: str) -> Any:
    raise AssertionError(f"not JSON: {name}")


def test_json_output_has_no_nan_or_infinity(tmp_path: Path) -> None:
    # keys with no canonical field are carried along as they are: YAML .nan is NaN, 1.0e+400 (beyond the
    # largest float; YAML 1.1 needs the dot to make it a float) is inf, -.inf is -inf
    launch = trl_copy(tmp_path / "t", {"custom_nan": ".nan", "custom_big": "1.0e+400", "custom_low": "-.inf"})
    code, out, err = run("explain", launch, *TRL_DROPS, "--format", "json")
    assert code == 0, err
    document = json.loads(out, parse_constant=_no_constants)  # NaN / Infinity would call parse_constant
    extras = {e["key"]: e["value"] for e in document["extras"]}
    assert (extras["custom_nan"], extras["custom_big"], extras["custom_low"]) == ("NaN", "Infinity", "-Infinity")


def test_sarif_uris_are_percent_encoded(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    launch = trl_copy(folder, {"learning_rate": "-1.0e-06"})  # an error finding, so there is a location
    odd = folder / "r #1?%\\ a\nb.sh"
    launch.rename(odd)
    code, out, err = run("check", odd, *TRL_FROM, "--format", "sarif")
    assert code == 1, err
    uris = {
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(out)["runs"][0]["results"]
        for loc in r["locations"]
    }
    # by hand: ' '→%20, '#'→%23, '?'→%3F, '%'→%25, '\\'→%5C, newline→%0A; '/' and unreserved characters kept
    assert uris == {str(folder).replace(" ", "%20") + "/r%20%231%3F%25%5C%20a%0Ab.sh"}


def test_an_existing_file_with_glob_characters_is_that_file(tmp_path: Path) -> None:
    shutil.copy(VERL, tmp_path / "run[1].sh")  # as a glob, [1] would match 'run1.sh' only
    code, out, err = run("check", tmp_path / "run[1].sh", *VERL_ARGS)
    assert code == 0, (out, err)
    assert "run[1].sh: verl 0.7.1" in out  # the single-file report, not "no such file or glob match"


def test_an_existing_path_with_a_newline_is_read_as_a_file(tmp_path: Path) -> None:
    odd = tmp_path / "two\nlines.sh"
    shutil.copy(VERL, odd)
    code, out, err = run("check", odd, *VERL_ARGS)
    assert code == 0, (out, err)
    explanation = translator.explain(str(odd), framework="verl@0.7.1", env={"HOME": "/home/me"})
    assert explanation.source == str(odd)  # read as the file, not as two lines of config text


@pytest.mark.parametrize("output_format", ["github", "sarif", "json", "text"])
def test_standard_input_works_in_every_check_format(output_format: str) -> None:
    good = VERL.read_text()
    broken = good.replace("trainer.n_gpus_per_node=", "trainer.n_gpus_per_node=-", 1)
    code, out, err = run("check", "-", *VERL_ARGS, "--format", output_format, stdin=good)
    assert code == 0, (out, err)
    assert "no such file" not in out + err
    code, out, err = run("check", "-", *VERL_ARGS, "--format", output_format, stdin=broken)
    assert code in (1, 2), (out, err)  # read, and found wanting: never "no such file"
    assert "no such file" not in out + err


# ---- the library's argument types -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "text"),
    [
        (lambda: translator.load(None), "got NoneType"),
        (lambda: translator.load(42), "got int"),
        (lambda: translator.load(str(VERL), framework=3), "framework must be a str"),
        (lambda: translator.load(str(VERL), env=["A=1"]), "env must be a mapping"),
        (lambda: translator.load(str(VERL), env="A=1"), "env must be a mapping"),
        (lambda: translator.load(str(VERL), env={"RANDOM": 42}), "env value of RANDOM must be a str"),
        (lambda: translator.load(str(VERL), env={1: "x"}), "env names must be non-empty str"),
        (lambda: translator.load("-", stdin_text=b"data.x=1"), "stdin_text must be"),
        (lambda: translator.translate(str(VERL), to=None, framework="verl@0.7.1"), "to must be a str"),
        (lambda: translator.translate(str(VERL), to=["trl"], framework="verl@0.7.1"), "to must be a str"),
        (lambda: translator.check(None), "got NoneType"),
        (lambda: translator.explain(3.5), "got float"),
    ],
)
def test_wrong_library_argument_types_are_config_errors(call: Any, text: str) -> None:
    with pytest.raises(translator.ConfigError, match=text.replace("(", r"\(")):
        call()


def test_a_path_named_none_is_not_looked_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(VERL, tmp_path / "None")  # would be read if None were turned into the name 'None'
    with pytest.raises(translator.ConfigError, match="got NoneType"):
        translator.load(None, framework="verl@0.7.1")


# ---- nonsense values -----------------------------------------------------------------------------------


def test_negative_learning_rate_is_an_error_where_torch_adamw_rejects_it(tmp_path: Path) -> None:
    launch = trl_copy(tmp_path / "t", {"learning_rate": "-2.0e-06"})
    report = translator.check(str(launch), framework="trl@1.16.0+transformers5.10.4")
    # TRL → transformers' adamw_torch → torch.optim.AdamW: "Invalid learning rate" unless 0.0 <= lr
    assert [(f.rule, f.keys) for f in report.errors] == [("trl.learning-rate-range", ["learning_rate"])]
    assert report.errors[0].message.startswith("Invalid learning rate: -2e-06")


def test_negative_learning_rate_is_a_warning_where_deepspeed_adam_accepts_it(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(OPENRLHF.read_text().replace("--actor_learning_rate 5e-7", "--actor_learning_rate -5e-7"))
    report = translator.check(str(script), env=OPENRLHF_ENV)
    # OpenRLHF builds DeepSpeed's FusedAdam, which checks nothing: it runs, and climbs the loss
    assert [f.rule for f in report.errors if f.rule.endswith("range")] == []
    assert [(f.rule, f.keys) for f in report.warnings if f.rule.endswith("range")] == [
        ("openrlhf.learning-rate-range", ["actor.adam.lr"])
    ]  # OpenRLHF's key for --actor_learning_rate


def test_zero_learning_rate_is_a_warning(tmp_path: Path) -> None:
    launch = trl_copy(tmp_path / "t", {"learning_rate": "0"})
    report = translator.check(str(launch), framework="trl@1.16.0+transformers5.10.4")
    assert [f.rule for f in report.warnings] == ["trl.learning-rate-range"]  # 0.0 <= lr passes torch: no error
    assert not report.errors


@pytest.mark.parametrize(
    ("value", "rejected"), [("-1", True), ("0", True), ("1.5", True), ("1", False), ("0.35", False)]
)
def test_gpu_memory_share_must_be_in_zero_to_one(tmp_path: Path, value: str, rejected: bool) -> None:
    launch = trl_copy(tmp_path / "t", {"vllm_gpu_memory_utilization": value})
    report = translator.check(str(launch), framework="trl@1.16.0+transformers5.10.4")
    # (0, 1]: vLLM rejects > 1; 0 or less leaves no memory for the KV cache
    assert [f.rule for f in report.errors] == (["trl.gpu-memory-fraction-range"] if rejected else [])


def test_translating_a_negative_learning_rate_says_so(tmp_path: Path) -> None:
    launch = trl_copy(tmp_path / "t", {"learning_rate": "-2.0e-06"})
    translation = translator.translate(str(launch), to="openrlhf", framework="trl@1.16.0+transformers5.10.4")
    assert [n.source_keys for n in translation.notes if n.code == "value.out-of-range"] == [["learning_rate"]]


def test_a_recipe_outside_the_project_is_read_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    launch = trl_copy(tmp_path / "proj")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "proj" / "recipe.yaml").rename(tmp_path / "elsewhere" / "recipe.yaml")
    launch.write_text(launch.read_text().replace("--config recipe.yaml", "--config ../elsewhere/recipe.yaml"))
    monkeypatch.chdir(tmp_path / "proj")  # neither the script's folder nor the working directory holds it
    explanation = translator.explain(str(launch), framework="trl@1.16.0+transformers5.10.4")
    outside = [n for n in explanation.notes if n.code == "input.outside-project"]
    assert len(outside) == 1 and str(tmp_path / "elsewhere" / "recipe.yaml") in outside[0].message
    assert explanation.plan["samples_per_prompt"] == 16  # read all the same (num_generations: 16)


def test_a_recipe_inside_the_project_gets_no_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    launch = trl_copy(tmp_path / "proj")
    monkeypatch.chdir(tmp_path / "proj")
    explanation = translator.explain(str(launch), framework="trl@1.16.0+transformers5.10.4")
    assert not [n for n in explanation.notes if n.code == "input.outside-project"]


# ---- secrets -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "secret"),
    [
        ("hf_token", True),
        ("wandb_token", True),
        ("token", True),
        ("hub_token", True),
        ("WANDB_API_KEY", True),
        ("openai_api_key", True),
        ("apiKey", True),
        ("client_secret", True),
        ("db_password", True),
        ("trainer.wandb.api-key", True),
        ("max_tokens", False),
        ("max_new_tokens", False),
        ("token_level", False),
        ("tokenizer", False),
        ("max_completion_length", False),
        ("pad_token_id", False),
        ("keyword", False),
    ],
)
def test_secret_key_names(key: str, secret: bool) -> None:
    from translator.redact import is_secret

    assert is_secret(key) is secret


@pytest.mark.parametrize("output_format", ["text", "json", "toml"])
def test_explain_never_prints_a_secret(tmp_path: Path, output_format: str) -> None:
    launch = trl_copy(
        tmp_path / "t",
        {
            "hub_token": "hf_SECRETVALUE",
            "wandb_api_key": "SECRETKEY",
            "custom_kwargs": "{password: SECRETPW, depth: 2}",
        },
    )
    code, out, err = run("explain", launch, *TRL_DROPS, "--format", output_format)
    assert code == 0, err
    assert "SECRET" not in out
    assert "<redacted>" in out


def test_negative_learning_rate_is_an_error_for_open_instruct(tmp_path: Path) -> None:
    source = FIXTURES / "open-instruct" / "qwen3_dapo_uv_async.sh"
    script = tmp_path / "run.sh"
    text = source.read_text()
    script.write_text(re.sub(r"--learning_rate \S+", "--learning_rate -1e-6", text))
    report = translator.check(str(script))
    # grpo_fast.py builds torch.optim.AdamW(optim_params, lr=args.learning_rate, ...): "Invalid learning rate"
    assert [(f.rule, f.severity) for f in report.errors if f.rule.endswith("range")] == [
        ("open-instruct.learning-rate-range", "error")
    ]


def test_github_and_sarif_fixes_name_a_removal_as_people_read_it(tmp_path: Path) -> None:
    # The learning-rate rule's fix removes the key (the framework's default rate): shown as key=(remove), never =None.
    launch = trl_copy(tmp_path / "t", {"learning_rate": "-2.0e-06"})
    for output in ("github", "sarif"):
        result = CliRunner().invoke(
            main, ["check", str(launch), "--format", output, "--from", "trl@1.16.0+transformers5.10.4"]
        )
        assert "learning_rate=(remove)" in result.output and "=None" not in result.output, output
