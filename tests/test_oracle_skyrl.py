"""Oracle: SkyRL loads its own config from every launch script rlconf writes for it and validates the batch sizes
as its trainer does before training; on SkyRL's own fixtures, `rlconf check` gives SkyRL's verdict in its words.

What runs is SkyRL itself (a skyrl wheel, ``pip download --no-deps skyrl==0.4.0``, unpacked; ``RLCONF_SKYRL_VERSION``
names its release, 0.3.0 when unset, and .ci/run runs the newest, 0.4.0, and 0.3.0):
``SkyRLTrainConfig.from_cli_overrides(words)`` (OmegaConf.from_cli of the written ``key=value`` words merged onto
the dataclass defaults; an unknown key or a value of the wrong type is an error there) and then
``validate_batch_sizes(cfg)`` (skyrl/train/utils/utils.py:58-190@skyrl-v0.3.0). Its config needs Python >= 3.12
(pydantic refuses its typing.TypedDict below), so it runs in a subprocess: ``RLCONF_SKYRL_PYTHON`` names that
interpreter, and ``RLCONF_SKYRL_PATH`` (os.pathsep-separated) the folders that hold the unpacked ``skyrl`` package
and its bundled ``skyrl-gym``, when the interpreter does not have them installed. Without RLCONF_SKYRL_PYTHON the
tests are skipped.

The interpreter needs no torch or ray: ``validate_batch_sizes`` and ``_uses_lora_weight_sync`` (the one name
``SkyRLTrainConfig.__post_init__`` imports from skyrl/backends/skyrl_train/inference_servers/utils.py) are read from
their source files and defined as written, because both modules import torch at their top for code this path never
runs. What the path does import: pyyaml, omegaconf, pandas, requests, loguru and pydantic (.ci/run builds such a
venv from the machine's Python 3.12 and sets both variables).
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.conftest import CASES, Case, case_id, translatable
from translator import check, translate
from translator.errors import ConfigError
from translator.sources.shell import SYMBOLIC, parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

PYTHON = os.environ.get("RLCONF_SKYRL_PYTHON")
if not PYTHON:
    pytest.skip(
        "RLCONF_SKYRL_PYTHON is not set: SkyRL's config loads only on Python >= 3.12 (name such an interpreter "
        "with skyrl importable, or on RLCONF_SKYRL_PATH)",
        allow_module_level=True,
    )

VERSION = os.environ.get("RLCONF_SKYRL_VERSION", "0.3.0")  # the wheel the oracle runs
MODULE = "skyrl.train.entrypoints.main_base"

RUNNER = textwrap.dedent(
    """
    import ast, builtins, importlib.util, json, math, pathlib, sys, types, warnings
    warnings.simplefilter("ignore")
    from skyrl.train.config.config import SkyRLTrainConfig
    (folder,) = importlib.util.find_spec("skyrl").submodule_search_locations

    def own(file, name, given):
        # SkyRL's function `name`, read from its source file and defined as written; every global name it reads
        # must be one of `given` (so a release whose function reads more fails here, not silently).
        path = pathlib.Path(folder, file)
        (function,) = [
            node for node in ast.parse(path.read_text(), str(path)).body
            if isinstance(node, ast.FunctionDef) and node.name == name
        ]
        read = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
        local = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        local |= {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
        unknown = read - local - set(given) - set(dir(builtins))
        assert not unknown, f"{file}: {name} reads names the oracle does not give it: {sorted(unknown)}"
        namespace = dict(given)
        exec(compile(ast.Module(body=[function], type_ignores=[]), str(path), "exec"), namespace)
        return namespace[name]

    # Both modules below import torch (a CUDA build from PyPI: gigabytes) at their top for code this path never
    # runs, so the two functions the path runs are read from them instead: validate_batch_sizes, and the one name
    # SkyRLTrainConfig.__post_init__ imports from the inference-server utilities (config.py:1200@skyrl-v0.3.0).
    config = {"SkyRLTrainConfig": SkyRLTrainConfig}
    validate_batch_sizes = own("train/utils/utils.py", "validate_batch_sizes", {"math": math, **config})
    servers = types.ModuleType("skyrl.backends.skyrl_train.inference_servers.utils")
    servers._uses_lora_weight_sync = own(
        "backends/skyrl_train/inference_servers/utils.py", "_uses_lora_weight_sync", config
    )
    sys.modules[servers.__name__] = servers
    results = []
    for words in json.load(sys.stdin):
        try:
            cfg = SkyRLTrainConfig.from_cli_overrides(words)
        except Exception as error:  # the config itself refused the words
            results.append(["config", f"{type(error).__name__}: {error}"])
            continue
        try:
            validate_batch_sizes(cfg)
        except AssertionError as error:
            results.append(["rejected", str(error)])
            continue
        results.append(["accepted", ""])
    json.dump(results, sys.stdout)
    """
)


def run_skyrl(batches: list[list[str]]) -> list[tuple[str, str]]:
    """SkyRL's verdict on each list of override words: (accepted | rejected | config, its message)."""
    env = dict(os.environ)
    extra = os.environ.get("RLCONF_SKYRL_PATH")
    if extra:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [extra, env.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [PYTHON, "-c", RUNNER],  # type: ignore[list-item]
        input=json.dumps(batches),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [tuple(r) for r in json.loads(done.stdout)]  # type: ignore[misc]


def words_of(launch: str) -> list[str]:
    """The override words bash hands SkyRL (read with rlconf's own shell parser; a ${NAME} left to the shell
    expands to some text)."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if MODULE in argv:
            return [SYMBOLIC.sub("x", w) for w in argv[argv.index(MODULE) + 1 :] if w not in ("$@", "${@}")]
    raise AssertionError(f"no {MODULE} command in:\n{launch}")


def _translations() -> tuple[list[tuple[str, list[str]]], list[str]]:
    written, refused = [], []
    for case in CASES:
        if not translatable(case):
            continue
        try:
            translation = translate(case.path, to=f"skyrl@{VERSION}", **case.load_kwargs())
        except ConfigError as error:
            refused.append(f"{case_id(case)}: {error}")
            continue
        written.append((case_id(case), words_of(translation.files["launch.sh"])))
    return written, refused


# Translations SkyRL refuses, each with why (strict: one that starts passing must leave this list).
KNOWN_REJECTED: dict[str, str] = {}


def test_every_translation_into_skyrl_loads_and_passes_validate_batch_sizes() -> None:
    written, refused = _translations()
    verdicts = run_skyrl([words for _, words in written])
    failed = {name: v for (name, _), v in zip(written, verdicts, strict=True) if v[0] != "accepted"}
    print(
        f"skyrl oracle: {len(written)} translations run, {len(written) - len(failed)} accepted, {len(refused)} refused"
    )
    assert len(written) >= 50
    assert {name: v[0] for name, v in failed.items()} == KNOWN_REJECTED, failed


SKYRL_NEW = [c for c in CASES if c.framework == "skyrl" and not str(c.expected["version"]).startswith("skyrl_train")]


@pytest.mark.parametrize("case", SKYRL_NEW, ids=case_id)
def test_rlconf_check_gives_skyrls_verdict_on_its_fixtures(case: Case) -> None:
    source = Path(case.path)
    env = dict(case.load_kwargs()["env"])
    text = source.read_text()
    for name in ("NUM_GPUS",):  # a variable the fixture leaves unset stands for 4 GPUs in both readings
        env.setdefault(name, "4")
    launch = parse_shell(text, env={"HOME": "/h", **env}).commands
    argv = next(unwrap_command(c.argv) for c in launch if any(MODULE in w for w in c.argv))
    words = [SYMBOLIC.sub("x", w) for w in argv[argv.index(MODULE) + 1 :] if w not in ("$@", "${@}")]
    ((outcome, message),) = run_skyrl([words])
    report = check(case.path, framework=f"skyrl@{VERSION}", env=env)
    expected = case.expected["framework_check"]
    if expected["outcome"] != "unknown":
        assert outcome == expected["outcome"], message
    if outcome == "accepted":
        assert not report.errors, [e.message for e in report.errors]
    else:
        assert [e.message for e in report.errors] == [message]
