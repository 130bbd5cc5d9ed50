"""A copy's own start-up checks read statically (translator/sources/startup.py): a check is reported only where the
launch's options reach it for certain; the expected stops are read off the small modules below by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import translator
from tests.conftest import write_project
from translator.errors import ConfigError
from translator.sources.code import Project
from translator.sources.files import Source
from translator.sources.pyconfig import parse
from translator.sources.startup import first_stop, launch_values

# The shape of a copy whose parse_args peeks at its backend option first (a second parser, parse_known_args), then
# parses for that backend and refuses one of them unless a test switch is on; then hands the arguments to its
# module's validation, which refuses a token budget left unset under dynamic batching.
ARGUMENTS = """import argparse
import os


def add_arguments(parser):
    parser.add_argument("--train-backend", type=str, choices=["megatron", "fsdp"], default="megatron")
    parser.add_argument("--ci-test", action="store_true")
    parser.add_argument("--use-dynamic-batch-size", action="store_true")
    parser.add_argument("--max-tokens-per-gpu", type=int, default=None)
    parser.add_argument("--rollout-batch-size", type=int, required=True)
    parser.add_argument("--n-samples-per-prompt", type=int, default=1)
    return parser


def peek_backend():
    if os.environ.get("OLD_BACKEND") is not None:
        raise Exception("OLD_BACKEND is deprecated")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    partial, _ = parser.parse_known_args()
    return partial.train_backend


def validate(args):
    if args.use_dynamic_batch_size:
        assert args.max_tokens_per_gpu is not None, "set --max-tokens-per-gpu with dynamic batching"
    if args.rollout_batch_size * args.n_samples_per_prompt % 8 != 0:
        raise ValueError(f"{args.rollout_batch_size} x {args.n_samples_per_prompt} is not a multiple of 8")


def parse_args():
    backend = peek_backend()
    if backend == "megatron":
        args = megatron_parse(add_arguments)
        configure(args)
    else:
        args = fsdp_parse(add_arguments)
        args.world_size = 8
        if not args.ci_test:
            raise ValueError("the fsdp backend is experimental")
    validate(args)
    return args
"""
TREE = parse(Source(ARGUMENTS, "arguments.py"))
LINE = {text: ARGUMENTS.splitlines().index(line) + 1 for line in ARGUMENTS.splitlines() for text in [line.strip()]}


def stop(**given: object) -> tuple[int, str] | None:
    found = first_stop(TREE, "parse_args", given)
    return None if found is None else (found.line, found.message)


def test_the_launchs_words_take_the_options_types_and_the_rest_their_defaults() -> None:
    values = launch_values(TREE, {"rollout_batch_size": "4", "ci_test": True, "megatron_only": "2"})
    assert values["rollout_batch_size"] == 4 and values["ci_test"] is True  # type=int; a switch given
    assert values["n_samples_per_prompt"] == 1 and values["max_tokens_per_gpu"] is None  # defaults
    assert values["use_dynamic_batch_size"] is False and values["train_backend"] == "megatron"
    assert "megatron_only" not in values  # declared by another module's parser: its type is not known here


def test_a_raise_the_launchs_backend_reaches_for_certain_stops_it() -> None:
    # --train-backend fsdp: peek_backend returns it, the else branch parses and raises unless --ci-test
    assert stop(train_backend="fsdp", rollout_batch_size="8") == (
        LINE['raise ValueError("the fsdp backend is experimental")'],
        "the fsdp backend is experimental",
    )
    assert stop(train_backend="fsdp", ci_test=True, rollout_batch_size="8") is None
    # megatron: configure(args), a function of another module, may set anything: validate's checks are not known
    assert stop(train_backend="megatron", rollout_batch_size="3", n_samples_per_prompt="1") is None


def test_checks_of_the_functions_it_hands_the_arguments_to_run_on_the_same_values() -> None:
    # fsdp with --ci-test reaches validate(args): dynamic batching without a token budget fails its assert
    assert stop(train_backend="fsdp", ci_test=True, use_dynamic_batch_size=True, rollout_batch_size="8") == (
        LINE['assert args.max_tokens_per_gpu is not None, "set --max-tokens-per-gpu with dynamic batching"'],
        "set --max-tokens-per-gpu with dynamic batching",
    )
    # 3 × 2 = 6 is not a multiple of 8: the f-string's message as Python prints it, its values filled in
    found = stop(train_backend="fsdp", ci_test=True, rollout_batch_size="3", n_samples_per_prompt="2")
    assert found is not None and found[1] == "3 x 2 is not a multiple of 8"
    assert stop(train_backend="fsdp", ci_test=True, rollout_batch_size="4", n_samples_per_prompt="2") is None


@pytest.mark.parametrize(
    "given",
    [
        {"train_backend": "${BACKEND}", "rollout_batch_size": "8"},  # a variable the shell left unset
        {"train_backend": "fsdp", "ci_test": True, "rollout_batch_size": "${N}", "n_samples_per_prompt": "3"},
    ],
)
def test_a_word_the_shell_leaves_unset_decides_nothing(given: dict[str, object]) -> None:
    assert stop(**given) is None


def test_hasattr_of_a_declared_option_is_true_and_of_another_unknown() -> None:
    # argparse sets every declared option (its default where the launch gives none): hasattr(args, "n_samples_per_
    # prompt") holds, and 3 × 1 = 3 < 8 raises; an attribute no parser here declares may be set elsewhere: unknown
    tree = parse(
        Source(
            "import argparse\n\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--rollout-batch-size', type=int)\n"
            "    parser.add_argument('--n-samples-per-prompt', type=int, default=1)\n"
            "    args = parser.parse_args()\n"
            "    if hasattr(args, 'elsewhere'):\n        raise ValueError('elsewhere')\n"
            "    if hasattr(args, 'n_samples_per_prompt'):\n"
            "        if args.rollout_batch_size * args.n_samples_per_prompt < 8:\n"
            "            raise ValueError('too few samples')\n",
            "arguments.py",
        )
    )
    found = first_stop(tree, "parse_args", {"rollout_batch_size": "3"})
    assert found is not None and (found.line, found.message) == (13, "too few samples")
    assert first_stop(tree, "parse_args", {"rollout_batch_size": "8"}) is None


def test_checks_behind_loops_unknown_tests_or_other_modules_are_not_reported() -> None:
    tree = parse(
        Source(
            "def parse_args():\n"
            "    args = parse()\n"
            "    for name in names:\n"
            "        args.mode = name\n"
            "    if args.mode == 'x':\n"  # set in a loop: not known
            "        raise ValueError('mode x')\n"
            "    if os.environ.get('FLAG'):\n"
            "        raise ValueError('flag')\n"
            "    assert args.tensor_model_parallel_size == 1, 'declared by another parser'\n",
            "arguments.py",
        )
    )
    assert first_stop(tree, "parse_args", {"mode": "x", "tensor_model_parallel_size": "2"}) is None


def test_a_copys_launch_that_its_own_argument_checks_refuse_is_refused(tmp_path: Path) -> None:
    # The project keeps slime's code with the parse_args above as slime/utils/arguments.py; train.py runs it. The
    # launch's --train-backend fsdp without --ci-test reaches the raise: exit 2 naming the copy's file and line.
    files = {
        "slime/__init__.py": "",
        "slime/utils/__init__.py": "",
        "slime/utils/arguments.py": ARGUMENTS,
        "train.py": "from slime.utils.arguments import parse_args\n\nargs = parse_args()\n",
        "run.sh": (
            "python3 train.py --train-backend fsdp --actor-num-nodes 1 --actor-num-gpus-per-node 4 "
            "--rollout-batch-size 8 --n-samples-per-prompt 4 --global-batch-size 32\n"
        ),
    }
    write_project(tmp_path, files)
    line = LINE['raise ValueError("the fsdp backend is experimental")']
    with pytest.raises(ConfigError, match=rf"slime/utils/arguments\.py:{line} .*the fsdp backend is experimental"):
        translator.explain(str(tmp_path / "run.sh"))
    # with --ci-test the copy starts: 8 prompts × 4 = 32 samples, one optimizer step of 32
    (tmp_path / "run.sh").write_text(files["run.sh"].replace("--train-backend fsdp", "--train-backend fsdp --ci-test"))
    plan = translator.explain(str(tmp_path / "run.sh")).spec.plan
    assert (plan.samples_per_step, plan.optimizer_steps_per_step) == (32, 1)


def test_a_check_after_a_return_an_unknown_test_decides_is_not_reported() -> None:
    # validate may return early when OLD_MODE is set (not known here): its raise need not run, and the caller's
    # assert after it reads arguments validate may have set: neither is reported.
    tree = parse(
        Source(
            "def validate(args):\n"
            "    if os.environ.get('OLD_MODE'):\n"
            "        return\n"
            "    args.checked = False\n"
            "    raise ValueError('always')\n"
            "\n"
            "def parse_args():\n"
            "    args = parse()\n"
            "    validate(args)\n"
            "    assert args.checked, 'unchecked'\n",
            "arguments.py",
        )
    )
    assert first_stop(tree, "parse_args", {}) is None


# The shape of slime's parse_args from v0.2.4: a pre-parse of a few options returns its namespace; a second parser of
# another module (the inference engine's options, each renamed with a prefix) returns another; both are merged into
# the arguments field by field; then the module's validation calls a helper of another project module, which hands
# the arguments on inside a loop to a function that sets one field.
MERGING = """import argparse

from pkg.engine import engine_parse_args
from pkg.extra import fill_eval


def add_arguments(parser):
    parser.add_argument("--rollout-batch-size", type=int)
    parser.add_argument("--global-batch-size", type=int)
    parser.add_argument("--dynamic-global-batch", action="store_true")
    parser.add_argument("--eval-data", type=str, default=None)
    return parser


def _pre_parse():
    temp = argparse.ArgumentParser(add_help=False)
    temp.add_argument("--debug-train-only", action="store_true", default=False)
    temp_args, _ = temp.parse_known_args()
    return temp_args


def validate(args):
    fill_eval(args)
    if not args.dynamic_global_batch and args.rollout_batch_size < args.global_batch_size:
        raise ValueError("the rollout holds fewer samples than one global batch")


def parse_args():
    pre = _pre_parse()
    engine_ns = None
    if not pre.debug_train_only:
        engine_ns = engine_parse_args()
    args = megatron_parse(add_arguments)
    for key, value in vars(pre).items():
        setattr(args, key, value)
    if engine_ns is not None:
        for key, value in vars(engine_ns).items():
            setattr(args, key, value)
    validate(args)
    return args
"""
EXTRA = """def _one(args, name):
    args.eval_data = name


def fill_eval(args):
    for name in ["a", "b"]:
        _one(args, name)
"""
ENGINE = """def engine_parse_args():
    parser = make_engine_parser()
    parser.add_argument("--engine-config", type=str, default=None)
    return parser.parse_known_args()[0]
"""


def merging_project(tmp_path: Path, extra: str = EXTRA) -> tuple[Project, ast.Module]:
    write_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/arguments.py": MERGING, "pkg/extra.py": extra, "pkg/engine.py": ENGINE},
    )
    project = Project(str(tmp_path), str(tmp_path))
    tree = project.tree(str(tmp_path / "pkg" / "arguments.py"))
    assert tree is not None
    return project, tree


def test_namespaces_merged_from_other_parses_keep_the_launchs_values_and_project_helpers_are_followed(
    tmp_path: Path,
) -> None:
    # rollout 16 < global batch 32 without --dynamic-global-batch: validate raises, whatever the merges (they set only
    # debug_train_only, and engine_* / engine_config) and fill_eval (it sets only eval_data) did.
    project, tree = merging_project(tmp_path)
    given = {"rollout_batch_size": "16", "global_batch_size": "32"}
    engine = {"engine_parse_args": ("engine_", "engine_config")}
    found = first_stop(tree, "parse_args", given, engine, project.imported_function)
    assert found is not None and found.message == "the rollout holds fewer samples than one global batch"
    assert (
        first_stop(tree, "parse_args", {**given, "dynamic_global_batch": True}, engine, project.imported_function)
        is None
    )
    # Without knowing what the engine's namespace holds, or what the helper may set, nothing is certain.
    assert first_stop(tree, "parse_args", given, None, project.imported_function) is None
    assert first_stop(tree, "parse_args", given, engine, None) is None
    # A helper setting the field the check reads, or any field through the namespace's __dict__: the check's outcome
    # is not known. One appending to another field (args.eval_data.append) changes that field only.
    for helper in ("args.global_batch_size = 1", "args.__dict__.update(extra)"):
        project, tree = merging_project(tmp_path / helper[:9], EXTRA.replace("args.eval_data = name", helper))
        assert first_stop(tree, "parse_args", given, engine, project.imported_function) is None
    project, tree = merging_project(
        tmp_path / "append", EXTRA.replace("args.eval_data = name", "args.eval_data.append(name)")
    )
    assert first_stop(tree, "parse_args", given, engine, project.imported_function) is not None


def test_a_slime_copy_whose_checks_follow_the_sglang_namespace_merge_is_refused(tmp_path: Path) -> None:
    # slime's own parse of SGLang's options (sglang_parse_args) holds only sglang_*/router_* fields and those its
    # module declares by name (translator/frameworks/slime/tables.py PREFIXED_PARSES): merged in, it leaves
    # --rollout-batch-size 16 and --global-batch-size 32 as they are, so the copy's check stops the launch.
    arguments = (
        MERGING.replace(
            "from pkg.engine import engine_parse_args",
            "from slime.backends.sglang_utils.arguments import sglang_parse_args",
        )
        .replace("from pkg.extra", "from slime.utils.extra")
        .replace("engine_parse_args()", "sglang_parse_args()")
    )
    files = {
        "slime/__init__.py": "",
        "slime/utils/__init__.py": "",
        "slime/utils/arguments.py": arguments,
        "slime/utils/extra.py": EXTRA,
        "slime/backends/sglang_utils/arguments.py": ENGINE.replace("engine_parse_args", "sglang_parse_args"),
        "train.py": "from slime.utils.arguments import parse_args\n\nargs = parse_args()\n",
        "run.sh": (
            "python3 train.py --actor-num-nodes 1 --actor-num-gpus-per-node 4 "
            "--rollout-batch-size 16 --n-samples-per-prompt 1 --global-batch-size 32\n"
        ),
    }
    write_project(tmp_path, files)
    with pytest.raises(ConfigError, match=r"slime/utils/arguments\.py:\d+ .*fewer samples than one global batch"):
        translator.explain(str(tmp_path / "run.sh"))
    (tmp_path / "run.sh").write_text(files["run.sh"].replace("--global-batch-size 32", "--global-batch-size 16"))
    plan = translator.explain(str(tmp_path / "run.sh")).spec.plan
    assert (plan.samples_per_step, plan.samples_per_optimizer_step, plan.optimizer_steps_per_step) == (16, 16, 1)


ENTRY_SCRIPT = """import argparse
import os


def train(args):
    pass


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--vllm_num_engines", type=int, default=None)
    parser.add_argument("--n_samples_per_prompt", type=int, default=1)
    parser.add_argument("--colocate", action="store_true", default=False)
    args = parser.parse_args()
    if os.environ.get("FAST") and args.vllm_num_engines > 0:
        pass
    if args.colocate and args.vllm_num_engines > 0:
        pass
    if args.vllm_num_engines >= 1 and args.n_samples_per_prompt > 1:
        print("enable prefix caching")
    train(args)
"""


@pytest.mark.parametrize(
    ("given", "stops"),
    [
        ({}, True),  # vllm_num_engines keeps its default None: None >= 1 raises TypeError (line 19)
        ({"vllm_num_engines": "2"}, False),
        # --colocate makes line 17 compare None > 0 first
        ({"colocate": True}, True),
    ],
)
def test_a_scripts_main_block_comparing_a_none_default_with_a_number_stops_it(
    given: dict[str, object], stops: bool
) -> None:
    # Python 3 refuses an order comparison of None with a number (TypeError). Line 15's comparison sits behind an
    # environment variable rlconf does not know, and `and` need not evaluate it: not reported; line 17's only runs
    # with --colocate (its default False short-circuits it).
    tree = parse(Source(ENTRY_SCRIPT, "train_ppo_ray.py"))
    found = first_stop(tree, None, given)
    if not stops:
        assert found is None
        return
    line = 17 if given.get("colocate") else 19
    symbol, value = (">", "0") if line == 17 else (">=", "1")
    assert found is not None and found.line == line
    assert found.message == (
        f"TypeError: '{symbol}' not supported between instances of 'NoneType' and 'int' "
        f"(args.vllm_num_engines {symbol} {value})"
    )


def test_an_openrlhf_forks_entry_script_that_stops_on_its_flags_is_refused(tmp_path: Path) -> None:
    # A fork runs its own examples/train_ppo_ray.py (the main block above): without --vllm_num_engines its default
    # None meets `>= 1` and Python stops with TypeError before training; with it the launch reads.
    launch = (
        "python3 examples/train_ppo_ray.py --pretrain m --actor_num_nodes 1 --actor_num_gpus_per_node 2 "
        "--micro_train_batch_size 2 --train_batch_size 16 --micro_rollout_batch_size 4 --rollout_batch_size 32"
    )
    # the script's parser declares every flag the launch passes (else parse_args() stops first), on one line so
    # the main block's lines stay where the message names them
    flags = [w[2:] for w in launch.split() if w.startswith("--") and w[2:] not in ENTRY_SCRIPT]
    declared = "; ".join(f'parser.add_argument("--{flag}")' for flag in flags)
    entry = ENTRY_SCRIPT.replace(
        "parser = argparse.ArgumentParser()", f"parser = argparse.ArgumentParser(); {declared}"
    )
    write_project(
        tmp_path,
        {
            "examples/train_ppo_ray.py": entry,
            "run.sh": launch + "\n",
            "vllm.sh": launch + " --vllm_num_engines 2\n",
        },
    )
    with pytest.raises(ConfigError, match=r"examples/train_ppo_ray\.py:19 .*TypeError: '>=' not supported"):
        translator.explain(str(tmp_path / "run.sh"), "openrlhf@0.5.0")
    assert translator.explain(str(tmp_path / "vllm.sh"), "openrlhf@0.5.0").spec.plan.samples_per_step == 32


def test_a_required_option_the_launch_leaves_out_decides_no_check() -> None:
    # --rollout-batch-size is required: left out, argparse stops first with its own message; no check after the
    # parse (None >= None would raise TypeError) is what the user meets, so none is reported.
    tree = parse(
        Source(
            "import argparse\n\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--rollout-batch-size', type=int, required=True)\n"
            "    parser.add_argument('--over-sampling-batch-size', type=int, default=None)\n"
            "    args = parser.parse_args()\n"
            "    assert args.over_sampling_batch_size >= args.rollout_batch_size, 'too few'\n",
            "arguments.py",
        )
    )
    assert first_stop(tree, "parse_args", {}) is None
    found = first_stop(tree, "parse_args", {"rollout_batch_size": "8"})
    assert found is not None and found.message.startswith("TypeError: '>=' not supported")
    assert first_stop(tree, "parse_args", {"rollout_batch_size": "8", "over_sampling_batch_size": "4"}) is not None
    assert first_stop(tree, "parse_args", {"rollout_batch_size": "8", "over_sampling_batch_size": "16"}) is None


INT_FLAGS = {
    "actor_num_nodes": 1,
    "actor_num_gpus_per_node": 2,
    "micro_train_batch_size": 2,
    "train_batch_size": 16,
    "micro_rollout_batch_size": 4,
    "rollout_batch_size": 32,
    "vllm_num_engines": 2,
}


@pytest.mark.parametrize("parents", [False, True])
def test_a_field_the_parser_never_declares_stops_the_copy_where_its_helper_reads_it(
    tmp_path: Path, parents: bool
) -> None:
    # A project's copy of OpenRLHF's own entry (openrlhf/cli/train_ppo_ray.py) hands the parsed arguments to
    # get_strategy, which openrlhf/utils/__init__.py re-exports from utils/utils.py, whose line 2 reads
    # args.close_fsdp: the parser declares no such option, so Python stops with AttributeError there. With a parent
    # parser (options rlconf does not list) the field may exist: nothing is reported.
    parser = "argparse.ArgumentParser(parents=[base])" if parents else "argparse.ArgumentParser()"
    entry = (
        "import argparse\n\nfrom openrlhf.utils import get_strategy\n\n\ndef train(args):\n"
        "    strategy = get_strategy(args)\n\n\nif __name__ == '__main__':\n"
        f"    base = argparse.ArgumentParser(add_help=False)\n    parser = {parser}\n"
        + "".join(f"    parser.add_argument('--{name}', type=int, default=None)\n" for name in INT_FLAGS)
        + "    parser.add_argument('--pretrain', type=str, default=None)\n"
        "    args = parser.parse_args()\n    train(args)\n"
    )
    launch = "python3 -m openrlhf.cli.train_ppo_ray --pretrain m " + " ".join(
        f"--{name} {value}" for name, value in INT_FLAGS.items()
    )
    root = write_project(
        tmp_path,
        {
            "openrlhf/__init__.py": "",
            "openrlhf/cli/__init__.py": "",
            "openrlhf/cli/train_ppo_ray.py": entry,
            "openrlhf/utils/__init__.py": "from .utils import get_strategy\n",
            "openrlhf/utils/utils.py": "def get_strategy(args):\n    if not args.close_fsdp:\n        return 1\n",
            "run.sh": launch + "\n",
        },
    )
    if parents:
        assert translator.explain(str(root / "run.sh"), "openrlhf@0.5.0").spec.plan.prompts_per_step == 32
        return
    with pytest.raises(ConfigError, match=r"openrlhf/utils/utils\.py:2 .*AttributeError: .*'close_fsdp'"):
        translator.explain(str(root / "run.sh"), "openrlhf@0.5.0")


@pytest.mark.parametrize(
    ("parse", "stops"),
    [
        ("args = parser.parse_args()", True),  # the parser's own fields: `missing` is not one
        ("args = load_config(parser)", False),  # a function decides the fields (the parser is handed to it)
        ("args = get_args()", False),  # another call makes the arguments: its fields are not the parser's
    ],
)
def test_a_field_is_known_absent_only_from_the_parsers_own_parse(parse: str, stops: bool) -> None:
    code = (
        "import argparse\n\nif __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
        f"    parser.add_argument('--n', type=int, default=1)\n    {parse}\n    if args.missing:\n        pass\n"
    )
    stop = first_stop(ast.parse(code), None, {})
    assert (stop is not None and "AttributeError" in stop.message and stop.line == 7) is stops
    assert stop is None or stops
