"""Miles (translator/frameworks/miles, docs/frameworks/miles.md): detection beside slime, the FSDP backend's plan
and defaults, Miles' own start-up rules with its messages, the written launch.sh, and (with RLCONF_MILES_SRC naming a
Miles checkout) Miles' own parser and start-up statements run on what rlconf writes."""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import logging
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

import translator
from tests.conftest import CASES, FIXTURES, case_id, expect_finding, findings_of, translatable
from tests.test_slime import ORACLE_NAMES, validate_statements
from translator.api import check
from translator.sources.files import Source

MILES = FIXTURES / "miles"
# Where Miles' checkout is (a line a Miles script has, e.g. in --runtime-env-json's PYTHONPATH).
MARK = "export PYTHONPATH=/root/Megatron-LM/:/root/miles\n"


def script(*flags: str, entry: str = "train.py", head: str = MARK) -> Source:
    text = head + "ray job submit --address=http://127.0.0.1:8265 -- python3 " + entry + " " + " ".join(flags) + "\n"
    return Source(text, "launch.sh", None)


BASE = "--actor-num-nodes 1 --actor-num-gpus-per-node 8 --colocate --num-rollout 10 --rollout-batch-size 32 "
BASE += "--n-samples-per-prompt 8"
FSDP = BASE + " --train-backend fsdp"


def run_check(source: Source) -> Any:
    return check(translator.load(source, framework="miles@0.1.0"))


# ---------------------------------------------------------------- detection


@pytest.mark.parametrize(
    ("head", "extra", "expected"),
    [
        (MARK, "", "miles"),  # its checkout on the path
        ("MILES_ROOT=/opt/miles-src\n", "", "miles"),  # a MILES_ variable
        ("", "--use-dynamic-global-batch-size", "miles"),  # a flag slime 0.3.1 lacks
        ("", "--dynamic-sampling-filter-path miles.rollout.filter_hub.x.f", "miles"),  # its package's module path
        ("", "", "slime"),  # nothing names Miles: slime's launch stays slime's
        ("# similar to slime's examples\n", "--train-backend megatron", "slime"),  # slime 0.2.x had the flag too
    ],
)
def test_a_launch_that_names_miles_is_miles_and_one_that_does_not_stays_slime(
    head: str, extra: str, expected: str
) -> None:
    explanation = translator.load(script(BASE, extra, head=head))
    assert explanation.framework == expected


@pytest.mark.parametrize(("copy", "expected"), [("slime", "slime"), ("miles", "miles"), (None, "miles")])
def test_a_flag_miles_and_a_later_slime_share_is_read_by_the_copy_the_project_holds(
    tmp_path: Path, copy: str | None, expected: str
) -> None:
    # --use-dynamic-global-batch-size marks Miles against slime 0.3.1, but a project that keeps slime's code
    # (slime/utils/arguments.py beside train.py) and no miles/ runs its slime copy: slime's dialect reads it
    (tmp_path / ".git").mkdir()
    if copy is not None:
        (tmp_path / copy / "utils").mkdir(parents=True)
        (tmp_path / copy / "utils" / "arguments.py").write_text("def parse_args():\n    pass\n")
    launch = tmp_path / "run.sh"
    launch.write_text(script(BASE, "--use-dynamic-global-batch-size", head="").text)
    assert translator.load(str(launch)).framework == expected
    # a script that names Miles' checkout runs Miles' code there, whatever copy the project keeps
    launch.write_text(script(BASE, "--use-dynamic-global-batch-size").text)
    assert translator.load(str(launch)).framework == "miles"


def test_flags_in_arrays_before_the_launch_are_found() -> None:
    text = f"{MARK}ARGS=(\n  --rollout-batch-size 16\n  --n-samples-per-prompt 4\n)\npython3 train.py ${{ARGS[@]}}\n"
    assert translator.load(Source(text, "run.sh", None)).framework == "miles"


# ---------------------------------------------------------------- the plan


def test_fsdp_data_parallel_is_every_actor_gpu() -> None:
    # 2 nodes × 8 GPUs = 16 ranks on FSDP (no TP/PP); 256 samples, gbs 128 → 2 optimizer steps;
    # 128 / (micro 2 × 16) = 4 micro-batches per rank.
    flags = FSDP.replace("--actor-num-nodes 1", "--actor-num-nodes 2") + " --global-batch-size 128 --micro-batch-size 2"
    plan = translator.load(script(flags), framework="miles@0.1.0").plan
    assert (plan["data_parallel_size"], plan["optimizer_steps_per_step"], plan["grad_accum_steps"]) == (16, 2, 4)
    # Megatron with TP 2: 16 // 2 = 8 ranks; 128 / (2 × 8) = 8.
    megatron = flags.replace("--train-backend fsdp", "--tensor-model-parallel-size 2")
    plan = translator.load(script(megatron), framework="miles@0.1.0").plan
    assert (plan["data_parallel_size"], plan["grad_accum_steps"]) == (8, 8)


def test_fsdp_has_no_gbs_default_and_megatron_sets_micro_times_dp() -> None:
    # FSDP: neither batch flag → the LR scheduler divides by None at start-up; the optimizer batch is unknown.
    explanation = translator.load(script(FSDP), framework="miles@0.1.0")
    assert explanation.plan["samples_per_optimizer_step"] is None
    expect_finding(
        check(explanation), "miles.fsdp-gbs-none", "error", "unsupported operand type(s) for //: 'int' and 'NoneType'"
    )
    # Megatron: validate_args sets gbs = micro 1 × DP 8 = 8; 256 samples // 8 = 32 optimizer steps.
    explanation = translator.load(script(BASE), framework="miles@0.1.0")
    assert (explanation.plan["samples_per_optimizer_step"], explanation.plan["optimizer_steps_per_step"]) == (8, 32)
    assert findings_of(check(explanation), "slime.megatron-default-gbs")
    assert not findings_of(check(explanation), "miles.fsdp-gbs-none")


def test_fsdp_optimizer_defaults_are_the_dataclass_s_and_lr_is_reset() -> None:
    # FSDPArgs: lr_decay_style constant, weight_decay 0.0; lr 2e-5 there, reset to 1e-6 by Miles' reset_arg.
    spec = translator.load(script(FSDP + " --global-batch-size 256"), framework="miles@0.1.0").spec
    assert (spec.optimizer.lr_schedule, spec.optimizer.weight_decay, spec.optimizer.lr) == ("constant", 0.0, 1e-6)
    # Megatron's: linear, 0.01.
    spec = translator.load(script(BASE + " --global-batch-size 256"), framework="miles@0.1.0").spec
    assert (spec.optimizer.lr_schedule, spec.optimizer.weight_decay, spec.optimizer.lr) == ("linear", 0.01, 1e-6)


# ---------------------------------------------------------------- start-up rules


@pytest.mark.parametrize(
    ("flags", "entry", "rule", "severity", "message"),
    [
        (
            FSDP + " --global-batch-size 256 --tensor-model-parallel-size 2",
            "train.py",
            "miles.fsdp-megatron-flag",
            "error",
            "unrecognized arguments: --tensor-model-parallel-size 2",
        ),
        (
            FSDP + " --global-batch-size 256 --context-parallel-size 2",
            "train.py",
            "miles.fsdp-context-parallel",
            "error",
            "Context parallelism is not supported for FSDP backend.",
        ),
        (
            # 1 node × 8 GPUs = world 8; 8 % 3 = 2
            FSDP + " --global-batch-size 256 --dp-replicate-size 3",
            "train.py",
            "miles.fsdp-replicate",
            "error",
            "world_size(8) must be divisible by dp_replicate_size(3)",
        ),
        (
            FSDP + " --global-batch-size 256 --advantage-estimator ppo",
            "train.py",
            "miles.ppo-needs-megatron",
            "error",
            "Shared Actor/Critic PPO requires the Megatron backend",
        ),
        (
            # 256 samples, gbs 128 over 8 ranks = 16 per rank; 16 // micro 3 = 5 micro-batches, 1 sample skipped
            FSDP + " --global-batch-size 128 --micro-batch-size 3",
            "train.py",
            "miles.fsdp-micro-batch-floor",
            "warning",
            "global_batch_size 128 is not a multiple of micro_batch_size 3 × 8 data-parallel ranks: each rank trains "
            "5 micro-batches of 3 per step and skips the rest",
        ),
        (
            # the same on Megatron: the micro-batch calculator refuses it
            BASE + " --global-batch-size 128 --micro-batch-size 3",
            "train.py",
            "slime.micro-batch-calculator",
            "error",
            "global batch size (128) is not divisible by micro batch size (3) times data parallel size (8)",
        ),
        (
            # 32 × 8 // 2 = 128 ≠ 64: slime's statement, kept by Miles (miles/utils/arguments.py:3431-3439)
            BASE + " --global-batch-size 64 --num-steps-per-rollout 2",
            "train.py",
            "slime.gbs-identity",
            "error",
            "global_batch_size 64 is not equal to rollout_batch_size 32 * n_samples_per_prompt 8 // "
            "num_steps_per_rollout 2",
        ),
        (
            # Miles' critic never sees a reward KL (miles/utils/arguments.py:3217-3222)
            BASE + " --global-batch-size 256 --advantage-estimator ppo --kl-coef 0.05",
            "train.py",
            "miles.ppo-reward-kl",
            "error",
            "Shared Actor/Critic PPO does not support reward-level KL (--kl-coef): the critic trains before the actor "
            "and never sees ref log probs, so its value targets would silently exclude the KL penalty applied to the "
            "actor's rewards. Use --use-kl-loss for KL regularization instead.",
        ),
        (
            # slime 0.3.1's statement, in Miles 0.1.0 too (miles/utils/arguments.py:3134)
            BASE + " --global-batch-size 256 --kl-coef 0.1 --kl-loss-coef 0.1",
            "train.py",
            "slime.one-kl",
            "error",
            "Only one of kl_coef and kl_loss_coef can be set",
        ),
    ],
)
def test_start_up_rules_carry_miles_messages(flags: str, entry: str, rule: str, severity: str, message: str) -> None:
    expect_finding(run_check(script(flags, entry=entry)), rule, severity, message)


MILES_CASES = [c for c in CASES if c.framework == "miles"]


@pytest.mark.parametrize("case", MILES_CASES, ids=case_id)
def test_check_reports_what_miles_does_with_each_fixture(case: Any) -> None:
    # the fixture's framework_check, worked out from Miles' source by hand, against rlconf's check
    expected = case.expected["framework_check"]
    report = translator.check(case.path, **case.load_kwargs())
    if expected["outcome"] == "rejected":
        rules = (f"miles.{expected['check']}", f"slime.{expected['check']}")
        assert [(e.rule in rules, e.message) for e in report.errors] == [(True, expected["message"])]
    else:  # accepted, or unknown (a value the script never sets): nothing Miles is known to refuse
        assert not report.errors, [e.message for e in report.errors]


def test_eval_datasets_from_an_eval_config_count() -> None:
    # --eval-interval needs datasets, from --eval-prompt-data or --eval-config (miles/utils/arguments.py:2852, 3061)
    flags = BASE + " --global-batch-size 256 --eval-interval 5"
    assert findings_of(run_check(script(flags)), "slime.eval-needs-data")
    assert not findings_of(run_check(script(flags + " --eval-config eval.yaml")), "slime.eval-needs-data")


def test_async_ppo_needs_a_behaviour_policy_correction() -> None:
    flags = BASE.replace("--colocate", "--rollout-num-gpus 8") + " --global-batch-size 256 --advantage-estimator ppo"
    report = run_check(script(flags, entry="train_async.py"))
    found = findings_of(report, "miles.async-ppo-correction")
    assert len(found) == 1 and found[0].message.startswith(
        "Async PPO training requires an explicit behavior-policy correction"
    )
    fixed = run_check(script(flags + " --use-tis", entry="train_async.py"))
    assert not findings_of(fixed, "miles.async-ppo-correction")
    on_policy = run_check(script(flags))  # train.py: no correction needed
    assert not findings_of(on_policy, "miles.async-ppo-correction")


def test_fsdp_rules_do_not_apply_on_megatron() -> None:
    report = run_check(
        script(BASE + " --global-batch-size 256 --tensor-model-parallel-size 2 --advantage-estimator ppo")
    )
    assert not [f for f in report.errors + report.warnings if f.rule.startswith("miles.fsdp")]
    assert not findings_of(report, "miles.ppo-needs-megatron")


# ---------------------------------------------------------------- writing


def written(path: Path, **kwargs: Any) -> tuple[str, Any]:
    translation = translator.translate(translator.load(path, **kwargs), to="miles")
    return translation.files["launch.sh"], translation


def test_a_data_parallel_source_is_written_for_fsdp_without_megatron_flags() -> None:
    # verl with its FSDP backend and no model parallelism → --train-backend fsdp; no TP/PP flag (the FSDP parser
    # refuses them)
    text, _ = written(FIXTURES / "verl" / "core_plus_gen_batch_size.sh")
    assert "--train-backend fsdp" in text
    assert "--tensor-model-parallel-size" not in text and "--pipeline-model-parallel-size" not in text


def test_a_critic_or_model_parallel_source_is_written_for_megatron() -> None:
    # verl PPO with a critic (GAE) and Ulysses sequence parallelism 2: Miles' PPO needs Megatron (CP 2 there)
    text, _ = written(FIXTURES / "verl" / "ppo_gae_ulysses_sp2.sh")
    assert "--train-backend megatron" in text and "--advantage-estimator ppo" in text
    assert "--context-parallel-size 2" in text


def test_async_ppo_is_written_with_keep_old_actor() -> None:
    source = script(
        BASE.replace("--colocate", "--rollout-num-gpus 8"), "--global-batch-size 256 --advantage-estimator ppo"
    )
    source = Source(source.text.replace("train.py", "train_async.py"), "launch.sh", None)
    translation = translator.translate(translator.load(source, framework="miles@0.1.0"), to="miles")
    text = translation.files["launch.sh"]
    assert "python3 train_async.py" in text and "--keep-old-actor" in text
    assert "miles.async-keep-old-actor" in {n.code for n in translation.notes}
    assert not check(translator.load(Source(text, "launch.sh", None), framework="miles")).errors


def test_cispo_has_no_miles_counterpart() -> None:
    source = Source(
        "ray job submit -- python3 train.py " + BASE + " --global-batch-size 256 --advantage-estimator cispo\n",
        "launch.sh",
        None,
    )
    translation = translator.translate(translator.load(source, framework="slime@0.3.1"), to="miles")
    assert "--advantage-estimator grpo" in translation.files["launch.sh"]
    assert any("cispo has no Miles 0.1.0 counterpart" in n.message for n in translation.notes)


# ---------------------------------------------------------------- Miles' own parser and start-up (oracle)

MILES_SRC = os.environ.get("RLCONF_MILES_SRC")
needs_src = pytest.mark.skipif(not MILES_SRC, reason="RLCONF_MILES_SRC names no Miles checkout")

# slime's batch names, and the names of the other statements of miles_validate_args the oracle runs.
NAMES = ORACLE_NAMES | {
    "multi_lora",
    "use_dynamic_global_batch_size",
    "balance_by_flops",
    "eps_clip",
    "eps_clip_high",
    "save",
    "save_interval",
    "kl_coef",
    "kl_loss_coef",
    "advantage_estimator",
    "normalize_advantages",
    "train_backend",
    "use_critic",
    "megatron_to_hf_mode",
    "critic_num_gpus_per_node",
    "critic_num_nodes",
    "actor_num_gpus_per_node",
    "actor_num_nodes",
}
# Megatron-LM's flags the writer uses on the Megatron backend (Megatron-LM is not on this machine).
MEGATRON_FLAGS = {
    "--tensor-model-parallel-size": int,
    "--pipeline-model-parallel-size": int,
    "--context-parallel-size": int,
    "--lr-decay-style": str,
    "--lr-warmup-iters": int,
    "--weight-decay": float,
    "--sequence-parallel": None,
}
TYPES: dict[str, Any] = {"int": int, "float": float, "str": str, "json.loads": json.loads}


def _literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None  # a computed default: not a batch flag's


def miles_flags(src: Path) -> list[tuple[list[str], dict[str, Any], bool]]:
    """Every parser.add_argument / reset_arg of miles/utils/arguments.py: (option strings, keyword arguments,
    whether it is a reset_arg), as written there (help texts dropped, types and actions kept)."""
    tree = ast.parse((src / "miles" / "utils" / "arguments.py").read_text())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        reset = isinstance(node.func, ast.Name) and node.func.id == "reset_arg"
        if not (reset or (isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument")):
            continue
        names = [a.value for a in node.args[1 if reset else 0 :] if isinstance(a, ast.Constant)]
        if not names or not all(isinstance(n, str) and n.startswith("-") for n in names):
            continue  # add_argument(name, **kwargs) inside reset_arg itself
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            shown = ast.unparse(keyword.value)
            if keyword.arg == "type":
                kwargs["type"] = TYPES.get(shown, str)
            elif keyword.arg == "action":
                kwargs["action"] = (
                    argparse.BooleanOptionalAction if "BooleanOptional" in shown else _literal(keyword.value)
                )
            elif keyword.arg in ("default", "nargs", "choices", "dest", "const", "required"):
                kwargs[keyword.arg] = _literal(keyword.value)
        kwargs.pop("required", None)  # the oracle parses written launches, which always give the required flags
        found.append((names, kwargs, reset))
    return found


def miles_parser(src: Path, backend: str) -> argparse.ArgumentParser:
    """Miles' parser for a backend: on fsdp its own FSDP parser (miles/backends/fsdp_utils/arguments.py, loaded from
    the checkout) with Miles' flags added as Miles adds them; on megatron Miles' flags over the Megatron flags the
    writer uses. Both refuse an unknown flag, as Miles does."""
    if backend == "fsdp":
        spec = importlib.util.spec_from_file_location(
            "miles_fsdp_arguments", src / "miles" / "backends" / "fsdp_utils" / "arguments.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        parser: argparse.ArgumentParser = module.build_fsdp_parser()
    else:
        parser = argparse.ArgumentParser("miles-megatron-oracle")
        for flag, kind in MEGATRON_FLAGS.items():
            parser.add_argument(flag, **({"action": "store_true"} if kind is None else {"type": kind}))
    known = {option for action in parser._actions for option in action.option_strings}
    for names, kwargs, reset in miles_flags(src):
        if reset and names[0] in known:  # reset_arg changes an existing flag's default only
            if "default" in kwargs:
                parser.set_defaults(**{names[0].lstrip("-").replace("-", "_"): kwargs["default"]})
            continue
        if any(n in known for n in names):
            continue
        parser.add_argument(*names, **kwargs)
        known.update(names)
    return parser


def run_miles(src: Path, launch: str) -> argparse.Namespace:
    """Miles' parser, then its start-up statements, on a written launch.sh's train.py arguments."""
    words = shlex.split(launch.split(" -- ", 1)[1].replace("\\\n", " "))
    entry, argv = words[1], [w for w in words[2:] if w != "$@"]
    backend = argv[argv.index("--train-backend") + 1] if "--train-backend" in argv else "megatron"
    args = miles_parser(src, backend).parse_args(argv)  # SystemExit on an unknown flag or a bad value
    arguments = src / "miles" / "utils" / "arguments.py"
    statements = validate_statements(arguments, "miles_validate_args", NAMES)
    tree = ast.parse(arguments.read_text())
    if backend == "fsdp":
        # the FSDP branch of parse_args: its context-parallel assert (miles/utils/arguments.py:2702)
        parse = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "parse_args")
        statements = [
            n for n in ast.walk(parse) if isinstance(n, ast.Assert) and "args.context_parallel_size" in ast.unparse(n)
        ] + statements
    functions = [
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "validate_async_off_policy_correction"
    ]
    # args.multi_lora, which the n == 1 statement reads, is set by validate_multi_lora_args before (called at
    # miles/utils/arguments.py:3132; the assignment at miles/utils/multi_lora.py:69)
    lora = ast.parse((src / "miles" / "utils" / "multi_lora.py").read_text())
    statements = [
        n for n in ast.walk(lora) if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "args.multi_lora"
    ][:1] + statements
    # MILES_EXPERIMENTAL_FT_TRAINER unset (miles/utils/environ.py:34-36): the PPO statement's experimental check
    scope = {"args": args, "logger": logging.getLogger("miles-oracle"), "enable_experimental_ft_trainer": lambda: False}
    module = ast.Module(body=[*functions, *statements], type_ignores=[])
    exec(compile(ast.fix_missing_locations(module), "miles_validate_args", "exec"), scope)
    if backend == "fsdp":
        spec = importlib.util.spec_from_file_location(
            "miles_fsdp_check", src / "miles/backends/fsdp_utils/arguments.py"
        )
        assert spec is not None and spec.loader is not None
        fsdp = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(fsdp)
        fsdp.validate_hybrid_shard_args(args)
    if entry == "train_async.py":
        assert not args.colocate, "Colocation is not supported for async training."  # train_async.py:23
        args.use_critic = args.advantage_estimator == "ppo"  # miles/utils/arguments.py:3205
        scope["validate_async_off_policy_correction"](args)  # train_async.py:24
    return args


@needs_src
def test_oracle_runs_miles_own_statements_and_agrees_on_its_rules() -> None:
    src = Path(MILES_SRC or "")
    # gbs/steps, n 1 (with multi-LoRA), over-sampling default and check, run length, dynamic batch, one KL, ...
    assert len(validate_statements(src / "miles" / "utils" / "arguments.py", "miles_validate_args", NAMES)) >= 8
    launch = "ray job submit -- python3 train.py " + FSDP + " --global-batch-size 256 --tensor-model-parallel-size 2"
    with pytest.raises(SystemExit):  # the FSDP parser: unrecognized arguments
        run_miles(src, launch)
    launch = "ray job submit -- python3 train.py " + FSDP + " --global-batch-size 256 --context-parallel-size 2"
    with pytest.raises(AssertionError, match=r"Context parallelism is not supported for FSDP backend\."):
        run_miles(src, launch)
    launch = "ray job submit -- python3 train.py " + BASE + " --global-batch-size 64 --num-steps-per-rollout 2"
    with pytest.raises(AssertionError) as raised:
        run_miles(src, launch)
    assert str(raised.value) == (
        "global_batch_size 64 is not equal to rollout_batch_size 32 * n_samples_per_prompt 8 // num_steps_per_rollout 2"
    )
    flags = BASE.replace("--colocate", "--rollout-num-gpus 8") + " --global-batch-size 256 --advantage-estimator ppo"
    with pytest.raises(AssertionError, match="Async PPO training requires"):
        run_miles(src, "ray job submit -- python3 train_async.py " + flags)
    with pytest.raises(AssertionError, match="does not support reward-level KL"):
        run_miles(
            src,
            "ray job submit -- python3 train.py " + BASE + " --global-batch-size 256 --advantage-estimator "
            "ppo --kl-coef 0.05",
        )
    args = run_miles(src, "ray job submit -- python3 train.py " + FSDP + " --global-batch-size 128")
    # the FSDP defaults as Miles' own parser leaves them (miles.md §2)
    assert (args.lr, args.lr_decay_style, args.weight_decay, args.wandb_project) == (1e-6, "constant", 0.0, None)


@needs_src
@pytest.mark.parametrize("case", [c for c in CASES if translatable(c)], ids=case_id)
def test_oracle_accepts_what_rlconf_writes(case: Any) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    translation = translator.translate(source, to="miles")
    if source.plan["prompts_per_step"] is None:
        # Nothing to write for --rollout-batch-size (argparse requires it): the note says the user must add it.
        assert any("--rollout-batch-size" in n.message for n in translation.notes if n.code == "batch.not-expressible")
        return
    args = run_miles(Path(MILES_SRC or ""), translation.files["launch.sh"])
    # Each rank's share of an optimizer batch is whole micro-batches: Megatron's calculator refuses anything else,
    # and on FSDP the floors of miles/backends/training_utils/data.py:465-487 would drop samples.
    world = args.actor_num_nodes * args.actor_num_gpus_per_node
    parallel = [getattr(args, k, 1) for k in ("tensor_model_parallel_size", "pipeline_model_parallel_size")]
    dp = world // (parallel[0] * parallel[1] * args.context_parallel_size)
    assert args.global_batch_size % (args.micro_batch_size * dp) == 0
