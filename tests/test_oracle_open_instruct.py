"""Oracle: Open-Instruct's own ``grpo_fast.py`` parser takes every launch line rlconf writes for it, its config
dataclasses' checks and its start-up checks pass, and the parsed values are the plan rlconf read back.

Where Open-Instruct comes from: a checkout of github.com/allenai/open-instruct named by
``$RLCONF_OPEN_INSTRUCT_SRC`` (the repository root, holding ``open_instruct/grpo_fast.py``), at the snapshot of the
newest version rlconf knows, 2026.08.20 (commit e6c3044aa). Open-Instruct is not on PyPI, so CI (which reaches only
PyPI) skips this file; README "Verified against the frameworks" says how to run it.

What runs is Open-Instruct's code as written:
- the parser: the statements of ``grpo_fast.py``'s ``if __name__ == "__main__":`` block from the building of
  ``ArgumentParserPlus((GRPOExperimentConfig, TokenizerConfig, ModelConfig, StreamingDataLoaderConfig,
  VLLMConfig, EnvsConfig))`` through ``parse_args_into_dataclasses()`` and its ``isinstance`` asserts, with the
  module's own top-level imports of the names they use, and ``sys.argv`` set to the words after
  ``open_instruct/grpo_fast.py`` in the written launch.sh (read with rlconf's ``parse_shell``). Left out:
  ``utils.check_oe_eval_internal()`` (a Beaker-only check) and ``main(...)``. HfArgumentParser rejects an
  unknown flag, and building each dataclass runs its ``__post_init__`` (``GRPOExperimentConfig``'s and
  ``StreamingDataLoaderConfig``'s checks: pack length, samples per prompt, async steps, active sampling, "At least
  one reward must be applied!", ...).
- ``setup_runtime_variables``' checks and the two values the plan needs (``args.world_size``,
  ``args.num_training_steps``): its ``if`` statements that raise or assert and those two assignments, taken with
  ``ast`` (the rest names the run, the Beaker cache and the hub).

Stubbed, and why: the modules that hold those dataclasses (``grpo_utils``, ``dataset_transformation``,
``model_utils``, ``data_loader``, ``environments/tools/utils``, ``utils``) import, at their top, runtimes that are
not installable here or need a cluster: vllm, deepspeed, olmo_core, beaker, wandb, docker, openenv and the
IFEval / judge helpers' packages (nltk, langdetect, absl, immutabledict, tiktoken, aiohttp, backoff). A module of
those that is not installed is a fake while these modules load (any attribute is a placeholder class); the
dataclasses' fields and checks use none of them. Installed packages (torch, transformers, datasets, ray) are the
real ones. ``grpo_fast.py`` itself is not imported (its module body builds vLLM types), only read.

Where the written line applies no reward (the source's reward model or server has no Open-Instruct form), rlconf
must fail the translation with ``reward.missing``, grpo_fast.py must stop with "At least one reward must be
applied!", and the rest runs with the fix the note gives (``--apply_verifiable_reward True``).

Added: ``--model_name_or_path`` (a required flag) where the source names no model, so the written line has none
either; the user adds it through the script's ``"$@"``.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import os
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES, Case, case_id, has_group
from translator import translate
from translator.errors import ConfigError
from translator.sources.shell import SYMBOLIC, parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

VERSION = "2026.08.20"  # the newest Open-Instruct version rlconf knows (open_instruct_tables.VERSIONS)
ENTRY = "open_instruct/grpo_fast.py"
RUNTIMES = (
    "vllm",
    "deepspeed",
    "olmo_core",
    "beaker",
    "wandb",
    "docker",
    "openenv",
    "nltk",
    "langdetect",
    "absl",
    "immutabledict",
    "tiktoken",
    "aiohttp",
    "backoff",
)
MODULES = (
    "open_instruct.grpo_utils",
    "open_instruct.dataset_transformation",
    "open_instruct.model_utils",
    "open_instruct.data_loader",
    "open_instruct.environments.tools.utils",
    "open_instruct.utils",
)


def _root() -> Path:
    where = os.environ.get("RLCONF_OPEN_INSTRUCT_SRC")
    if not where:
        pytest.skip(
            "Open-Instruct is not on PyPI: set RLCONF_OPEN_INSTRUCT_SRC to a checkout of "
            f"github.com/allenai/open-instruct ({VERSION}, commit e6c3044aa) to run this oracle",
            allow_module_level=True,
        )
    if not Path(where, ENTRY).is_file():
        pytest.skip(f"RLCONF_OPEN_INSTRUCT_SRC={where} holds no {ENTRY}", allow_module_level=True)
    return Path(where)


ROOT = _root()


class _Placeholder(type):
    """What a fake module's attribute is: a class that can be subclassed, called, subscripted and compared."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Placeholder(name, (), {})

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return _Placeholder("result", (), {})

    def __getitem__(cls, key: Any) -> Any:
        return cls

    def __or__(cls, other: Any) -> Any:
        return cls

    __ror__ = __or__

    def __sub__(cls, other: Any) -> int:  # olmo_core callback priorities: class-level arithmetic and min()
        return 0

    __add__ = __radd__ = __rsub__ = __sub__

    def __lt__(cls, other: Any) -> bool:
        return False

    __gt__ = __le__ = __ge__ = __lt__


class _FakeModule(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Placeholder(name, (), {})


class _Fakes(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, roots: set[str]) -> None:
        self.roots = roots

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in self.roots:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = _FakeModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


@cache
def modules() -> dict[str, types.ModuleType]:
    """The modules holding the entry's dataclasses, loaded from the checkout (module docstring)."""
    missing = {root for root in RUNTIMES if importlib.util.find_spec(root) is None}
    fakes = _Fakes(missing)
    sys.meta_path.insert(0, fakes)
    sys.path.insert(0, str(ROOT))
    try:
        loaded = {name: importlib.import_module(name) for name in MODULES}
    finally:
        sys.meta_path.remove(fakes)
        sys.path.remove(str(ROOT))
        for name in [n for n in sys.modules if n.split(".")[0] in missing]:
            del sys.modules[name]
    assert all(Path(m.__file__ or "").is_relative_to(ROOT) for m in loaded.values())
    return loaded


@cache
def entry() -> tuple[list[ast.stmt], list[ast.stmt], list[ast.stmt]]:
    """grpo_fast.py's imports, its ``__main__`` parsing statements and setup_runtime_variables' checks."""
    tree = ast.parse((ROOT / ENTRY).read_text(), ENTRY)
    [main] = [n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "__name__ == '__main__'"]
    parsing = [
        s
        for s in main.body
        if ast.unparse(s) not in ("utils.check_oe_eval_internal()",) and not ast.unparse(s).startswith("main(")
    ]
    assert any("parse_args_into_dataclasses()" in ast.unparse(s) for s in parsing)
    used = {n.id for s in parsing for n in ast.walk(s) if isinstance(n, ast.Name)}
    imports = [
        n
        for n in tree.body
        if isinstance(n, ast.ImportFrom)
        and n.module
        and n.module.startswith("open_instruct")
        and any((a.asname or a.name) in used for a in n.names)
    ]
    [setup] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "setup_runtime_variables"]
    checks = [
        s
        for s in setup.body
        if (isinstance(s, ast.If) and any(isinstance(n, (ast.Raise, ast.Assert)) for n in ast.walk(s)))
        or (isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) in ("args.world_size", "args.num_training_steps"))
    ]
    assert len(checks) == 4, [ast.unparse(s) for s in checks]
    return imports, parsing, checks


def run(statements: list[ast.stmt], namespace: dict[str, Any]) -> None:
    module = ast.fix_missing_locations(ast.Module(body=statements, type_ignores=[]))
    exec(compile(module, ENTRY, "exec"), namespace)


def parsed(words: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What grpo_fast.py's __main__ block leaves: args, tokenizer_config, ..., tools_config."""
    loaded = modules()
    imports, parsing, _ = entry()
    namespace: dict[str, Any] = {"__name__": "open_instruct_grpo_fast_oracle"}
    # The entry's own `from open_instruct import ...` lines, resolved to the modules loaded above.
    for node in imports:
        for alias in node.names:
            name = f"{node.module}.{alias.name}"
            namespace[alias.asname or alias.name] = (
                loaded[name] if name in loaded else getattr(loaded[node.module], alias.name)
            )
    monkeypatch.setattr(sys, "argv", [ENTRY, *words])
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            run(parsing, namespace)
    except SystemExit:
        pytest.fail(f"grpo_fast.py rejects the launch line: {stderr.getvalue().strip().splitlines()[-1]}")
    return namespace


def start_up(namespace: dict[str, Any]) -> Any:
    _, _, checks = entry()
    scope = {
        "args": namespace["args"],
        "streaming_config": namespace["streaming_config"],
        "tools_config": namespace["tools_config"],
    }
    run(checks, scope)
    return scope["args"]


def words_of(launch: str) -> list[str]:
    """The words after ``open_instruct/grpo_fast.py`` (a ${NAME} left to the shell expands to some text)."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if ENTRY in argv:
            return [SYMBOLIC.sub("x", w) for w in argv[argv.index(ENTRY) + 1 :]]
    raise AssertionError(f"no {ENTRY} command in:\n{launch}")


@pytest.mark.parametrize("case", [c for c in CASES if has_group(c)], ids=case_id)
def test_written_launch_line_is_parsed_and_passes_grpo_fasts_checks(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        translation = translate(case.path, to=f"open-instruct@{VERSION}", **case.load_kwargs())
    except ConfigError as error:
        if "number of training processes is unknown" in str(error):
            pytest.skip(f"nothing is emitted: {error}")
        raise
    monkeypatch.chdir(tmp_path)  # checkpoint_state_dir is looked at relative to the run directory
    words = words_of(translation.files["launch.sh"])
    if "--model_name_or_path" not in words:  # the source names no model either: the user adds it through "$@"
        assert translation.spec.references.model is None
        words += ["--model_name_or_path", "the-users-model"]
    if translation.files["launch.sh"].count("--apply_verifiable_reward False"):  # no reward can be written
        assert "reward.missing" in {n.code for n in translation.errors}
        with pytest.raises(AssertionError, match="At least one reward must be applied!"):
            parsed(words, monkeypatch)
        words += ["--apply_verifiable_reward", "True"]  # the fix the error note gives
    namespace = parsed(words, monkeypatch)
    args = start_up(namespace)
    streaming = namespace["streaming_config"]

    # The parsed values are the plan rlconf read back (docs/frameworks/open-instruct.md §1.1: U prompts × S
    # samples per step, num_mini_batches optimizer steps per epoch, learners ÷ sequence parallel ranks).
    plan = translation.plan
    u, s = streaming.num_unique_prompts_rollout, streaming.num_samples_per_prompt_rollout
    assert s == plan["samples_per_prompt"]
    assert u == plan["prompts_per_step"]
    assert u * s == plan["samples_per_step"]
    assert u * s / args.num_mini_batches == pytest.approx(plan["samples_per_optimizer_step"])
    assert args.num_epochs == plan["epochs_per_step"]
    assert args.num_epochs * args.num_mini_batches == plan["optimizer_steps_per_step"]
    assert args.world_size // args.sequence_parallel_size == plan["data_parallel_size"]

    # The columns grpo_fast.py's rlvr_tokenize_v1 reads (dataset_transformation.py@e6c3044aa: row[sft_messages_key],
    # row[ground_truths_key]; TokenizerConfig defaults messages, ground_truth) are the source's own: its prompt
    # column (verl's default is prompt), and its answer column where it names one.
    data = translation.source.spec.data
    tokenizer_config = namespace["tokenizer_config"]
    assert tokenizer_config.sft_messages_key == (data.prompt_key or "messages")
    if data.answer_key is not None:
        assert tokenizer_config.ground_truths_key == data.answer_key
