"""Oracle: verl composes its own Hydra config with every launch script rlconf writes and validates it as
``verl.trainer.main_ppo`` does before training; and for the rules its ``validate_config`` covers, `rlconf check`
gives verl's verdict in verl's words.

What runs is verl itself: its ``verl/trainer/config`` (``ppo_trainer``, with ``model_engine=megatron`` where the
script says so) composed with Hydra's compose API and the overrides of the emitted ``launch.sh`` (read with rlconf's
own ``parse_shell`` and ``parse_override``; Hydra parses each override again itself), then
``verl.utils.config.validate_config(config, use_reference_policy=need_reference_policy(config),
use_critic=need_critic(config))``, the call main_ppo makes (0.9.1 signature: the GPU count comes from
``trainer.n_gpus_per_node × trainer.nnodes`` in the config). That instantiates the actor (and critic) config
dataclasses, so their ``__post_init__`` and ``validate`` checks run too.

Where verl comes from: the verl wheel (``pip download --no-deps verl==0.9.1``) unpacked into ``$RLCONF_ORACLE_DIR``
(.ci/run does it), or an installed verl. It is not pip-installed into the test environment because its wheel also
installs a top-level ``tests`` package, which shadows this repository's ``tests/`` (``from tests.conftest import``
breaks). The package is imported under its own name from that directory, its real ``__init__`` included; nothing
is stubbed. verl's import-time needs (ray, tensordict, codetiming, orjson, pillow, hydra-core) are installed.

One value is replaced: ``critic.model.path``. The critic's config builds an ``HFModelConfig`` that loads the model's
config and tokenizer from the hub, which these machines cannot reach, so a tiny local model (a one-layer Llama
config and a two-word tokenizer, made here) stands in; verl's batch checks do not read the model.
"""

from __future__ import annotations

import ast
import importlib.util
import logging
import math
import os
import sys
import textwrap
import types
import warnings
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES, Case, case_id, has_group
from tests.test_check_verl import VIOLATIONS, Violation, render
from translator import check, translate
from translator.dialects import parse_framework
from translator.errors import ConfigError
from translator.sources.files import Source
from translator.sources.hydra import parse_override
from translator.sources.shell import SYMBOLIC, parse_shell, unwrap_command

pytestmark = pytest.mark.oracle

pytest.importorskip("hydra", reason="hydra-core is not installed (.ci/run installs it with verl's other needs)")


def _verl_package() -> Path | None:
    """The verl package directory: unpacked under $RLCONF_ORACLE_DIR, else an installed one."""
    oracle = os.environ.get("RLCONF_ORACLE_DIR")
    if oracle:
        found = sorted(Path(oracle).glob("verl-*/verl/__init__.py"))
        if found:
            return found[-1].parent
    spec = importlib.util.find_spec("verl")
    return Path(next(iter(spec.submodule_search_locations))) if spec and spec.submodule_search_locations else None


def _import_verl(package: Path) -> Any:
    if "verl" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "verl", package / "__init__.py", submodule_search_locations=[str(package)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules["verl"] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules["verl"]
            raise
    return sys.modules["verl"]


PACKAGE = _verl_package()
if PACKAGE is None:
    pytest.skip(
        "verl is not here: set RLCONF_ORACLE_DIR to the directory .ci/run unpacks verl 0.9.1 into",
        allow_module_level=True,
    )
try:
    verl = _import_verl(PACKAGE)
    from hydra import compose, initialize_config_dir
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass, validate_config
except ImportError as missing:  # one of verl's import-time needs
    pytest.skip(f"verl {PACKAGE} cannot be imported: {missing}", allow_module_level=True)

CONFIG_DIR = PACKAGE / "trainer" / "config"
DIALECT = parse_framework("verl")[0]
try:
    VERSION = DIALECT.resolve_version(verl.__version__)
except ConfigError:
    pytest.skip(f"rlconf has no verl version for the installed verl {verl.__version__}", allow_module_level=True)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local stand-in for the critic's hub model (module docstring): config.json and a tokenizer."""
    from tokenizers import Tokenizer, models
    from transformers import LlamaConfig, PreTrainedTokenizerFast

    where = tmp_path_factory.mktemp("tiny-model")
    LlamaConfig(
        vocab_size=8,
        hidden_size=8,
        intermediate_size=16,
        num_hidden_layers=1,
        num_attention_heads=1,
        num_key_value_heads=1,
        architectures=["LlamaForCausalLM"],
    ).save_pretrained(where)
    words = Tokenizer(models.WordLevel({"<unk>": 0, "a": 1}, unk_token="<unk>"))
    PreTrainedTokenizerFast(
        tokenizer_object=words, unk_token="<unk>", eos_token="<unk>", pad_token="<unk>"
    ).save_pretrained(where)
    return where


def main_ppo_arguments(launch: str) -> tuple[str, list[str]]:
    """The config name and the Hydra overrides of the ``verl.trainer.main_ppo`` command in a launch script."""
    for command in parse_shell(launch).commands:
        argv = unwrap_command(command.argv)
        if "verl.trainer.main_ppo" in argv:
            # What bash would pass: a ${NAME} or $(...) the script leaves to the shell expands to some text.
            words = [SYMBOLIC.sub("x", w) for w in argv[argv.index("verl.trainer.main_ppo") + 1 :]]
            name = next((w.split("=", 1)[1] for w in words if w.startswith("--config-name=")), "ppo_trainer")
            overrides = [w for w in words if not w.startswith("--config-")]
            parsed = [parse_override(w) for w in overrides]
            assert all(parsed), [w for w, o in zip(overrides, parsed, strict=False) if o is None]
            return name, [o.text for o in parsed if o is not None]
    raise AssertionError(f"no verl.trainer.main_ppo command in:\n{launch}")


def composed(name: str, overrides: list[str], model: Path) -> Any:
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base=None):
        return compose(name, overrides=[*overrides, f"critic.model.path={model}"])


def validate(config: Any) -> None:
    """What main_ppo runs before training."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # need_critic warns that a non-GAE run has no critic
        validate_config(
            config=config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config)
        )


# ---------------------------------------------------------------- every emitted launch script
# Emitted configs verl rejects (a writer bug each; none known now). strict: a fixed writer drops its entry.
REJECTED: dict[str, str] = {
    # slime 0.2.1 stops on this script (no optimizer batch): verl's writer leaves ppo_mini_batch_size at its
    # default 256 prompts, more than the 16 of a step
    "slime/no_gbs_v021": "a source with no optimizer batch: verl's default mini-batch is written",
    # the project's copy of grpo_fast.py splits a step its own way, so the optimizer batch is unknown: the same
    "open-instruct/fork_mini_batches": "a fork whose optimizer batch is unknown: verl's default mini-batch is written",
    # Miles' FSDP backend without a global batch stops at start-up: likewise no optimizer batch
    "miles/fsdp_no_global_batch": "a source with no optimizer batch: verl's default mini-batch is written",
}


def emitted_case(case: Case) -> Any:
    reason = REJECTED.get(case_id(case))
    return pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=reason)) if reason else case


@pytest.mark.parametrize("case", [emitted_case(c) for c in CASES if has_group(c)], ids=case_id)
def test_emitted_overrides_compose_and_validate(case: Case, tiny_model: Path) -> None:
    try:
        translation = translate(case.path, to=f"verl@{VERSION}", **case.load_kwargs())
    except ConfigError as error:
        if "number of training processes is unknown" in str(error):
            pytest.skip(f"nothing is emitted: {error}")
        raise
    name, overrides = main_ppo_arguments(translation.files["launch.sh"])
    config = composed(name, overrides, tiny_model)
    validate(config)

    # The composed config (interpolations resolved by verl's own dataclass) holds the plan rlconf read back.
    plan = translation.plan
    actor = omega_conf_to_dataclass(config.actor_rollout_ref.actor)
    n = config.actor_rollout_ref.rollout.n
    assert actor.rollout_n == n == plan["samples_per_prompt"]
    assert config.data.train_batch_size * n == plan["samples_per_step"]
    assert actor.ppo_mini_batch_size * n == plan["samples_per_optimizer_step"]
    assert actor.ppo_epochs == plan["epochs_per_step"]
    gpus = config.trainer.n_gpus_per_node * config.trainer.nnodes
    if actor.strategy == "megatron":
        m = actor.megatron
        model_parallel = m.tensor_model_parallel_size * m.pipeline_model_parallel_size * m.context_parallel_size
    else:
        model_parallel = actor.fsdp_config.ulysses_sequence_parallel_size
    assert gpus // model_parallel == plan["data_parallel_size"]
    if not actor.use_dynamic_bsz:
        assert actor.ppo_micro_batch_size_per_gpu == plan["micro_batch_per_device"]
    # The v1 trainer's own start-up checks (below) accept the mode rlconf wrote, and its step holds the plan.
    v1_validate(config)
    trainer = v1_trainer(config)
    local = config.data.train_batch_size // trainer.parameter_sync_step
    assert plan["optimizer_steps_per_step"] == (
        trainer.parameter_sync_step * actor.ppo_epochs * math.ceil(local / actor.ppo_mini_batch_size)
    )
    mode = translation.spec.generation.rollout_mode
    assert (mode if mode in ("colocate_async", "separate_async") else "sync") == config.trainer.v1.trainer_mode


# ---------------------------------------------------------------- the v1 trainer's start-up checks
# The v1 trainer's modules import TransferQueue, which is not installed here, so its checks are taken from its
# source and run as they are: the statements of PPOTrainerSeparateAsync.__init__ before super().__init__ (the
# asserts on the batch, the rollout pool, the backend and the reward model), PPOTrainer.__init__'s reading of the
# mode and parameter_sync_step, the first assert of PPOTrainer.step, and ReplayBuffer.__init__'s asserts on the
# staleness threshold and strategy (built in every mode).
V1_DIR = PACKAGE / "trainer" / "ppo" / "v1"


def _method(path: Path, cls: str, name: str) -> ast.FunctionDef:
    tree = ast.parse(path.read_text())
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return next(n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == name)


def _compiled(statements: list[ast.stmt], arguments: str) -> Any:
    """The statements as the body of ``def check(<arguments>)``, run in a namespace with verl's helpers."""
    from verl.trainer.ppo.utils import need_reward_model

    body = textwrap.indent("\n".join(ast.unparse(s) for s in statements) or "pass", "    ")
    namespace: dict[str, Any] = {"need_reward_model": need_reward_model, "logger": logging.getLogger("verl-oracle")}
    exec(compile(f"def check({arguments}):\n{body}\n", "<verl v1 checks>", "exec"), namespace)
    return namespace["check"]


def _before_super(method: ast.FunctionDef) -> list[ast.stmt]:
    statements = []
    for statement in method.body:
        if "super().__init__" in ast.unparse(statement):
            break
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):  # the docstring
            statements.append(statement)
    return statements


SEPARATE_INIT = _compiled(
    _before_super(_method(V1_DIR / "trainer_separate_async.py", "PPOTrainerSeparateAsync", "__init__")), "self, config"
)
_BASE_INIT = _method(V1_DIR / "trainer_base.py", "PPOTrainer", "__init__")
TRAINER_FIELDS = _compiled(
    [
        s
        for s in _BASE_INIT.body
        if isinstance(s, ast.Assign)
        and any("trainer_mode" in ast.unparse(t) or "parameter_sync_step" in ast.unparse(t) for t in s.targets)
    ],
    "self",
)
STEP_ASSERT = _compiled(
    [
        s
        for s in _method(V1_DIR / "trainer_base.py", "PPOTrainer", "step").body
        if isinstance(s, (ast.Assign, ast.Assert))
    ][:2],
    "self",
)
_BUFFER_INIT = _method(V1_DIR / "replay_buffer.py", "ReplayBuffer", "__init__")
BUFFER_ASSERTS = _compiled(
    [s for s in _BUFFER_INIT.body if "max_off_policy" in ast.unparse(s) and isinstance(s, (ast.If, ast.Assert))], "self"
)


def v1_trainer(config: Any) -> Any:
    trainer = types.SimpleNamespace(config=config)
    TRAINER_FIELDS(trainer)
    return trainer


def v1_validate(config: Any) -> None:
    """What the v1 trainer asserts before its first step (AssertionError with verl's message)."""
    if not config.trainer.use_v1:
        return
    trainer = v1_trainer(config)
    if trainer.trainer_mode == "separate_async":
        SEPARATE_INIT(types.SimpleNamespace(), config)
    sampler = config.trainer.v1.sampler
    BUFFER_ASSERTS(
        types.SimpleNamespace(
            max_off_policy_threshold=sampler.max_off_policy_threshold,
            max_off_policy_strategy=sampler.max_off_policy_strategy,
        )
    )
    STEP_ASSERT(trainer)


V1_COVERED = {
    "verl.separate-async-batch",
    "verl.separate-async-rollout-pool",
    "verl.separate-async-backend",
    "verl.separate-async-reward-model",
    "verl.parameter-sync-divisible",
    "verl.off-policy-threshold",
    "verl.off-policy-strategy",
}


def v1_verdict(settings: dict[str, Any], model: Path) -> str | None:
    name, overrides = main_ppo_arguments(render(settings))
    try:
        v1_validate(composed(name, overrides, model))
    except AssertionError as error:
        return str(error)
    return None


def assert_same_verdict(violation: Violation, covered: set[str], verdict_of: Any, model: Path) -> None:
    """rlconf reports an error of a covered rule exactly when verl raises, in verl's words, and verl accepts each fix
    rlconf suggests."""
    settings = violation.settings()
    report = check(Source(render(settings), "launch.sh"), framework=f"verl@{VERSION}")
    errors = [f for f in report.errors if f.rule in covered]
    verdict = verdict_of(settings, model)
    if verdict is None:
        assert not errors, [(f.rule, f.message) for f in errors]
        return
    assert verdict in [f.message for f in errors], (verdict, [(f.rule, f.message) for f in report.errors])
    for finding in errors:
        for suggestion in finding.suggestions:
            assert verdict_of({**settings, **suggestion.changes}, model) is None, suggestion.changes


@pytest.mark.parametrize("violation", VIOLATIONS, ids=lambda v: v.name)
def test_check_gives_the_v1_trainers_verdict(violation: Violation, tiny_model: Path) -> None:
    # Every violation of tests/test_check_verl.py, judged at the installed release by verl's v1 code and by rlconf.
    assert_same_verdict(violation, V1_COVERED, v1_verdict, tiny_model)


# ---------------------------------------------------------------- `rlconf check` against validate_config
# The rules whose check validate_config (0.9.1) runs, read from its source: validate_config itself (real batch,
# Megatron parallel sizes, the rollout/ref micro-batch pairs, the sampled-validation temperature),
# ActorConfig.__post_init__ (micro-batch pair, loss_agg_mode), ActorConfig.validate / FSDPActorConfig.validate
# (mini-batch vs train batch, deprecated global micro-batch vs GPUs, Ulysses without remove-padding). The other
# rules are checked later by verl (workers, the engine, the trainer, the loss): validate_config must accept those
# configs, and rlconf must report no error of a covered rule for them.
COVERED = {
    "verl.real-batch-divisible",
    "verl.megatron-parallel-divisible",
    "verl.micro-batch-both-set",
    "verl.micro-batch-missing",
    "verl.validation-temperature",
    "verl.loss-agg-mode",
    "verl.mini-batch-larger-than-train",
    "verl.deprecated-micro-too-small",
    "verl.sequence-parallel-remove-padding",
}


def verls_verdict(settings: dict[str, Any], model: Path) -> str | None:
    """validate_config's error for the config (the original exception of an instantiation), or None."""
    name, overrides = main_ppo_arguments(render(settings))
    try:
        validate(composed(name, overrides, model))
    except Exception as error:  # AssertionError or ValueError, raised directly or inside Hydra's instantiation error
        while error.__cause__ is not None:
            error = error.__cause__
        if not isinstance(error, (AssertionError, ValueError)):
            raise
        return str(error)
    return None


@pytest.mark.parametrize("violation", VIOLATIONS, ids=lambda v: v.name)
def test_check_gives_verls_verdict(violation: Violation, tiny_model: Path) -> None:
    # Every violation of tests/test_check_verl.py, judged at the installed release by both.
    assert_same_verdict(violation, COVERED, verls_verdict, tiny_model)
