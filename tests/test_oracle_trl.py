"""Oracle: the real TRL loads every recipe rlconf writes and derives the same batch plan; and where TRL's own
GRPOConfig can judge a rule on a CPU, `rlconf check` gives TRL's verdict in TRL's words.

What runs is TRL itself: ``TrlParser((ScriptArguments, GRPOConfig, ModelConfig)).parse_args_and_config(["--config",
recipe.yaml, ...])``, the loading path of Open-R1's ``grpo.py``, so ``GRPOConfig.__post_init__`` (and
TrainingArguments') runs every one of its checks and derives ``generation_batch_size`` and ``steps_per_generation``.
Open-R1 itself is not installable here; the recipe keys that none of TRL's three classes take (``reward_funcs``, ...)
must be Open-R1 ``GRPOScriptArguments`` keys (rlconf's list of them, ``trl_tables.OPEN_R1_KEYS``).

One thing is patched, and why: ``GRPOConfig.__post_init__`` reads the world size once, ``num_processes =
self.world_size``, a TrainingArguments property returning ``self.distributed_state.num_processes`` (accelerate's
``PartialState``; ``accelerate launch --num_processes W`` sets it through WORLD_SIZE). A real W-process state needs
W processes joined in a process group. For one test at a time (pytest's monkeypatch, undone after it), the
``world_size`` property of the class that defines it (transformers' TrainingArguments) is replaced by one that
returns W, the ``num_processes`` of the emitted accelerate config and launch line. Nothing else is patched.

One flag is added: ``--use_cpu true``, as a launch-line argument (the emitted launch line passes ``"$@"`` on). These
machines have no GPU and TrainingArguments rejects the recipes' ``bf16: true`` without a GPU unless use_cpu is set;
it changes the device set-up only, never a batch size.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import CASES, Case, case_id, has_group
from translator import check, translate
from translator.dialects import parse_framework
from translator.errors import ConfigError
from translator.frameworks.trl.tables import OPEN_R1_KEYS
from translator.sources.files import Source
from translator.sources.shell import parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

trl = pytest.importorskip("trl", reason="TRL is not installed (.ci/run installs trl==1.16.0 and a CPU torch)")
# Imported once TRL is known to be here (accelerate and transformers come with it).
import transformers
from accelerate.parallelism_config import ParallelismConfig
from transformers import TrainingArguments
from trl import GRPOConfig, ModelConfig, ScriptArguments, TrlParser

DIALECT = parse_framework("trl")[0]


def _installed_version() -> str | None:
    try:
        return DIALECT.resolve_version(trl.__version__)
    except ConfigError:
        return None


INSTALLED = _installed_version()
# Written for the transformers installed here (trl@X+transformersY), which is what judges it: CI pins 5.10.4 for
# verl's sake, a plain `pip install trl==1.16.0` resolves the newest.
TRANSFORMERS = transformers.__version__
TARGETS = sorted({f"{v}+transformers{TRANSFORMERS}" for v in (DIALECT.default_version, INSTALLED) if v})


def use_world_size(monkeypatch: pytest.MonkeyPatch, world: int) -> None:
    """The one patch (module docstring): TrainingArguments.world_size returns ``world`` for this test."""
    owner = next(klass for klass in GRPOConfig.__mro__ if "world_size" in vars(klass))
    assert issubclass(GRPOConfig, TrainingArguments) and owner is TrainingArguments, owner
    monkeypatch.setattr(owner, "world_size", property(lambda self: world))


def load_with_trl(
    recipe: Path, flags: list[str], world: int, monkeypatch: pytest.MonkeyPatch, out: Path, script: str = "grpo.py"
) -> tuple[Any, list[str], list[str]]:
    """TrlParser on the recipe with the launch-line flags: the GRPOConfig, then the config keys and command-line
    words that none of TRL's classes took (``return_remaining_strings``: the checks still run). TRL's own
    ``trl.scripts.grpo`` parses with its script's classes; Open-R1's ``grpo.py`` with TRL's plus its own."""
    use_world_size(monkeypatch, world)
    if script == "trl.scripts.grpo":
        from trl.scripts.grpo import make_parser

        parser = make_parser()
    else:
        parser = TrlParser((ScriptArguments, GRPOConfig, ModelConfig))
    args = ["--config", str(recipe), *flags, "--output_dir", str(out), "--use_cpu", "true"]
    *parsed, left_in_config, left_on_line = parser.parse_args_and_config(
        args=args, return_remaining_strings=True, separate_remaining_strings=True
    )
    config = next(p for p in parsed if isinstance(p, GRPOConfig))
    return config, left_in_config, left_on_line


def keys_of(words: list[str]) -> set[str]:
    return {w[2:] for w in words if w.startswith("--")}


# ---------------------------------------------------------------- every emitted recipe
def emitted(case: Case, target: str) -> Any:
    try:
        return translate(case.path, to=target, **case.load_kwargs())
    except ConfigError as error:
        if "number of training processes is unknown" in str(error):
            pytest.skip(f"nothing is emitted: {error}")
        raise


def launch_line(launch: str) -> tuple[int, str, str, list[str]]:
    """``accelerate launch ... --num_processes W SCRIPT --config recipe.yaml FLAGS`` (SCRIPT a ``.py`` file or
    ``-m module``): W, the script, the recipe, FLAGS."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if argv[:2] == ["accelerate", "launch"]:
            script = next(i for i, word in enumerate(argv) if word.endswith(".py") or argv[i - 1] == "-m")
            world = int(argv[argv.index("--num_processes") + 1])
            after = argv[script + 1 :]
            recipe = after[after.index("--config") + 1]
            return world, argv[script], recipe, after[: after.index("--config")] + after[after.index("--config") + 2 :]
    raise AssertionError(f"no accelerate launch line in:\n{launch}")


# A trainer of no known TRL lineage, or one that sets its batch fields itself, leaves the micro-batch and the step's
# counts unknown: no recipe states them.
UNKNOWN_CADENCE = {"trl/fork_trainer_unknown", "trl/fork_trainer_rewrites"}


@pytest.mark.parametrize("version", TARGETS)
@pytest.mark.parametrize("case", [c for c in CASES if case_id(c) not in UNKNOWN_CADENCE and has_group(c)], ids=case_id)
def test_emitted_recipe_is_accepted_and_gives_our_plan(
    case: Case, version: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    translation = emitted(case, f"trl@{version}")
    for name, text in translation.files.items():
        (tmp_path / name).write_text(text)
    world, script, recipe, flags = launch_line(translation.files["launch.sh"])
    assert yaml.safe_load(translation.files["accelerate.yaml"])["num_processes"] == world
    config, left_in_config, left_on_line = load_with_trl(
        tmp_path / recipe, flags, world, monkeypatch, tmp_path / "out", script
    )
    # Every recipe key is taken by TRL's classes or is an Open-R1 script key (TRL's own script: every key is
    # its classes'); no launch-line word is left over.
    assert keys_of(left_in_config) <= (set() if script == "trl.scripts.grpo" else OPEN_R1_KEYS), left_in_config
    assert not left_on_line
    grpo_fields = {f.name for f in dataclasses.fields(GRPOConfig)}
    written = yaml.safe_load(translation.files["recipe.yaml"])
    # Read as written (output_dir is the test's; __post_init__ maps scale_rewards True/False to group/none and
    # makes report_to a list).
    for key in written.keys() & grpo_fields - {"output_dir", "scale_rewards", "report_to"}:
        assert getattr(config, key) == written[key], key

    plan = translation.plan  # rlconf's reading of the files it wrote (translate notes any change from the source)
    pdtbs, gas = config.per_device_train_batch_size, config.gradient_accumulation_steps
    assert world == plan["data_parallel_size"]
    assert pdtbs == plan["micro_batch_per_device"]
    assert gas == plan["grad_accum_steps"]
    assert config.num_generations == plan["samples_per_prompt"]
    assert config.num_iterations == plan["epochs_per_step"]
    assert pdtbs * world * gas == plan["samples_per_optimizer_step"]  # the global batch of one optimizer step
    assert config.generation_batch_size == plan["samples_per_step"]
    assert config.generation_batch_size == pdtbs * world * config.steps_per_generation
    assert Fraction(config.generation_batch_size, config.num_generations) == Fraction(plan["prompts_per_step"])
    assert Fraction(config.steps_per_generation * config.num_iterations, gas) == Fraction(
        plan["optimizer_steps_per_step"]  # a float in the JSON plan where not whole (4/3 as 1.333…)
    ).limit_denominator(10**6)


# ---------------------------------------------------------------- `rlconf check` against GRPOConfig
NULL = object()  # a key written as YAML null (None means: not written)


@dataclasses.dataclass
class Parity:
    """One config from tests/test_check_trl.py (named after its test), judged at the installed TRL version by
    rlconf and by TRL. ``settings`` are recipe keys plus the pseudo-key num_processes (the world size);
    ``recipe_only`` keys are written to the recipe although they are not settings (a misplaced num_processes);
    ``flags`` follow the training script on the launch line."""

    name: str
    settings: dict[str, Any]
    recipe_only: dict[str, Any] = dataclasses.field(default_factory=dict)
    flags: dict[str, Any] = dataclasses.field(default_factory=dict)

    def applied(self, changes: dict[str, Any]) -> Parity:
        return Parity(
            self.name,
            {**self.settings, **changes},
            {k: v for k, v in self.recipe_only.items() if k not in changes},
            {k: v for k, v in self.flags.items() if k not in changes},
        )

    def recipe(self) -> dict[str, Any]:
        recipe = {k: v for k, v in self.settings.items() if k != "num_processes" and v is not None}
        return {**recipe, **self.recipe_only}

    def text(self) -> str:
        return yaml.safe_dump({k: None if v is NULL else v for k, v in self.recipe().items()}, sort_keys=False)


BASE: dict[str, Any] = {
    "model_name_or_path": "Qwen/Qwen2.5-1.5B-Instruct",
    "per_device_train_batch_size": 8,
    "gradient_accumulation_steps": 4,
    "num_generations": 8,
    "num_processes": 8,
}
EVAL = {
    **BASE,
    "num_processes": 6,
    "gradient_accumulation_steps": 2,
    "num_generations": 4,
    "eval_strategy": "steps",
    "per_device_eval_batch_size": 1,
}
# GRPOTrainer.__init__ (after the model is built), not GRPOConfig, raises these: out of a CPU oracle's reach.
TRAINER_RULES = {"trl.sync-ref-model-beta"}
PARITY = [
    Parity("a_valid_recipe_breaks_no_rule", BASE),
    Parity(
        "open_r1_seven_processes_times_one",
        {**BASE, "num_processes": 7, "per_device_train_batch_size": 1, "gradient_accumulation_steps": 8},
    ),
    Parity(
        "effective_batch_includes_gradient_accumulation",
        {**BASE, "per_device_train_batch_size": 16, "num_generations": 14},
    ),
    Parity(
        "generation_batch_must_hold_whole_groups",
        {
            **BASE,
            "num_processes": 6,
            "per_device_train_batch_size": 4,
            "gradient_accumulation_steps": 1,
            "num_generations": 16,
        },
    ),
    Parity("group_of_one", {**BASE, "num_generations": 1}),
    Parity(
        "generation_batch_and_steps_are_exclusive", {**BASE, "generation_batch_size": 256, "steps_per_generation": 4}
    ),
    Parity(
        "generation_batch_divisible_precedence_bug",
        {
            **BASE,
            "num_processes": 4,
            "num_generations": 4,
            "gradient_accumulation_steps": 1,
            "generation_batch_size": 36,
        },
    ),
    Parity(
        "generation_batch_floored",
        {**BASE, "num_processes": 4, "gradient_accumulation_steps": 2, "generation_batch_size": 48},
    ),
    Parity(
        "generation_batch_floored_to_zero_steps",
        {**BASE, "per_device_train_batch_size": 4, "gradient_accumulation_steps": 1, "generation_batch_size": 16},
    ),
    Parity("eval_batch_must_hold_whole_groups", EVAL),
    Parity("eval_batch_with_num_generations_eval", {**EVAL, "num_generations_eval": 3}),
    Parity("eval_batch_without_evaluation", {**EVAL, "eval_strategy": "no"}),
    Parity("sync_ref_model_without_a_reference_model", {**BASE, "sync_ref_model": True}),
    Parity("sync_ref_model_with_beta", {**BASE, "sync_ref_model": True, "beta": 0.04}),
    Parity("liger_loss_flag_is_gone", {**BASE, "delta": 2.0, "use_liger_loss": True}),
    Parity("liger_kernel_two_sided", {**BASE, "delta": 2.0, "use_liger_kernel": True}),
    Parity("vllm_importance_sampling_bounds", {**BASE, "vllm_importance_sampling_clip_min": 4.0}),
    Parity(
        "vllm_importance_sampling_truncate_without_bounds",
        {**BASE, "vllm_importance_sampling_mode": "token_truncate", "vllm_importance_sampling_clip_max": NULL},
    ),
    Parity("sequence_parallelism", {**BASE, "parallelism_config": {"cp_size": 2}}),
    Parity("unknown_recipe_key", {**BASE, "vllm_device": "auto"}),
    Parity("typo", {**{k: v for k, v in BASE.items() if k != "num_generations"}, "num_generation": 16}),
    Parity("removed_max_prompt_length", {**BASE, "max_prompt_length": 512}),
    Parity("num_processes_in_a_recipe", BASE, recipe_only={"num_processes": 7}),
    Parity("unknown_launch_line_flag", BASE, flags={"output_dir": "data/run", "num_generation": 16}),
    Parity("launch_line_flag_no_option_starts_with", BASE, flags={"num_gens": 16}),
    Parity("launch_line_abbreviation", BASE, flags={"num_iteration": 2}),
    # Beyond tests/test_check_trl.py: Open-R1-style recipes still write torch_dtype (tests/data/corpus/trl).
    Parity("torch_dtype", {**BASE, "torch_dtype": "bfloat16"}),
    Parity("rounds_that_straddle_optimizer_steps", {**BASE, "steps_per_generation": 3}),
    Parity("num_iterations_replays_each_round", {**BASE, "num_iterations": 2}),
    Parity("dapo_loss_scale", {**BASE, "steps_per_generation": 8}),
]


def parity_id(item: Any) -> str:
    return item.name if isinstance(item, Parity) else str(item)


def ours(case: Parity, version: str, where: Path) -> list[Any]:
    """rlconf's errors for the config, less the trainer's rules."""
    (where / "recipe.yaml").write_text(case.text())
    if case.flags:
        words = " ".join(f"--{k} {v}" for k, v in case.flags.items() if v is not None)
        launch = (
            f"accelerate launch --num_processes {case.settings['num_processes']} src/open_r1/grpo.py "
            f"--config recipe.yaml {words}\n"
        )
        report = check(Source(launch, "launch.sh", where), framework=f"trl@{version}")
    else:
        report = check(
            Source(case.text(), "recipe.yaml"), framework=f"trl@{version}", num_processes=case.settings["num_processes"]
        )
    return [f for f in report.errors if f.rule not in TRAINER_RULES]


@dataclasses.dataclass
class Verdict:
    message: str
    by_argparse: bool  # argparse's own exit (an ambiguous launch-line option), not a TRL check


def trl_verdict(case: Parity, where: Path, monkeypatch: pytest.MonkeyPatch) -> Verdict | None:
    """TRL's rejection of the config, or None when it accepts it."""
    recipe = case.recipe()
    parallelism = recipe.pop("parallelism_config", None)
    stderr = io.StringIO()
    try:
        if parallelism is None:
            (where / "recipe.yaml").write_text(case.text())
            flags = [w for k, v in case.flags.items() if v is not None for w in (f"--{k}", str(v))]
            use_world_size(monkeypatch, case.settings["num_processes"])
            with contextlib.redirect_stderr(stderr):
                TrlParser((ScriptArguments, GRPOConfig, ModelConfig)).parse_args_and_config(
                    args=[
                        "--config",
                        str(where / "recipe.yaml"),
                        *flags,
                        "--output_dir",
                        str(where / "out"),
                        "--use_cpu",
                        "true",
                    ]
                )
        else:
            # TrlParser cannot turn a YAML mapping into accelerate's ParallelismConfig (GRPOConfig then fails on
            # the dict with an AttributeError): build it as a Python caller does and pass it to GRPOConfig.
            use_world_size(monkeypatch, case.settings["num_processes"])
            fields = {f.name for f in dataclasses.fields(GRPOConfig)}
            GRPOConfig(
                **{k: v for k, v in recipe.items() if k in fields},
                output_dir=str(where / "out"),
                use_cpu=True,
                parallelism_config=ParallelismConfig(**parallelism),
            )
    except ValueError as error:
        return Verdict(str(error), False)
    except SystemExit:
        return Verdict(stderr.getvalue().strip().splitlines()[-1], True)
    return None


@pytest.mark.skipif(INSTALLED is None, reason=f"rlconf has no TRL version for the installed trl {trl.__version__}")
@pytest.mark.parametrize("case", PARITY, ids=parity_id)
def test_check_gives_trls_verdict(case: Parity, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    version = str(INSTALLED)
    errors = ours(case, version, tmp_path)
    verdict = trl_verdict(case, tmp_path, monkeypatch)
    if verdict is None:
        assert not errors, [(f.rule, f.message) for f in errors]
        return
    assert errors, verdict
    if not verdict.by_argparse:  # TRL's own check: rlconf gives its words (argparse's exits are verdicts only)
        assert verdict.message in [f.message for f in errors], (verdict, [(f.rule, f.message) for f in errors])
    # Each fix rlconf suggests for the errors TRL agrees with, applied, is accepted by TRL.
    for finding in errors:
        for suggestion in finding.suggestions:
            fixed = case.applied(suggestion.changes)
            assert trl_verdict(fixed, tmp_path, monkeypatch) is None, (finding.rule, suggestion.changes)
