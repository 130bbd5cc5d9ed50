"""verl's own start-up rules, per release (docs/frameworks/verl.md §3.1-3.3, §2.1-2.3, §8).

Units: ``data.train_batch_size`` and ``actor.ppo_mini_batch_size`` count prompts (verl multiplies the mini-batch
by ``rollout.n``); ``*_micro_batch_size_per_gpu`` counts samples per data-parallel rank; the deprecated
``*_micro_batch_size`` counts samples over all ranks. N = ``n_gpus_per_node × nnodes`` GPUs; the data-parallel
size is N ÷ Ulysses SP (FSDP) or N ÷ (TP × PP × CP) (Megatron). Errors carry verl's own message text.

Each rule only detects; suggestions are candidate changes that are kept when the changed config breaks no rule
(see :func:`suggest`), so a suggestion never trades one start-up error for another.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from translator.checks.findings import (
    Approaches,
    Changes,
    Finding,
    SettingsAccess,
    divisors,
    finding,
    near,
    nearest,
    nearest_multiple,
    suggest,
)
from translator.dialects.base import Values, at_least
from translator.frameworks.verl.tables import ACTOR, AR, DEFAULTS, GROUP_ESTIMATORS, REF, ROLLOUT, V1, V1_MODE, V1_MODES
from translator.plan import RunSpec

N_PER_NODE, NODES = "trainer.n_gpus_per_node", "trainer.nnodes"
TRAIN, N, MINI = "data.train_batch_size", f"{ROLLOUT}.n", f"{ACTOR}.ppo_mini_batch_size"
MICRO, MICRO_GPU = f"{ACTOR}.ppo_micro_batch_size", f"{ACTOR}.ppo_micro_batch_size_per_gpu"
DYNAMIC, SP_OLD = f"{ACTOR}.use_dynamic_bsz", f"{ACTOR}.ulysses_sequence_parallel_size"
SP_NEW = f"{ACTOR}.fsdp_config.ulysses_sequence_parallel_size"
MEGATRON = {p: f"{ACTOR}.megatron.{p}_parallel_size" for p in ("tensor_model", "pipeline_model", "context")}
ROLLOUT_TP, ROLLOUT_DP, ROLLOUT_PP = (
    f"{ROLLOUT}.{p}_parallel_size" for p in ("tensor_model", "data", "pipeline_model")
)
REMOVE_PADDING = f"{AR}.model.use_remove_padding"

# Keys the dialect table has no default for (None = unset); use_remove_padding is True from 0.7 (§5.1).
_EXTRA_DEFAULTS: dict[str, Any] = {
    MICRO: None,
    MICRO_GPU: None,
    f"{ROLLOUT}.log_prob_micro_batch_size": None,
    f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu": None,
    f"{REF}.log_prob_micro_batch_size": None,
    f"{REF}.log_prob_micro_batch_size_per_gpu": None,
    ROLLOUT_DP: 1,
    ROLLOUT_PP: 1,
    f"{ROLLOUT}.val_kwargs.do_sample": False,
    "trainer.use_legacy_worker_impl": "auto",
    "trainer.use_v1": True,
    "data.gen_batch_size": None,
    **{key: DEFAULTS[key] for key in DEFAULTS if key.startswith((V1, f"{ROLLOUT}.checkpoint_engine"))},
    f"{ROLLOUT}.nnodes": 0,
    "reward.reward_model.enable_resource_pool": False,
}
# loss_agg_mode values ActorConfig accepts (token-sum is new in 0.9).
LOSS_AGG_MODES = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")


class View(SettingsAccess):
    """verl's settings as one flat mapping (the config's values over the version's defaults), with the
    quantities verl derives from them. ``changed`` gives the view of a config with some keys changed."""

    def __init__(
        self,
        values: Mapping[str, Any],
        explicit: Iterable[str],
        version: str,
        megatron: bool,
        recipe: bool = False,
        own_loop: bool = False,
        fully_async: bool = False,
    ) -> None:
        self.values, self.explicit = dict(values), frozenset(explicit)  # explicit: the keys the config sets
        self.version, self.megatron = version, megatron
        self.recipe = recipe  # the DAPO recipe entry: gen_batch_size is its round size, not a fetch size
        self.own_loop = own_loop  # an entry point with its own trainer loop (the DAPO recipe): no v1 trainer
        # verl's fully asynchronous trainer (fully_async_policy): no validate_config; a step is required_samples
        self.fully_async = fully_async

    @classmethod
    def of(cls, native: Values, spec: RunSpec, version: str) -> View:
        extra = dict(_EXTRA_DEFAULTS, **{REMOVE_PADDING: at_least(version, "0.7.1")})
        fully_async = spec.generation.rollout_mode == "fully_async"
        return cls(
            {**extra, **native.defaults, **native.values},
            native.values,
            version,
            spec.topology.training_backend == "megatron",
            spec.generation.prompts_per_round is not None,
            (at_least(version, "0.9.0") and V1_MODE not in native.used)  # the reader asks every v1 run
            or fully_async,
            fully_async,
        )

    def changed(self, changes: Mapping[str, Any]) -> View:
        return View(
            {**self.values, **changes},
            self.explicit | set(changes),
            self.version,
            self.megatron,
            self.recipe,
            self.own_loop,
            self.fully_async,
        )

    @property
    def gpus(self) -> int:
        return (self.int(N_PER_NODE) or 1) * (self.int(NODES) or 1)

    @property
    def sp(self) -> int:
        """Ulysses degree as the reader takes it: the deprecated key when > 1 (0.9 copies it only then)."""
        old = self.int(SP_OLD) or 1
        return old if old > 1 or not self.since("0.6.1") else self.int(SP_NEW) or 1

    @property
    def model_parallel(self) -> int:
        return math.prod(self.int(key) or 1 for key in MEGATRON.values())

    @property
    def dp(self) -> int:
        return max(self.gpus // (self.model_parallel if self.megatron else self.sp), 1)

    @property
    def n(self) -> int:
        return self.int(N) or 1

    @property
    def copies(self) -> int:
        """Search-R1's fork key rollout.n_agent: its trainer repeats each prompt this many times before generation."""
        return self.int(f"{ROLLOUT}.n_agent") or 1

    @property
    def dynamic(self) -> bool:
        return self.flag(DYNAMIC)

    @property
    def legacy(self) -> bool:
        """The legacy fsdp/megatron workers (≤ 0.7 unless use_legacy_worker_impl=disable) normalise by floor."""
        return not self.since("0.8.0") and self.get("trainer.use_legacy_worker_impl") != "disable"

    @property
    def v1(self) -> bool:
        """0.9's v1 trainer pads the batch to whole mini-batches (§2.3)."""
        return self.since("0.9.0") and self.get("trainer.use_v1") not in (False, "false", "False")

    @property
    def mode(self) -> str | None:
        """The v1 trainer's mode (trainer.v1.trainer_mode), None without the v1 trainer."""
        return str(self.get(V1_MODE) or "sync") if self.v1 and not self.own_loop else None

    @property
    def sync_steps(self) -> int:
        """parameter_sync_step of the mode (trainer_base.py@v0.9.1: trainer.v1.get(mode, {}).get(..., 1))."""
        value = self.int(f"{V1}.{self.mode}.parameter_sync_step") if self.mode else None
        return value if value is not None else 1

    def metrics(self) -> dict[str, int]:
        """What a suggestion should keep: prompts and samples per step, samples per optimizer step, GPUs."""
        train, mini = self.int(TRAIN) or 0, self.int(MINI) or 0
        if self.fully_async:  # a trainer step's required_samples (fully_async_trainer.py@v0.9.1:159)
            train = mini * (self.int(REQUIRE_BATCHES) or 1)
        return {
            "prompts per step": train,
            "samples per prompt": self.n,
            "samples per step": train * self.n,
            "samples per optimizer step": mini * self.n,
            "GPUs": self.gpus,
        }


# ---------------------------------------------------------------------------- rules
def minimal_batch(view: View) -> int | None:
    """verl's minimal_bsz in samples: N (FSDP), Megatron DP × per-GPU micro (0.4+); None when not computable."""
    if not (view.megatron and view.since("0.4.1")):
        return view.gpus
    micro = view.int(MICRO_GPU)
    if view.gpus % view.model_parallel or micro is None:
        return None  # megatron_parallel reports it; without a per-GPU micro verl fails with a TypeError
    return view.gpus // view.model_parallel * micro


def _real_batch_size(view: View) -> int:
    """The samples verl requires to split evenly: train_batch_size × n; in the early copies (0.1), which check it
    only where DataProto.chunk splits the step's samples over the workers, × the fork's n_agent copies too."""
    return (view.int(TRAIN) or 0) * view.n * (1 if view.since("0.2.0.post2") else view.copies)


def real_batch(view: View) -> list[Finding]:
    """§3.1 #2 / §3.3: train_batch_size × n must split into whole minimal batches (N GPUs, or Megatron DP ×
    micro). Skipped with dynamic batch sizes from 0.6; unconditional before. The copies of 0.1 check it at
    start-up where they hold validate_config, else at the first step (§0.1)."""
    if view.fully_async:
        return []  # fully_async_main.py@v0.9.1 runs no validate_config; train_batch_size is 0 there
    minimal = minimal_batch(view)
    real = _real_batch_size(view)
    if (view.dynamic and view.since("0.6.1")) or minimal is None or real % minimal == 0:
        return []
    keys = [TRAIN, N, N_PER_NODE, NODES]
    if minimal != view.gpus or view.megatron:
        keys += [*MEGATRON.values(), MICRO_GPU]
    if view.since("0.4.1"):
        message = f"real_train_batch_size ({real}) must be divisible by minimal possible batch size ({minimal})"
    elif view.since("0.2.0.post2"):
        message = f"real_train_batch_size ({real}) must be divisible by total n_gpus ({minimal})."
    else:
        if view.copies > 1:
            keys.insert(2, f"{ROLLOUT}.n_agent")
        message = (
            f"the step's {real} samples do not split over {minimal} GPUs: copies of verl 0.1 stop on it at "
            "start-up (validate_config) or, without that check, at the first step (DataProto.chunk)"
        )
    return [finding(view, "verl.real-batch-divisible", "error", message, keys)]


def megatron_parallel(view: View) -> list[Finding]:
    """§3.1 #1: Megatron's TP × PP × CP must divide the GPUs."""
    if not view.megatron or view.gpus % view.model_parallel == 0:
        return []
    tp_pp = (view.int(MEGATRON["tensor_model"]) or 1) * (view.int(MEGATRON["pipeline_model"]) or 1)
    cp = view.int(MEGATRON["context"]) or 1
    return [
        finding(
            view,
            "verl.megatron-parallel-divisible",
            "error",
            f"n_gpus ({view.gpus}) must be divisible by model_parallel_size ({tp_pp}) times "
            f"context_parallel_size ({cp})",
            [N_PER_NODE, NODES, *MEGATRON.values()],
        )
    ]


def _sections(view: View) -> list[tuple[str, str, str]]:
    """(section, deprecated global key, per-GPU key) that verl checks; ref only when a reference model exists
    (always before 0.4, when a KL term needs it after)."""
    sections = [
        ("actor", MICRO, MICRO_GPU),
        ("rollout", f"{ROLLOUT}.log_prob_micro_batch_size", f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu"),
    ]
    if not view.since("0.4.1") or view.flag(f"{ACTOR}.use_kl_loss") or view.flag("algorithm.use_kl_in_reward"):
        sections.append(("ref", f"{REF}.log_prob_micro_batch_size", f"{REF}.log_prob_micro_batch_size_per_gpu"))
    return sections


def _micro_message(version: str, section: str, both: bool) -> str:
    """The mutually-exclusive check's text in that release (§3.1 #3-4, ActorConfig.__post_init__ from 0.6)."""
    if section == "actor" and at_least(version, "0.6.1"):
        return (
            "[actor] You have set both 'actor.ppo_micro_batch_size' AND 'actor.ppo_micro_batch_size_per_gpu'. "
            "Please remove 'actor.ppo_micro_batch_size' because only '*_ppo_micro_batch_size_per_gpu' is "
            "supported (the former is deprecated)."
            if both
            else "[actor] Please set at least one of 'actor.ppo_micro_batch_size' or "
            "'actor.ppo_micro_batch_size_per_gpu' if use_dynamic_bsz is not enabled."
        )
    name = f"{AR}.{section}"
    param = "micro_batch_size" if section == "actor" or not at_least(version, "0.4.1") else "log_prob_micro_batch_size"
    if not both:
        return f"[{name}] Please set at least one of '{name}.{param}' or '{name}.{param}_per_gpu'."
    gap = "" if version == "0.4.1" else " "  # 0.4.1 concatenates "...per_gpu'" + "is supported"
    return (
        f"[{name}] You have set both '{name}.{param}' AND '{name}.{param}_per_gpu'. Please remove "
        f"'{name}.{param}' because only '*_{param}_per_gpu'{gap}is supported (the former is deprecated)."
    )


def micro_keys(view: View) -> list[Finding]:
    """§3.1 #3-4: without dynamic batch sizes exactly one of the global / per-GPU micro keys per section."""
    if view.dynamic:
        return []
    found = []
    for section, old, new in _sections(view):
        both = view.get(old) is not None and view.get(new) is not None
        if both or (view.get(old) is None and view.get(new) is None):
            rule = "verl.micro-batch-both-set" if both else "verl.micro-batch-missing"
            found.append(finding(view, rule, "error", _micro_message(view.version, section, both), [old, new]))
    return found


def mini_vs_train(view: View) -> list[Finding]:
    """§3.1 ActorConfig.validate (bare assert ≤ 0.5): train_batch_size ≥ ppo_mini_batch_size, unless dynamic."""
    if view.fully_async:
        return []  # fully_async_main.py@v0.9.1 runs no validate_config; train_batch_size is 0 there
    train, mini = view.int(TRAIN) or 0, view.int(MINI) or 0
    if view.dynamic or train >= mini or not view.since("0.3.0"):
        return []  # 0.1 / 0.2 check nothing here (docs/frameworks/verl.md §0): the step becomes one mini-batch
    message = (
        f"train_batch_size ({train}) must be >= actor.ppo_mini_batch_size ({mini})"
        if view.since("0.6.1")
        else f"AssertionError: assert config.data.train_batch_size >= "
        f"config.actor_rollout_ref.actor.ppo_mini_batch_size ({train} < {mini})"
    )
    return [finding(view, "verl.mini-batch-larger-than-train", "error", message, [TRAIN, MINI])]


def mini_split(view: View) -> list[Finding]:
    """§2.3: a step of train_batch_size prompts is cut into mini-batches of ppo_mini_batch_size prompts. The
    engine (0.8, no v1) asserts whole mini-batches per rank; legacy workers run a smaller last mini-batch; the
    0.9 v1 trainer pads with no-op samples."""
    if view.fully_async:
        return []  # fully_async_main.py@v0.9.1 runs no validate_config; train_batch_size is 0 there
    train, mini, n, dp = view.int(TRAIN) or 0, view.int(MINI) or 1, view.n, view.dp
    if train % mini == 0 or (train < mini and not view.dynamic):
        return []
    keys = [TRAIN, MINI]
    if view.legacy:
        return [
            finding(
                view,
                "verl.mini-batch-remainder",
                "warning",
                f"train_batch_size {train} is not a multiple of ppo_mini_batch_size {mini}: verl ≤ 0.7 runs "
                f"{train // mini} mini-batches of {mini} prompts and one of {train % mini}, each an optimizer "
                "step",
                keys,
            )
        ]
    if view.v1:
        padded = math.lcm(dp, mini * n)
        return [
            finding(
                view,
                "verl.mini-batch-remainder",
                "warning",
                f"train_batch_size {train} is not a multiple of ppo_mini_batch_size {mini}: verl 0.9 pads the "
                f"{train * n} samples with synthetic no-op samples to a multiple of {padded}",
                keys,
            )
        ]
    if (train * n) % dp or (mini * n) % dp:
        return []  # other rules report the split over ranks first
    local, local_mini = train * n // dp, mini * n // dp
    return [finding(view, "verl.mini-batch-remainder", "error", f"{local} % {local_mini} != 0", keys)]


def mini_per_rank(view: View) -> list[Finding]:
    """§2.1 / §3.2: mini × n samples over the DP ranks. Legacy workers floor silently (assert > 0); the engine
    asserts divisibility."""
    mini, n, dp = view.int(MINI) or 1, view.n, view.dp
    samples = mini * n
    if samples % dp == 0:
        return []
    keys = [MINI, N, N_PER_NODE, NODES]
    if not view.legacy:
        return [
            finding(
                view,
                "verl.mini-batch-dp-divisible",
                "error",
                f"Got mini_batch_size={samples} and self.engine.get_data_parallel_size()={dp}",
                keys,
            )
        ]
    local = samples // dp
    if local == 0:
        return [
            finding(
                view,
                "verl.mini-batch-zero",
                "error",
                "ppo_mini_batch_size 0 should be larger than 0 after normalization",
                keys,
            )
        ]
    return [
        finding(
            view,
            "verl.mini-batch-floor-division",
            "warning",
            f"ppo_mini_batch_size {mini} × rollout.n {n} = {samples} samples do not split over {dp} "
            f"data-parallel ranks: verl ≤ 0.7 floors it to {local} per rank, so an optimizer step uses "
            f"{local * dp} samples, not {samples}",
            keys,
        )
    ]


def micro_vs_mini(view: View) -> list[Finding]:
    """§2.1 / §3.2: the per-rank mini-batch must split into micro-batches (legacy asserts even with dynamic
    batch sizes; 0.3 only for the global key)."""
    dp, local = view.dp, (view.int(MINI) or 1) * view.n // view.dp
    per_gpu, total = view.int(MICRO_GPU), view.int(MICRO)
    if view.legacy:
        micro = total // dp if total is not None else per_gpu if view.since("0.4.1") else None
        if not micro or local == 0 or local % micro == 0:
            return []
        return [
            finding(
                view,
                "verl.micro-batch-divides-mini",
                "error",
                f"normalized ppo_mini_batch_size {local} should be divisible by ppo_micro_batch_size_per_gpu {micro}",
                [MINI, N, MICRO if total is not None else MICRO_GPU],
            )
        ]
    if view.dynamic or not per_gpu or (view.int(MINI) or 1) * view.n % dp or local % per_gpu == 0:
        return []  # (the engine asserts mini × n % DP first: mini_per_rank)
    if view.since("0.7.1"):  # engine/utils.py prepare_micro_batches asserts the split (0.7.1 on)
        message = "data size must be divisible by force_group_size * micro_batch_size_per_gpu"
        return [finding(view, "verl.micro-batch-divides-mini", "error", message, [MINI, N, MICRO_GPU])]
    # 0.6's engine (use_legacy_worker_impl=disable) splits the rank's samples into pieces of the micro-batch size
    return [
        finding(
            view,
            "verl.micro-batch-divides-mini",
            "warning",
            f"{local} samples per rank do not split into micro-batches of {per_gpu}: the engine runs "
            f"{local // per_gpu} of {per_gpu} and one of {local % per_gpu}",
            [MINI, N, MICRO_GPU],
        )
    ]


def deprecated_micro(view: View) -> list[Finding]:
    """§3.1 ActorConfig.validate: the deprecated global micro-batch (samples) against the mini-batch (prompts!)
    and the GPUs; 0.8+ engine workers need the per-GPU key."""
    total = view.int(MICRO)
    if view.dynamic or total is None:
        return []
    mini, sp = view.int(MINI) or 1, view.int(SP_OLD) or 1
    found, bare = [], not view.since("0.6.1")
    if view.since("0.8.0") and view.get(MICRO_GPU) is None:
        found.append(
            finding(
                view,
                "verl.deprecated-micro-batch-unsupported",
                "error",
                "AssertionError: assert self.config.actor.ppo_micro_batch_size_per_gpu is not None",
                [MICRO, MICRO_GPU],
            )
        )
    if mini % total:
        found.append(
            finding(
                view,
                "verl.deprecated-micro-divides-mini",
                "error",
                f"AssertionError: assert ppo_mini_batch_size % ppo_micro_batch_size == 0 ({mini} % {total})"
                if bare
                else f"ppo_mini_batch_size ({mini}) must be divisible by ppo_micro_batch_size ({total})",
                [MINI, MICRO],
            )
        )
    if total * sp < view.gpus:
        found.append(
            finding(
                view,
                "verl.deprecated-micro-too-small",
                "error",
                f"AssertionError: assert ppo_micro_batch_size * sp_size >= n_gpus ({total} × {sp} < {view.gpus})"
                if bare
                else f"ppo_micro_batch_size ({total}) * "
                f"ulysses_sequence_parallel_size ({sp}) must be >= n_gpus ({view.gpus})",
                [MICRO, SP_OLD, N_PER_NODE, NODES],
            )
        )
    return found


def rollout_world(view: View) -> list[Finding]:
    """§1 / §3.2: every vLLM/SGLang replica takes TP (× DP × PP from 0.6) of the N colocated GPUs."""
    keys = [ROLLOUT_TP, ROLLOUT_DP, ROLLOUT_PP] if view.since("0.6.1") else [ROLLOUT_TP]
    infer = math.prod(view.int(key) or 1 for key in keys)
    if view.gpus % infer == 0:
        return []
    name = "infer_world_size" if view.since("0.6.1") else "infer_tp"
    return [
        finding(
            view,
            "verl.rollout-tp-divisible",
            "error",
            f"rollout world_size: {view.gpus} is not divisible by {name}: {infer}",
            [*keys, N_PER_NODE, NODES],
        )
    ]


def loss_agg_mode(view: View) -> list[Finding]:
    """§3.1: loss_agg_mode must be one verl knows (key since 0.4; token-sum since 0.9)."""
    mode = view.get(f"{ACTOR}.loss_agg_mode")
    if not view.since("0.4.1") or mode in valid_loss_agg_modes(view.version):
        return []
    return [finding(view, "verl.loss-agg-mode", "error", f"Invalid loss_agg_mode: {mode}", [f"{ACTOR}.loss_agg_mode"])]


def valid_loss_agg_modes(version: str) -> tuple[str, ...]:
    return LOSS_AGG_MODES + (("token-sum",) if at_least(version, "0.9.0") else ())


def dual_clip(view: View) -> list[Finding]:
    """§3.1 core_algos: the vanilla PPO loss asserts clip_ratio_c > 1 in the first update (dual-clip since 0.4)."""
    c = view.get(f"{ACTOR}.clip_ratio_c")
    mode = view.get(f"{ACTOR}.policy_loss.loss_mode") if view.since("0.5.0") else "vanilla"
    if not view.since("0.4.1") or mode != "vanilla" or not isinstance(c, (int, float)) or c > 1.0:
        return []
    return [
        finding(
            view,
            "verl.clip-ratio-c",
            "error",
            "The lower bound of the clip_ratio_c for dual-clip PPO "
            f"should be greater than 1.0, but get the value: {c}.",
            [f"{ACTOR}.clip_ratio_c"],
        )
    ]


def rollout_name(view: View) -> list[Finding]:
    """§5: rollout.name is ``???`` (mandatory) since 0.6; OmegaConf fails on the first access."""
    if not view.since("0.6.1") or view.get(f"{ROLLOUT}.name") is not None:
        return []
    return [
        finding(
            view, "verl.rollout-name-missing", "error", f"Missing mandatory value: {ROLLOUT}.name", [f"{ROLLOUT}.name"]
        )
    ]


def validation_sampling(view: View) -> list[Finding]:
    """§3.1 #6: sampled validation needs a positive temperature."""
    temperature = view.get(f"{ROLLOUT}.temperature")
    if not view.flag(f"{ROLLOUT}.val_kwargs.do_sample") or not isinstance(temperature, (int, float)) or temperature > 0:
        return []
    return [
        finding(
            view,
            "verl.validation-temperature",
            "error",
            "validation gen temperature should be greater than 0 when enabling do_sample",
            [f"{ROLLOUT}.val_kwargs.do_sample", f"{ROLLOUT}.temperature"],
        )
    ]


def sequence_parallel_padding(view: View) -> list[Finding]:
    """§3.1 FSDPActorConfig.validate (≤ 0.5 _validate_config, also the ref's key): Ulysses needs
    use_remove_padding (default False before 0.7). From 0.6 only the deprecated key is checked."""
    ref_key = f"{REF}.ulysses_sequence_parallel_size"
    keys = [SP_OLD] + ([ref_key] if not view.since("0.6.1") and (view.int(ref_key) or 1) > 1 else [])
    if view.megatron or view.flag(REMOVE_PADDING) or all((view.int(k) or 1) <= 1 for k in keys):
        return []
    return [
        finding(
            view,
            "verl.sequence-parallel-remove-padding",
            "error",
            "When using sequence parallelism for actor/ref policy, you must enable `use_remove_padding`.",
            [*keys, REMOVE_PADDING],
        )
    ]


def gen_batch(view: View) -> list[Finding]:
    """§3.2 (0.9 v1): train_batch_size is fetched in whole gen_batch_size pieces (forced to 1 with filtering)."""
    if view.fully_async:
        return []  # fully_async_main.py@v0.9.1 runs no validate_config; train_batch_size is 0 there
    gen, train = view.int("data.gen_batch_size"), view.int(TRAIN) or 0
    if (
        not view.v1
        or view.recipe
        or not gen
        or train % gen == 0
        or view.flag("algorithm.filter_groups.enable")
        or view.mode != "sync"
    ):  # async modes fetch one prompt at a time (trainer_base.py _init_dataloader)
        return []
    return [
        finding(
            view,
            "verl.gen-batch-divisible",
            "error",
            f"num_prompts ({train}) must be a positive multiple of gen_batch_size ({gen}); it is submitted in "
            "whole gen_batch_size dataloader fetches.",
            [TRAIN, "data.gen_batch_size"],
        )
    ]


SYNC_STEP_KEY = f"{V1}.separate_async.parameter_sync_step"
ROLLOUT_NODES, ROLLOUT_GPUS = f"{ROLLOUT}.nnodes", f"{ROLLOUT}.n_gpus_per_node"
BACKEND = f"{ROLLOUT}.checkpoint_engine.backend"
THRESHOLD, STRATEGY = f"{V1}.sampler.max_off_policy_threshold", f"{V1}.sampler.max_off_policy_strategy"


def trainer_mode(view: View) -> list[Finding]:
    """trainer_base.py@v0.9.1 get_trainer_cls: the mode names a registered trainer."""
    if view.mode is None or view.mode in V1_MODES:
        return []
    return [
        finding(
            view,
            "verl.trainer-mode",
            "error",
            f"Unknown trainer '{view.mode}'. Available trainers: {', '.join(sorted(V1_MODES))}.",
            [V1_MODE],
        )
    ]


def sync_steps(view: View) -> list[Finding]:
    """The v1 step (trainer_base.py@v0.9.1 PPOTrainer.step) splits train_batch_size into parameter_sync_step local
    updates; separate_async (trainer_separate_async.py@v0.9.1 __init__) wants exactly one mini-batch in each."""
    if view.mode is None:
        return []
    steps, train, mini = view.sync_steps, view.int(TRAIN) or 0, view.int(MINI) or 0
    key = f"{V1}.{view.mode}.parameter_sync_step"
    if view.mode == "separate_async":
        if train == steps * mini:
            return []
        return [
            finding(
                view,
                "verl.separate-async-batch",
                "error",
                "train_batch_size must equal parameter_sync_step * "
                f"ppo_mini_batch_size in separate async training, but got train_batch_size={train}, "
                f"parameter_sync_step={steps}, ppo_mini_batch_size={mini}",
                [TRAIN, key, MINI],
            )
        ]
    if steps <= 1 or train % steps == 0:
        return []
    return [
        finding(
            view,
            "verl.parameter-sync-divisible",
            "error",
            f"train_batch_size ({train}) must be divisible by parameter_sync_step ({steps})",
            [TRAIN, key],
        )
    ]


def separate_async(view: View) -> list[Finding]:
    """trainer_separate_async.py@v0.9.1 __init__: a standalone rollout pool, a weight-transfer backend other than
    naive, and a reward model with GPUs of its own."""
    if view.mode != "separate_async":
        return []
    found = []
    if (view.int(ROLLOUT_NODES) or 0) <= 0:
        found.append(
            finding(
                view,
                "verl.separate-async-rollout-pool",
                "error",
                "nnodes must be > 0 in separate async training",
                [ROLLOUT_NODES, V1_MODE],
            )
        )
    gpus = view.get(ROLLOUT_GPUS)
    if gpus is not None and (view.int(ROLLOUT_GPUS) or 0) <= 0:
        found.append(
            finding(
                view,
                "verl.separate-async-rollout-pool",
                "error",
                "n_gpus_per_node must be > 0 in separate async training",
                [ROLLOUT_GPUS, V1_MODE],
            )
        )
    if str(view.get(BACKEND)) == "naive":
        found.append(
            finding(
                view,
                "verl.separate-async-backend",
                "error",
                "please use nccl/nixl/mooncake, etc. backend for separate async training",
                [BACKEND, V1_MODE],
            )
        )
    enable = "reward.reward_model.enable" if view.since("0.7.1") else "reward_model.enable"
    if view.flag(enable) and not view.flag("reward.reward_model.enable_resource_pool"):
        found.append(
            finding(
                view,
                "verl.separate-async-reward-model",
                "error",
                "Colocate reward model (reward.reward_model.enable_resource_pool=False) is not supported "
                "in separate async mode, because the standalone rollout never pauses to free GPU memory. "
                "Use standalone mode (reward.reward_model.enable_resource_pool=True) instead.",
                [enable, "reward.reward_model.enable_resource_pool", V1_MODE],
            )
        )
    return found


def off_policy_bound(view: View) -> list[Finding]:
    """replay_buffer.py ReplayBuffer.__init__: the staleness threshold is a positive integer (0.9.1: or null) and
    the strategy drop or wait. Read in every v1 mode."""
    if view.mode is None:
        return []
    found, threshold = [], view.get(THRESHOLD)
    allowed_null = view.since("0.9.1")
    number = view.int(THRESHOLD) if not isinstance(threshold, bool) and threshold is not None else None
    if (threshold is None and not allowed_null) or (threshold is not None and (number is None or number <= 0)):
        message = f"Invalid max off policy threshold: {threshold}, must be an integer greater than 0" + (
            ", or null to disable off-policy version control" if allowed_null else ""
        )
        found.append(finding(view, "verl.off-policy-threshold", "error", message, [THRESHOLD]))
    strategy = view.get(STRATEGY)
    if strategy not in ("drop", "wait"):
        found.append(
            finding(
                view,
                "verl.off-policy-strategy",
                "error",
                f"Invalid max off policy strategy: {strategy}, must be one of ['drop', 'wait']",
                [STRATEGY],
            )
        )
    return found


REQUIRE_BATCHES = "async_training.require_batches"
STALENESS, SYNC_TRIGGER = "async_training.staleness_threshold", "async_training.trigger_parameter_sync_step"


def fully_async(view: View) -> list[Finding]:
    """The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in
    verl's words: no hybrid engine, data.train_batch_size 0, data.gen_batch_size 1, staleness_threshold >= 0,
    trigger_parameter_sync_step >= 1, rollout log-probs computed."""
    if not view.fully_async:
        return []
    found = []
    if view.flag(f"{AR}.hybrid_engine"):
        found.append(
            finding(
                view,
                "verl.fully-async-hybrid-engine",
                "error",
                "AssertionError: assert not "
                "self.hybrid_engine (the fully asynchronous trainer needs "
                "actor_rollout_ref.hybrid_engine=False)",
                [f"{AR}.hybrid_engine"],
            )
        )
    train, gen = _number(view.get(TRAIN)), _number(view.get("data.gen_batch_size"))
    if train is not None and train != 0:
        found.append(finding(view, "verl.fully-async-train-batch", "error", "train_batch_size must be zero", [TRAIN]))
    if gen is not None and gen != 1:
        found.append(
            finding(view, "verl.fully-async-gen-batch", "error", "gen_batch_size must be one", ["data.gen_batch_size"])
        )
    staleness = _number(view.get(STALENESS))
    if staleness is not None and staleness < 0:
        found.append(
            finding(view, "verl.fully-async-staleness", "error", "staleness_threshold must larger than 0", [STALENESS])
        )
    trigger = _number(view.get(SYNC_TRIGGER))
    if trigger is not None and trigger < 1:
        found.append(
            finding(
                view,
                "verl.fully-async-sync-step",
                "error",
                "trigger_parameter_sync_step must larger or equal than 1",
                [SYNC_TRIGGER],
            )
        )
    if not view.flag(f"{ROLLOUT}.calculate_log_probs"):
        found.append(
            finding(
                view,
                "verl.fully-async-log-probs",
                "error",
                "must rollout calculate log_probs",
                [f"{ROLLOUT}.calculate_log_probs"],
            )
        )
    return found


def _number(value: Any) -> float | None:
    """A number, or None when the value is unset or not one (a variable the script never sets: unknown)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # exact: float() of an integer past 1e308 raises OverflowError
    try:
        return float(value) if value is not None and not isinstance(value, bool) else None
    except (TypeError, ValueError, OverflowError):
        return None


def group_size(view: View) -> list[Finding]:
    """§5 GRPO math: a group of one sample gets mean 0 and std 1, so the advantage is the raw score."""
    estimator = str(view.get("algorithm.adv_estimator"))
    # Search-R1's n_agent copies of a prompt share its group unless do_search is off (dialect.py agent_copies)
    grouped_copies = view.copies if view.get("do_search") not in (False, "false", "False") else 1
    if estimator not in GROUP_ESTIMATORS or view.n * grouped_copies > 1:
        return []
    return [
        finding(
            view,
            "verl.group-size-one",
            "warning",
            f"algorithm.adv_estimator={estimator} with rollout.n=1: each group holds one sample, which verl "
            "scores against mean 0 (and std 1), so there is no group baseline",
            ["algorithm.adv_estimator", N],
        )
    ]


def ignored_knobs(view: View) -> list[Finding]:
    """§8: clip_ratio alone is shadowed by clip_ratio_low/high (0.4+); actor.grad_clip is read by nothing in
    the engine (0.8+), which clips with optim.clip_grad."""
    found, low, high = [], f"{ACTOR}.clip_ratio_low", f"{ACTOR}.clip_ratio_high"
    clip = view.get(f"{ACTOR}.clip_ratio")
    if view.since("0.4.1") and f"{ACTOR}.clip_ratio" in view.explicit and not {low, high} & view.explicit:
        found.append(
            finding(
                view,
                "verl.clip-ratio-ignored",
                "warning",
                f"actor.clip_ratio {clip} has no effect: clip_ratio_low/high ({view.get(low)}/"
                f"{view.get(high)}) take precedence since verl 0.4",
                [f"{ACTOR}.clip_ratio", low, high],
            )
        )
    old, new = f"{ACTOR}.grad_clip", f"{ACTOR}.optim.clip_grad"
    if view.since("0.8.0") and old in view.explicit and view.get(old) != view.get(new):
        found.append(
            finding(
                view,
                "verl.grad-clip-ignored",
                "warning",
                f"actor.grad_clip {view.get(old)} is read by "
                f"nothing in verl {view.version}; the engine clips with actor.optim.clip_grad "
                f"({view.get(new)})",
                [old, new],
            )
        )
    return found


RULES: tuple[Callable[[View], list[Finding]], ...] = (
    real_batch,
    megatron_parallel,
    micro_keys,
    mini_vs_train,
    mini_split,
    mini_per_rank,
    micro_vs_mini,
    deprecated_micro,
    rollout_world,
    loss_agg_mode,
    dual_clip,
    rollout_name,
    validation_sampling,
    sequence_parallel_padding,
    gen_batch,
    group_size,
    ignored_knobs,
    trainer_mode,
    sync_steps,
    separate_async,
    off_policy_bound,
    fully_async,
)


def detect(view: View) -> list[Finding]:
    return [f for rule in RULES for f in rule(view)]


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    view = View.of(native, spec, version)
    found = detect(view)
    for item in found:
        item.suggestions = suggest(view, item, CANDIDATES[item.rule](view, item), detect, View.metrics)
    return found


# ---------------------------------------------------------------------------- suggestions
def _real_batch(view: View, item: Finding) -> Approaches:
    """Prompts per step to the nearest whole minimal batch (keeps n and GPUs), or the group size (keeps prompts)."""
    train, n, minimal, mini = view.int(TRAIN) or 1, view.n, minimal_batch(view) or 1, view.int(MINI) or 1
    copies = _real_batch_size(view) // max(train * n, 1)  # n_agent where the check counts it
    trains = near(train, lambda t: t * n * copies % minimal == 0, 4)
    return [
        [{TRAIN: t} for t in trains] + [{TRAIN: t, MINI: nearest(divisors(t), mini, 1)[0]} for t in trains],
        [{N: k} for k in near(n, lambda k: train * k * copies % minimal == 0, 3, low=2 if n > 1 else 1)],
    ]


def _megatron(view: View, item: Finding) -> Approaches:
    """Another TP or PP that divides the GPUs (keeps the GPU count)."""
    (tp, pp, cp), gpus = (view.int(key) or 1 for key in MEGATRON.values()), view.gpus
    return [
        [{MEGATRON["tensor_model"]: t} for t in nearest(divisors(gpus), tp, 4) if gpus % (t * pp * cp) == 0],
        [{MEGATRON["pipeline_model"]: p} for p in nearest(divisors(gpus), pp, 4) if gpus % (tp * p * cp) == 0],
    ]


def _micro_keys(view: View, item: Finding) -> Approaches:
    """Both set: drop the deprecated global key. Neither: a per-GPU micro-batch dividing the rank's batch, or
    dynamic batch sizes."""
    old, new = item.keys
    if item.rule == "verl.micro-batch-both-set":
        return [[{old: None}]]
    batch = view.int(MINI) if new == MICRO_GPU else view.int(TRAIN)
    local = max((batch or 1) * view.n // view.dp, 1)
    return [[{new: m} for m in nearest(divisors(local), view.int(MICRO_GPU) or 4, 3)], [{DYNAMIC: True}]]


def _mini_split(view: View, item: Finding) -> Approaches:
    """A mini-batch dividing the step (keeps prompts per step), or whole mini-batches per step (keeps samples
    per optimizer step)."""
    train, mini = view.int(TRAIN) or 1, view.int(MINI) or 1
    return [[{MINI: m} for m in nearest(divisors(train), mini, 4)], [{TRAIN: t} for t in nearest_multiple(train, mini)]]


def _mini_per_rank(view: View, item: Finding) -> Approaches:
    mini, n, dp, train = view.int(MINI) or 1, view.n, view.dp, view.int(TRAIN) or 1
    return [
        [{MINI: m} for m in near(mini, lambda m: m * n % dp == 0 and train % m == 0, 2)],
        [{N: k} for k in near(n, lambda k: mini * k % dp == 0, 2, low=min(n, 2))],
    ]


def _micro_vs_mini(view: View, item: Finding) -> Approaches:
    """A micro-batch dividing the rank's mini-batch. For the deprecated global key (samples over all ranks): keep
    it at micro × DP (≤ 0.7), or move to the per-GPU key (what 0.8+ requires)."""
    local = max((view.int(MINI) or 1) * view.n // view.dp, 1)
    if MICRO in item.keys:
        micros = nearest(divisors(local), max((view.int(MICRO) or view.dp) // view.dp, 1), 3)
        return [[{MICRO: m * view.dp} for m in micros], [{MICRO: None, MICRO_GPU: m} for m in micros]]
    return [[{MICRO_GPU: m} for m in nearest(divisors(local), view.int(MICRO_GPU) or 1, 3)]]


def _rollout_tp(view: View, item: Finding) -> Approaches:
    """A rollout TP dividing the GPUs (keeps them), or a GPU count per node that the replicas fill."""
    tp, rest = view.int(ROLLOUT_TP) or 1, (view.int(ROLLOUT_DP) or 1) * (view.int(ROLLOUT_PP) or 1)
    per_node, nodes = view.int(N_PER_NODE) or 1, view.int(NODES) or 1
    return [
        [{ROLLOUT_TP: t} for t in nearest(divisors(view.gpus), tp, 4) if view.gpus % (t * rest) == 0],
        [{N_PER_NODE: g} for g in nearest_multiple(per_node, tp * rest) if g * nodes % view.sp == 0],
    ]


def _loss_agg(view: View, item: Finding) -> Approaches:
    modes = valid_loss_agg_modes(view.version)
    guesses = difflib.get_close_matches(str(view.get(f"{ACTOR}.loss_agg_mode")), modes, n=2, cutoff=0.4)
    return [[{f"{ACTOR}.loss_agg_mode": mode}] for mode in dict.fromkeys([*guesses, "token-mean"])]


def _group_size(view: View, item: Finding) -> Approaches:
    """A group of k: fewer prompts (keeps samples per step and per optimizer step), or k× the samples."""
    train, mini = view.int(TRAIN) or 1, view.int(MINI) or 1
    sizes = (8, 4, 16, 5, 2)
    return [
        [{N: k, TRAIN: train // k, MINI: mini // k} for k in sizes if train % k == 0 and mini % k == 0],
        [{N: k} for k in sizes],
    ]


def _separate_async_batch(view: View) -> Approaches:
    """One mini-batch per local update: parameter_sync_step = prompts ÷ mini (keeps both batches), the mini-batch
    = prompts ÷ parameter_sync_step (keeps prompts per step), or prompts = parameter_sync_step × mini."""
    train, mini, steps = view.int(TRAIN) or 1, view.int(MINI) or 1, view.sync_steps
    return [
        [{SYNC_STEP_KEY: train // mini}] if train % mini == 0 else [],
        [{MINI: train // steps}] if train % steps == 0 else [],
        [{TRAIN: steps * mini}],
    ]


def _fixed(*changes: Changes) -> Callable[[View, Finding], Approaches]:
    return lambda view, item: [[change] for change in changes]


CLIP, CLIP_C = f"{ACTOR}.clip_ratio", f"{ACTOR}.clip_ratio_c"
CANDIDATES: dict[str, Callable[[View, Finding], Approaches]] = {
    "verl.real-batch-divisible": _real_batch,
    "verl.megatron-parallel-divisible": _megatron,
    "verl.micro-batch-both-set": _micro_keys,
    "verl.micro-batch-missing": _micro_keys,
    "verl.mini-batch-larger-than-train": _mini_split,
    "verl.mini-batch-remainder": _mini_split,
    "verl.mini-batch-dp-divisible": _mini_per_rank,
    "verl.mini-batch-zero": _mini_per_rank,
    "verl.mini-batch-floor-division": _mini_per_rank,
    "verl.micro-batch-divides-mini": _micro_vs_mini,
    "verl.deprecated-micro-batch-unsupported": _micro_vs_mini,
    "verl.deprecated-micro-divides-mini": _micro_vs_mini,
    "verl.deprecated-micro-too-small": _micro_vs_mini,
    "verl.rollout-tp-divisible": _rollout_tp,
    "verl.loss-agg-mode": _loss_agg,
    "verl.clip-ratio-c": _fixed({CLIP_C: 3.0}, {CLIP_C: 10.0}),  # verl's default; DAPO's
    "verl.rollout-name-missing": _fixed({f"{ROLLOUT}.name": "vllm"}, {f"{ROLLOUT}.name": "sglang"}),
    "verl.validation-temperature": _fixed({f"{ROLLOUT}.temperature": 1.0}, {f"{ROLLOUT}.val_kwargs.do_sample": False}),
    "verl.sequence-parallel-remove-padding": _fixed({REMOVE_PADDING: True}),
    "verl.gen-batch-divisible": lambda view, item: [
        [
            {"data.gen_batch_size": g}
            for g in nearest(divisors(view.int(TRAIN) or 1), view.int("data.gen_batch_size") or 1)
        ]
    ],
    "verl.group-size-one": _group_size,
    "verl.trainer-mode": lambda view, item: [
        [{V1_MODE: mode}] for mode in difflib.get_close_matches(view.mode or "", V1_MODES, n=3, cutoff=0) or V1_MODES
    ],
    "verl.separate-async-batch": lambda view, item: _separate_async_batch(view),
    "verl.parameter-sync-divisible": lambda view, item: [
        [{item.keys[1]: k}] for k in nearest(divisors(view.int(TRAIN) or 1), view.sync_steps, 3)
    ],
    "verl.separate-async-rollout-pool": lambda view, item: [
        [{ROLLOUT_NODES: 1, ROLLOUT_GPUS: view.int(N_PER_NODE) or 8}]
    ],
    "verl.separate-async-backend": _fixed({BACKEND: "nccl"}),
    "verl.separate-async-reward-model": _fixed({"reward.reward_model.enable_resource_pool": True}),
    "verl.off-policy-threshold": _fixed({THRESHOLD: 8}),
    "verl.fully-async-hybrid-engine": _fixed({f"{AR}.hybrid_engine": False}),
    "verl.fully-async-train-batch": _fixed({TRAIN: 0}),
    "verl.fully-async-gen-batch": _fixed({"data.gen_batch_size": 1}),
    "verl.fully-async-staleness": _fixed({STALENESS: 0.1}, {STALENESS: 0}),  # the config's default; on-policy
    "verl.fully-async-sync-step": _fixed({SYNC_TRIGGER: 1}, {SYNC_TRIGGER: 4}),
    "verl.fully-async-log-probs": _fixed({f"{ROLLOUT}.calculate_log_probs": True}),
    "verl.off-policy-strategy": _fixed({STRATEGY: "drop"}, {STRATEGY: "wait"}),
    "verl.clip-ratio-ignored": lambda view, item: [[{f"{CLIP}_low": view.get(CLIP), f"{CLIP}_high": view.get(CLIP)}]],
    "verl.grad-clip-ignored": lambda view, item: [[{f"{ACTOR}.optim.clip_grad": view.get(f"{ACTOR}.grad_clip")}]],
}
