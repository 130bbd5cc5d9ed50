"""Oracle: OpenRLHF's own ``train_ppo_ray`` argument parser accepts every flag rlconf writes, for a flat-flag release
(0.10.1) and a dotted-flag release (0.11.2), and its start-up checks pass; its values are the plan rlconf read back.

Where the source comes from: each release's wheel (``pip download --no-deps openrlhf==VERSION``), unpacked into
``$RLCONF_ORACLE_DIR/openrlhf-VERSION`` by .ci/run. Two releases cannot be installed at once, and importing the
module would import ray, torch and the trainers; nor is a wheel pip-installed (each also installs a top-level
``tests`` package, which would shadow this repository's ``tests/``).

How the real parser is obtained: ``openrlhf/cli/train_ppo_ray.py`` builds it only under ``if __name__ ==
"__main__":``. The test parses that file with ``ast`` and executes, in a fresh namespace, (1) the file's top-level
imports of standard-library modules (argparse, os, datetime; the others - ray, openrlhf.* - are left out) and (2)
the statements of the ``__main__`` block before ``args = parser.parse_args()``, which only create the parser and add
its arguments. The resulting ``parser`` is the release's own ArgumentParser object; nothing in it is changed.

The start-up checks: the statements of the same block after ``parse_args()`` - the asserts and adjustments
``train_ppo_ray`` makes before ``train(args)`` - run on the parsed arguments, except ``train(args)`` itself and the
``if args.use_ms:`` block (a ModelScope hub patch); 0.11.2's ``from openrlhf.utils.config import hierarchize`` is
replaced by the same function loaded from that release's ``openrlhf/utils/config.py`` (importing the ``openrlhf``
package would import its trainers). Their printed advice is discarded. When the emitted script names no reward
(the source's reward has no OpenRLHF form), rlconf notes it, and the checks run with the reward the user then adds
through the script's ``"$@"`` (a remote reward file).
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import os
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES, Case, case_id
from translator import translate
from translator.errors import ConfigError
from translator.sources.shell import parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

VERSIONS = ("0.10.1", "0.11.2")  # the last flat-flag release and a dotted-flag one
ENTRY = "openrlhf.cli.train_ppo_ray"


@cache
def package(version: str) -> Path | None:
    """The unpacked ``openrlhf`` package of one release, under $RLCONF_ORACLE_DIR."""
    oracle = os.environ.get("RLCONF_ORACLE_DIR")
    if not oracle:
        return None
    found = sorted(Path(oracle, f"openrlhf-{version}").glob("**/openrlhf/cli/train_ppo_ray.py"))
    return found[0].parent.parent if found else None


def require(version: str) -> Path:
    where = package(version)
    if where is None:
        pytest.skip(f"OpenRLHF {version}'s source is not here: set RLCONF_ORACLE_DIR to the directory .ci/run unpacks "
                    f"the openrlhf=={version} wheel into")
    return where


@cache
def main_block(version: str) -> tuple[list[ast.stmt], list[ast.stmt], list[ast.stmt]]:
    """train_ppo_ray.py's standard-library imports, its parser construction, and its start-up checks."""
    path = require(version) / "cli" / "train_ppo_ray.py"
    tree = ast.parse(path.read_text(), str(path))
    stdlib = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
              and all((getattr(node, "module", None) or alias.name).split(".")[0] in sys.stdlib_module_names
                      for alias in node.names)]
    [main] = [node for node in tree.body
              if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'"]
    split = next(i for i, node in enumerate(main.body) if ast.unparse(node) == "args = parser.parse_args()")
    build, checks = main.body[:split], main.body[split + 1:]
    assert not [node for stmt in build for node in ast.walk(stmt) if isinstance(node, (ast.Import, ast.ImportFrom))]
    return stdlib, build, checks


def run_statements(statements: list[ast.stmt], namespace: dict[str, Any], filename: str) -> None:
    module = ast.fix_missing_locations(ast.Module(body=statements, type_ignores=[]))
    exec(compile(module, filename, "exec"), namespace)  # noqa: S102  (the release's own code)


def real_parser(version: str) -> argparse.ArgumentParser:
    stdlib, build, _ = main_block(version)
    namespace: dict[str, Any] = {"__name__": f"openrlhf_{version}_train_ppo_ray"}
    run_statements([*stdlib, *build], namespace, "train_ppo_ray.py")
    parser = namespace["parser"]
    assert isinstance(parser, argparse.ArgumentParser)
    return parser


def start_up_checks(version: str, args: argparse.Namespace) -> Any:
    """Run train_ppo_ray's checks on parsed arguments (module docstring); returns the arguments they leave."""
    _, _, checks = main_block(version)
    namespace: dict[str, Any] = {"args": args}
    kept = []
    for statement in checks:
        text = ast.unparse(statement)
        if text == "train(args)" or text.startswith("if args.use_ms:"):
            continue
        if isinstance(statement, ast.ImportFrom) and statement.module == "openrlhf.utils.config":
            spec = importlib.util.spec_from_file_location(f"openrlhf_{version}_config",
                                                          require(version) / "utils" / "config.py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            namespace.update({alias.asname or alias.name: getattr(module, alias.name) for alias in statement.names})
            continue
        assert not [n for n in ast.walk(statement) if isinstance(n, (ast.Import, ast.ImportFrom))], text
        kept.append(statement)
    with contextlib.redirect_stdout(io.StringIO()):
        run_statements(kept, namespace, "train_ppo_ray.py")
    return namespace["args"]


def flags_of(launch: str) -> list[str]:
    """The words after ``-m openrlhf.cli.train_ppo_ray`` in the emitted script (read with rlconf's shell reader)."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if ENTRY in argv:
            return argv[argv.index(ENTRY) + 1:]
    raise AssertionError(f"no {ENTRY} command in:\n{launch}")


def parse(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    """The parser's verdict, with argparse's own error message on a rejection."""
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            return parser.parse_args(words)
    except SystemExit:
        pytest.fail(f"train_ppo_ray rejects the flags: {stderr.getvalue().strip().splitlines()[-1]}")


def value(args: Any, flat: str, dotted: str) -> Any:
    """One parsed value, by its flat name (≤ 0.10.1) or its dotted name (hierarchized in ≥ 0.10.2)."""
    if isinstance(args, argparse.Namespace) and hasattr(args, flat):
        return getattr(args, flat)
    for part in dotted.split("."):
        args = getattr(args, part)
    return args


REWARD_FLAGS = {"remote_rm_url", "reward_pretrain", "agent_func_path", "reward.remote_url",
                "reward.model_name_or_path", "train.agent_func_path"}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_emitted_flags_are_accepted_by_train_ppo_ray(case: Case, version: str) -> None:
    require(version)
    try:
        translation = translate(case.path, to=f"openrlhf@{version}", **case.load_kwargs())
    except ConfigError as error:
        if "number of training processes is unknown" in str(error):
            pytest.skip(f"nothing is emitted: {error}")
        raise
    parser = real_parser(version)
    words = flags_of(translation.files["launch.sh"])
    # Every flag is one of the release's option strings as written (argparse would also take a unique prefix).
    known = set(parser._option_string_actions)  # argparse keeps no public list of its option strings
    assert not [w for w in words if w.startswith("--") and w not in known]
    args = parse(parser, words)

    named = {w[2:] for w in words if w.startswith("--")} & REWARD_FLAGS
    if not named:  # the user adds the reward, as the note says
        assert "references.reward-missing" in {n.code for n in translation.notes}
        remote = "--remote_rm_url" if "--remote_rm_url" in known else "--reward.remote_url"
        args = parse(parser, [*words, remote, "reward.py"])
    args = start_up_checks(version, args)

    # The values train_ppo_ray works with are the plan rlconf read back from the script (the flags that map one to
    # one: how OpenRLHF splits --train.batch_size over ranks is rlconf's reading, not the parser's).
    plan = translation.plan
    n = value(args, "n_samples_per_prompt", "rollout.n_samples_per_prompt")
    assert n == plan["samples_per_prompt"]
    assert value(args, "rollout_batch_size", "rollout.batch_size") * n == plan["samples_per_step"]
    assert Fraction(value(args, "rollout_batch_size", "rollout.batch_size")) == Fraction(plan["prompts_per_step"])
    assert value(args, "max_epochs", "train.max_epochs") == plan["epochs_per_step"]
    if plan["micro_batch_per_device"] is not None:
        assert value(args, "micro_train_batch_size", "train.micro_batch_size") == plan["micro_batch_per_device"]
