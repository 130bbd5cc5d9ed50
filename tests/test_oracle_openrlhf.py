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

``rlconf check`` against the same checks (the second half of the file): each rule violation of
tests/test_check_openrlhf.py that these checks can judge, rendered the same way and parsed and checked by the
release; rlconf must reject exactly what OpenRLHF rejects, in OpenRLHF's words, and its first fix must be accepted.
Three more asserts come from ``train()``: the colocation sizes, which ``train()`` asserts on the arguments alone
before it builds any model (after ``ray.init``, between placement groups that need GPUs). They run as ``train()``'s
own ``if``/``assert`` statements, every other statement left out; the test checks that these read nothing but
``args`` and that ``train()`` assigns to no argument, so the values are those the checks above left. The lines
the checks print are compared too, where an rlconf warning quotes one.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import importlib.util
import io
import os
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES, Case, case_id, findings_of, has_group
from tests.test_check_openrlhf import DOTTED, EARLY, EARLY_04, EARLY_059, FLAT, check, config, render
from translator import translate
from translator.errors import ConfigError
from translator.frameworks.openrlhf.dialect import spelled
from translator.sources.shell import parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

VERSIONS = ("0.10.1", "0.11.2")  # the last flat-flag release and a dotted-flag one
# Releases before 0.8 (docs/frameworks/openrlhf.md §13): per-rank prompt loops with _validate_args (0.5.9, 0.6.4,
# 0.7.0) and the first single-controller releases (0.7.3, 0.7.5). Skipped unless their wheels are unpacked under
# $RLCONF_ORACLE_DIR like the two above.
EARLY_VERSIONS = ("0.5.9", "0.6.4", "0.7.0", "0.7.3", "0.7.5")
# Releases rlconf reads but does not write (the writer starts at 0.5.0): only `rlconf check` is compared with their
# start-up checks (the second half of the file). 0.4.3 stands for 0.4.0–0.4.3 (the same checks), 0.4.4 has the
# packing asserts, 0.4.6 the engines assert of _validate_args.
READ_VERSIONS = ("0.4.3", "0.4.4", "0.4.6")
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
        pytest.skip(
            f"OpenRLHF {version}'s source is not here: set RLCONF_ORACLE_DIR to the directory .ci/run unpacks "
            f"the openrlhf=={version} wheel into"
        )
    return where


@cache
def main_block(version: str) -> tuple[list[ast.stmt], list[ast.stmt], list[ast.stmt]]:
    """train_ppo_ray.py's standard-library imports, its parser construction, and its start-up checks."""
    path = require(version) / "cli" / "train_ppo_ray.py"
    tree = ast.parse(path.read_text(), str(path))
    stdlib = [
        node
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom))
        and all(
            (getattr(node, "module", None) or alias.name).split(".")[0] in sys.stdlib_module_names
            for alias in node.names
        )
    ]
    [main] = [
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'"
    ]
    split = next(i for i, node in enumerate(main.body) if ast.unparse(node) == "args = parser.parse_args()")
    build, checks = main.body[:split], main.body[split + 1 :]
    assert not [node for stmt in build for node in ast.walk(stmt) if isinstance(node, (ast.Import, ast.ImportFrom))]
    return stdlib, build, checks


def run_statements(statements: list[ast.stmt], namespace: dict[str, Any], filename: str) -> None:
    module = ast.fix_missing_locations(ast.Module(body=statements, type_ignores=[]))
    exec(compile(module, filename, "exec"), namespace)


def real_parser(version: str) -> argparse.ArgumentParser:
    stdlib, build, _ = main_block(version)
    namespace: dict[str, Any] = {"__name__": f"openrlhf_{version}_train_ppo_ray"}
    run_statements([*stdlib, *build], namespace, "train_ppo_ray.py")
    parser = namespace["parser"]
    assert isinstance(parser, argparse.ArgumentParser)
    return parser


def start_up_checks(version: str, args: argparse.Namespace, printed: io.StringIO | None = None) -> Any:
    """Run train_ppo_ray's checks on parsed arguments (module docstring); returns the arguments they leave. What
    they print goes to ``printed`` (discarded when it is None)."""
    _, _, checks = main_block(version)
    namespace: dict[str, Any] = {"args": args}
    kept = []
    for statement in checks:
        text = ast.unparse(statement)
        if text == "train(args)" or text.startswith("if args.use_ms:"):
            continue
        if isinstance(statement, ast.ImportFrom) and statement.module == "openrlhf.utils.config":
            spec = importlib.util.spec_from_file_location(
                f"openrlhf_{version}_config", require(version) / "utils" / "config.py"
            )
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            namespace.update({alias.asname or alias.name: getattr(module, alias.name) for alias in statement.names})
            continue
        assert not [n for n in ast.walk(statement) if isinstance(n, (ast.Import, ast.ImportFrom))], text
        kept.append(statement)
    with contextlib.redirect_stdout(io.StringIO() if printed is None else printed):
        run_statements(kept, namespace, "train_ppo_ray.py")
    return namespace["args"]


def validate_args(version: str, args: argparse.Namespace) -> None:
    """Up to 0.7.0 train() starts with ``_validate_args(args)``, a module-level function of asserts on ``args``
    (and printed advice, discarded): run it as the release wrote it."""
    path = require(version) / "cli" / "train_ppo_ray.py"
    found = [
        node
        for node in ast.parse(path.read_text(), str(path)).body
        if isinstance(node, ast.FunctionDef) and node.name == "_validate_args"
    ]
    if not found:
        return
    namespace: dict[str, Any] = {}
    run_statements(found, namespace, "train_ppo_ray.py")
    with contextlib.redirect_stdout(io.StringIO()):
        namespace["_validate_args"](args)


def flags_of(launch: str) -> list[str]:
    """The words after ``-m openrlhf.cli.train_ppo_ray`` in the emitted script (read with rlconf's shell reader)."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if ENTRY in argv:
            return argv[argv.index(ENTRY) + 1 :]
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


REWARD_FLAGS = {
    "remote_rm_url",
    "reward_pretrain",
    "agent_func_path",
    "reward.remote_url",
    "reward.model_name_or_path",
    "train.agent_func_path",
}


@pytest.mark.parametrize("version", VERSIONS + EARLY_VERSIONS)
@pytest.mark.parametrize("case", [c for c in CASES if has_group(c)], ids=case_id)
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
        assert "reward.missing" in {n.code for n in translation.notes}
        remote = "--remote_rm_url" if "--remote_rm_url" in known else "--reward.remote_url"
        args = parse(parser, [*words, remote, "reward.py"])
    args = start_up_checks(version, args)
    if version in EARLY_VERSIONS:
        validate_args(version, args)

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


# ---------------------------------------------------------------- `rlconf check` against train_ppo_ray's checks
# Rules whose violations OpenRLHF only meets after these checks, out of a CPU oracle's reach (left out of rlconf's
# verdict below; their configs are still run, and must pass every check that is here):
# - openrlhf.train-batch-divisible, openrlhf.critic-train-batch-divisible: DeepSpeed's own asserts on
#   train_batch_size = micro × accumulation × world, inside deepspeed.initialize, when each actor / critic Ray worker
#   loads its model on its GPU (OpenRLHF itself never checks the sizes).
# - openrlhf.tensor-parallel-needs-bf16: DeepspeedStrategy.__init__ (utils/deepspeed/deepspeed.py, which imports
#   deepspeed, not installed here), built by train()'s get_strategy after ray.init; its test is for 0.9.1, and from
#   0.9.2 param_dtype defaults to bf16.
# - openrlhf.dual-clip-range: PolicyLoss.__init__ (models/loss.py, importing models/utils.py and so deepspeed),
#   built by the actor's Ray worker after the model loads (trainer/ray/ppo_actor.py).
# - openrlhf.parallel-divides-gpus: OpenRLHF checks nothing; ranks left over fail when the Ray actor groups build
#   their ring / TP process groups on GPUs.
# - openrlhf.vllm-engines-required without packing: no check either; the first rollout step finds no generator.
#   (With packing, train_ppo_ray's own check stops the run: the no_vllm_engine_cannot_roll_out case below.)
# - openrlhf.update-timesteps-zero (0.4.0–0.4.4): the ZeroDivisionError of PPOTrainer.fit at the first prompt batch,
#   on the actor's Ray worker after the models load.
OUT_OF_REACH = {
    "openrlhf.update-timesteps-zero",
    "openrlhf.train-batch-divisible",
    "openrlhf.critic-train-batch-divisible",
    "openrlhf.tensor-parallel-needs-bf16",
    "openrlhf.dual-clip-range",
    "openrlhf.parallel-divides-gpus",
}
# Warnings that quote what train_ppo_ray prints (and then changes or lets pass): the line each starts with.
PRINTED = {
    "openrlhf.vllm-sleep-ignored": "Set args.vllm",
    "openrlhf.colocate-all-async": "[Warning] Using --colocate_all_models in async RLHF",
}


@cache
def train_asserts(version: str) -> list[ast.stmt]:
    """train()'s asserts with the ``if`` statements around them, every other statement left out (module docstring)."""
    path = require(version) / "cli" / "train_ppo_ray.py"
    [train] = [
        node
        for node in ast.parse(path.read_text(), str(path)).body
        if isinstance(node, ast.FunctionDef) and node.name == "train"
    ]

    def other_names(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id != "args" for n in ast.walk(node))

    def prune(statements: list[ast.stmt]) -> list[ast.stmt]:
        kept: list[ast.stmt] = []
        for node in statements:
            if isinstance(node, ast.Assert) and version in EARLY_VERSIONS + READ_VERSIONS and other_names(node):
                # 0.6.3–0.7.0: "Only one reward model is supported", on the split --reward_pretrain list (one here)
                continue
            if isinstance(node, ast.Assert):
                kept.append(node)
            elif isinstance(node, ast.If) and (body := prune(node.body)) + (orelse := prune(node.orelse)):
                kept.append(ast.If(test=node.test, body=body or [ast.Pass()], orelse=orelse))
        return kept

    kept = prune(train.body)
    every = [
        node
        for node in ast.walk(train)
        if isinstance(node, ast.Assert) and not (version in EARLY_VERSIONS + READ_VERSIONS and other_names(node))
    ]
    assert len(every) == sum(isinstance(node, ast.Assert) for stmt in kept for node in ast.walk(stmt)), (
        "an assert of train() outside plain if statements"
    )
    read = {node.id for stmt in kept for node in ast.walk(stmt) if isinstance(node, ast.Name)}
    assert read == {"args"}, read

    def root(node: ast.expr) -> ast.expr:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return node

    targets = [
        t
        for node in ast.walk(train)
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
    ]
    # 0.5.8–0.6.0 lower args.vllm_gpu_memory_utilization under colocate_all_models, which no assert reads.
    assigned = [
        ast.unparse(t) for t in targets if isinstance(root(t), ast.Name) and root(t).id == "args" and t is not root(t)
    ]
    assert assigned in ([], ["args.vllm_gpu_memory_utilization"]), assigned
    return kept


@dataclasses.dataclass
class Verdict:
    """What train_ppo_ray makes of a launch line: the message it stops with (None: it starts; for argparse, its
    message after "error: "), and the lines its checks printed."""

    rejected: str | None
    printed: list[str]


def openrlhf_verdict(flags: dict[str, Any], version: str) -> Verdict:
    parser = real_parser(version)
    words = flags_of(render(flags))
    stderr, printed = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            args = parser.parse_args(words)
    except SystemExit:
        _, message = stderr.getvalue().strip().splitlines()[-1].split(": error: ", 1)
        return Verdict(message, [])
    try:
        args = start_up_checks(version, args, printed)
        if version in EARLY_VERSIONS + READ_VERSIONS:
            validate_args(version, args)  # the first thing train() does up to 0.7.0
        run_statements(train_asserts(version), {"args": args}, "train_ppo_ray.py")
    except (AssertionError, TypeError, ValueError) as error:
        return Verdict(str(error), printed.getvalue().splitlines())
    return Verdict(None, printed.getvalue().splitlines())


def quotes(ours: str, theirs: str) -> bool:
    """rlconf's message is OpenRLHF's, or OpenRLHF's followed by rlconf's explanation in brackets."""
    return ours == theirs or ours.startswith(theirs + " (")


def flat(changes: dict[str, Any]) -> dict[str, Any]:
    """Changes to DOTTED, spelled for FLAT (0.10.1): the same flags under their flat names."""
    return {spelled(key, "0.10.1") or key: value for key, value in changes.items()}


@dataclasses.dataclass
class Parity:
    """One config of tests/test_check_openrlhf.py (named after its test), at one release, with the rule it is about
    (None: no rule; then neither may reject it)."""

    name: str
    version: str
    flags: dict[str, Any]
    rule: str | None


def both(name: str, rule: str | None, **changes: Any) -> list[Parity]:
    """The config DOTTED + changes at 0.11.2 and FLAT + the same changes, flat, at 0.10.1 (keyword names as in
    tests/test_check_openrlhf.py's config(): dots written as '__')."""
    dotted = {k.replace("__", "."): v for k, v in changes.items()}
    return [Parity(name, "0.10.1", {**FLAT, **flat(dotted)}, rule), Parity(name, "0.11.2", {**DOTTED, **dotted}, rule)]


GAE = {
    "algo__advantage__estimator": "gae",
    "algo__kl__use_loss": False,
    "algo__kl__estimator": "k1",
    "train__colocate_critic_reward": True,
    "critic__num_nodes": 1,
    "critic__num_gpus_per_node": 4,
}
PARITY = [
    *both("the_base_configs_are_clean", None),
    # DeepSpeed's errors (out of reach): the configs pass every start-up check.
    Parity(
        "train_batch_not_divisible_by_micro_times_dp",
        "0.11.2",
        config(DOTTED, train__micro_batch_size=5),
        "openrlhf.train-batch-divisible",
    ),
    Parity("accumulation_of_zero", "0.10.1", config(FLAT, train_batch_size=16), "openrlhf.train-batch-divisible"),
    *both(
        "group_estimator_with_one_sample_per_prompt",
        "openrlhf.group-estimator-needs-samples",
        rollout__n_samples_per_prompt=1,
    ),
    # dr_grpo joined the assert in 0.11.0: 0.10.1 lets it pass, 0.11.2 does not.
    *both(
        "dr_grpo_joined_the_group_assert_in_0_11_0",
        "openrlhf.group-estimator-needs-samples",
        algo__advantage__estimator="dr_grpo",
        rollout__n_samples_per_prompt=1,
    ),
    *both("colocate_all_needs_one_vllm_gpu_per_actor_gpu", "openrlhf.colocate-all-engine-gpus", vllm__num_engines=2),
    *both(
        "colocate_all_needs_one_vllm_gpu_per_actor_gpu/async",
        "openrlhf.colocate-all-engine-gpus",
        vllm__num_engines=2,
        train__async_enable=True,
    ),
    *both(
        "colocated_reference_must_have_the_actors_size",
        "openrlhf.colocate-actor-ref-sizes",
        actor__num_gpus_per_node=4,
        vllm__num_engines=2,
        ref__num_nodes=None,
        ref__num_gpus_per_node=None,
    ),
    *both(
        "colocated_reference_must_have_the_actors_size/no_kl",
        "openrlhf.colocate-actor-ref-sizes",
        actor__num_gpus_per_node=4,
        vllm__num_engines=2,
        ref__num_nodes=None,
        ref__num_gpus_per_node=None,
        algo__kl__init_coef=0,
    ),
    *both(
        "fewer_experience_batches_than_actor_groups",
        "openrlhf.too-few-rollout-batches",
        rollout__batch_size=4,
        rollout__n_samples_per_prompt=2,
        rollout__micro_batch_size=4,
        train__batch_size=8,
        train__micro_batch_size=1,
    ),
    Parity(
        "flat_flag_in_a_dotted_release_is_an_argparse_error",
        "0.11.2",
        config(DOTTED, rollout__batch_size=None, rollout_batch_size=128),
        "openrlhf.flag-scheme",
    ),
    Parity(
        "dotted_flag_in_a_flat_release_is_an_argparse_error",
        "0.10.1",
        config(FLAT, train_batch_size=None, train__batch_size=128),
        "openrlhf.flag-scheme",
    ),
    *both("oversampling_needs_async", "openrlhf.oversampling-needs-async", rollout__vllm_generate_batch_size=256),
    *both(
        "dynamic_filtering_needs_groups",
        "openrlhf.dynamic-filtering-needs-samples",
        algo__advantage__estimator="reinforce",
        rollout__n_samples_per_prompt=1,
        algo__dynamic_filtering_enable=True,
    ),
    *both(
        "dynamic_filtering_needs_a_scoring_function",
        "openrlhf.dynamic-filtering-needs-remote-reward",
        algo__dynamic_filtering_enable=True,
        reward__remote_url=None,
        reward__model_name_or_path="OpenRLHF/Llama-3-8b-rm-700k",
    ),
    *both("partial_rollout_needs_async", "openrlhf.partial-rollout-needs-async", train__partial_rollout_enable=True),
    *both(
        "no_vllm_engine_cannot_roll_out",
        "openrlhf.vllm-engines-required",
        vllm__num_engines=None,
        ds__packing_samples=True,
    ),
    # Warnings: OpenRLHF starts, rlconf reports no error.
    Parity(
        "rollout_not_a_whole_number_of_train_batches",
        "0.11.2",
        config(DOTTED, rollout__batch_size=100, rollout__n_samples_per_prompt=4),
        None,
    ),
    Parity(
        "rollout_not_whole_train_batches_offers_both_ways",
        "0.11.2",
        config(DOTTED, rollout__batch_size=96, train__batch_size=512),
        None,
    ),
    Parity(
        "dynamic_batching_with_fewer_samples_than_a_train_batch",
        "0.11.2",
        config(DOTTED, train__dynamic_batch_enable=True, train__batch_size=2048),
        None,
    ),
    Parity("gamma_is_reset_for_group_estimators", "0.11.2", config(DOTTED, algo__advantage__gamma=0.99), None),
    *both(
        "vllm_sleep_without_colocation_is_switched_off",
        None,
        train__colocate_all=False,
        train__colocate_actor_ref=True,
        vllm__enable_sleep=True,
    ),
    # Beyond tests/test_check_openrlhf.py: the other rules these checks judge.
    *both(
        "async_training_with_sleeping_vllm",
        "openrlhf.async-vllm-sleep",
        train__async_enable=True,
        vllm__enable_sleep=True,
    ),
    *both(
        "async_training_with_sleeping_vllm/not_colocated",
        "openrlhf.async-vllm-sleep",
        train__async_enable=True,
        vllm__enable_sleep=True,
        train__colocate_all=False,
        train__colocate_actor_ref=True,
    ),
    *both("colocated_critic_must_have_the_rewards_size", "openrlhf.colocate-critic-reward-sizes", **GAE),
    *both(
        "colocated_critic_must_have_the_rewards_size/no_gae",
        "openrlhf.colocate-critic-reward-sizes",
        **{**GAE, "algo__advantage__estimator": "group_norm"},
    ),
    # Found by this oracle as checks rlconf had no rule for (tests/test_check_openrlhf.py has a test of each).
    *both("an_estimator_outside_the_choices", "openrlhf.invalid-estimator", algo__advantage__estimator="grpo"),
    *both("a_flag_of_neither_scheme", "openrlhf.unknown-flag", rollout__batch_sizes=128),
    *both(
        "dynamic_filtering_range_reversed",
        "openrlhf.dynamic-filtering-range",
        algo__dynamic_filtering_enable=True,
        algo__dynamic_filtering_range=[1, 0],
    ),
    *both(
        "eval_dataset_without_a_remote_reward",
        "openrlhf.eval-needs-remote-reward",
        eval__dataset="data/eval.jsonl",
        reward__remote_url=None,
        reward__model_name_or_path="OpenRLHF/Llama-3-8b-rm-700k",
    ),
    *both("vlm_with_packing", "openrlhf.vlm-no-packing", data__max_images_per_prompt=1, ds__packing_samples=True),
    *both(
        "vlm_with_a_critic",
        "openrlhf.vlm-no-critic",
        data__max_images_per_prompt=1,
        **{k: v for k, v in GAE.items() if k.startswith("algo__")},
    ),
    # Releases before 0.8 (docs/frameworks/openrlhf.md §6 rows 5, 36, 39, 40): the base run in their flags.
    Parity("the_base_config_is_clean", "0.6.4", EARLY, None),
    Parity("the_base_config_is_clean", "0.5.9", EARLY_059, None),
    Parity("the_base_config_is_clean", "0.7.3", EARLY, None),
    Parity(
        "rollout_batch_not_divisible_by_the_actor_gpus",
        "0.6.4",
        {**EARLY, "rollout_batch_size": 100},
        "openrlhf.rollout-per-rank",
    ),
    Parity(
        "rollout_batch_not_divisible_by_the_actor_gpus",
        "0.7.0",
        {**EARLY, "rollout_batch_size": 100},
        "openrlhf.rollout-per-rank",
    ),
    Parity(
        "engines_do_not_divide_the_actor_gpus",
        "0.5.9",
        {**EARLY_059, "colocate_all_models": False, "vllm_num_engines": 3, "vllm_tensor_parallel_size": 1},
        "openrlhf.engines-divide-actor",
    ),
    Parity(
        "critic_does_not_divide_the_actor_gpus",
        "0.6.4",
        {
            **EARLY,
            "advantage_estimator": "gae",
            "critic_pretrain": "Qwen/Qwen2.5-7B",
            "critic_num_nodes": 1,
            "critic_num_gpus_per_node": 3,
            "colocate_all_models": False,
            "vllm_num_engines": 4,
        },
        "openrlhf.critic-divides-actor",
    ),
    Parity(
        "without_vllm_engines_the_actor_generates_up_to_0_7_5",
        "0.6.4",
        {**EARLY, "vllm_num_engines": None, "vllm_tensor_parallel_size": None, "colocate_all_models": False},
        "openrlhf.vllm-engines-required",
    ),
    Parity(
        "without_vllm_engines_the_actor_generates_up_to_0_7_5",
        "0.7.3",
        {**EARLY, "vllm_num_engines": None, "vllm_tensor_parallel_size": None, "colocate_all_models": False},
        None,
    ),
    Parity(
        "rloo_with_one_sample_per_prompt",
        "0.5.9",
        {**EARLY_059, "n_samples_per_prompt": 1},
        "openrlhf.group-estimator-needs-samples",
    ),
    # 0.4.x (read only; docs/frameworks/openrlhf.md §6 rows 37–44): tests/test_check_openrlhf.py's EARLY_04 run.
    *(Parity("the_0_4_base_config_is_clean", version, EARLY_04, None) for version in READ_VERSIONS),
    Parity(
        "update_timesteps_of_zero_divides_by_zero_before_0_4_5",
        "0.4.3",
        {**EARLY_04, "rollout_batch_size": 32},
        None,  # fit's ZeroDivisionError is out of reach: the start-up checks pass
    ),
    Parity(
        "packing_needs_a_local_reward_model_in_0_4_4",
        "0.4.4",
        {
            **EARLY_04,
            "packing_samples": True,
            "flash_attn": True,
            "remote_rm_url": "http://rm:5000/get_reward",
            "reward_pretrain": None,
        },
        "openrlhf.packing-needs-local-reward",
    ),
    *(
        Parity(
            "unset_engines_fail_the_main_blocks_comparison_in_0_4",
            version,
            {**EARLY_04, "vllm_num_engines": None, "vllm_tensor_parallel_size": None},
            "openrlhf.vllm-engines-required",
        )
        for version in READ_VERSIONS
    ),
    Parity(
        "engines_above_the_actor_gpus_from_0_4_6",
        "0.4.6",
        {**EARLY_04, "vllm_num_engines": 16, "vllm_tensor_parallel_size": 1},
        "openrlhf.engines-divide-actor",
    ),
    Parity(
        "engines_above_the_actor_gpus_from_0_4_6",
        "0.4.4",
        {**EARLY_04, "vllm_num_engines": 16, "vllm_tensor_parallel_size": 1},
        None,
    ),
    Parity(
        "actor_gpus_must_be_a_power_of_two",
        "0.4.3",
        {
            **EARLY_04,
            "colocate_actor_ref": False,
            "actor_num_gpus_per_node": 6,
            "critic_num_gpus_per_node": 2,
            "reward_num_gpus_per_node": 2,
        },
        "openrlhf.actor-power-of-two",
    ),
    Parity(
        "is_correction_threshold_of_three",
        "0.11.2",
        config(DOTTED, algo__advantage__is_correction_threshold=[0.5, 2.0, 5.0]),
        "openrlhf.is-correction-threshold",
    ),
]


def parity_id(item: Any) -> str:
    return f"{item.name}@{item.version}" if isinstance(item, Parity) else str(item)


@pytest.mark.parametrize("case", PARITY, ids=parity_id)
def test_check_gives_openrlhfs_verdict(case: Parity) -> None:
    require(case.version)
    report = check(case.flags, case.version)
    errors = [f for f in report.errors if f.rule not in OUT_OF_REACH]
    verdict = openrlhf_verdict(case.flags, case.version)
    if verdict.rejected is None:
        assert not errors, [(f.rule, f.message) for f in errors]
    else:
        # rlconf's error of the case's rule, in OpenRLHF's words, and no other (OpenRLHF stops at its first).
        assert [f.rule for f in errors] == [case.rule], (verdict.rejected, [(f.rule, f.message) for f in errors])
        assert quotes(errors[0].message, verdict.rejected), (errors[0].message, verdict.rejected)
        # Each fix rlconf suggests, the first included, is accepted.
        for suggestion in errors[0].suggestions:
            after = openrlhf_verdict({**case.flags, **suggestion.changes}, case.version)
            assert after.rejected is None, (suggestion, after.rejected)
    # The warnings that quote a line the checks print: given exactly when it is printed, in its words.
    for rule, start in PRINTED.items():
        lines = [line for line in verdict.printed if line.startswith(start)]
        warned = findings_of(report, rule)
        assert bool(warned) == bool(lines), (rule, lines, [f.message for f in warned])
        assert all(any(quotes(f.message, line) for line in lines) for f in warned), (warned, lines)
