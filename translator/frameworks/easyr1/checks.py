"""EasyR1's own start-up rules, per schema band (docs/frameworks/easyr1.md "Checks", with the source file of
each message at its tag).

Units: ``data.rollout_batch_size`` and ``worker.{actor,critic}.global_batch_size`` count prompts (the worker
multiplies the latter by ``worker.rollout.n``); the micro sizes count samples per data-parallel rank. W =
``n_gpus_per_node × nnodes`` GPUs, all colocated; the data-parallel size is W ÷ Ulysses. Every worker call
chunks its batch into W equal pieces (``DataProto.chunk``, EasyR1#44: "only support equal chunk").

Errors carry EasyR1's own message text for the band. Suggestions are validated like verl's: a candidate
change is kept only when the changed config breaks no rule (:func:`translator.frameworks.verl.checks.suggest`; EasyR1 is
a fork of verl and shares the mechanics).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
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
from translator.dialects.base import Values
from translator.frameworks.easyr1.tables import (
    ACTOR,
    CRITIC,
    ESTIMATORS,
    MARCH,
    ROLLOUT,
)
from translator.plan import RunSpec

N_PER_NODE, NODES = "trainer.n_gpus_per_node", "trainer.nnodes"
RBS, MINI_RBS = "data.rollout_batch_size", "data.mini_rollout_batch_size"
N, TP, MNBT = f"{ROLLOUT}.n", f"{ROLLOUT}.tensor_parallel_size", f"{ROLLOUT}.max_num_batched_tokens"
PROMPT, RESPONSE, ESTIMATOR = "data.max_prompt_length", "data.max_response_length", "algorithm.adv_estimator"
MAX_TRY = "trainer.max_try_make_batch"

# Dataclass defaults the dialect table does not carry (rollout/config.py: max_num_batched_tokens 8192).
EXTRA_DEFAULTS: dict[str, Any] = {MNBT: 8192, "algorithm.online_filtering": False, MINI_RBS: None}


class View(SettingsAccess):
    """EasyR1's settings as one flat mapping (config over the band's dataclass defaults) and what its worker
    derives from them; ``changed`` gives the view of a config with some keys changed."""

    @classmethod
    def of(cls, native: Values, version: str) -> View:
        return cls({**EXTRA_DEFAULTS, **native.defaults, **native.values}, version)

    def changed(self, changes: Mapping[str, Any]) -> View:
        return View({**self.values, **changes}, self.version)

    @property
    def world(self) -> int:
        return (self.int(N_PER_NODE) or 1) * (self.int(NODES) or 1)

    @property
    def n(self) -> int:
        return self.int(N) or 1

    @property
    def rbs(self) -> int:
        return self.int(RBS) or 1

    def sp_key(self, role: str) -> str:
        """Ulysses key (renamed in 0.3.1); before 0.3.0 the critic worker used the actor's."""
        owner = role if self.since("0.3.0") else ACTOR
        return f"{owner}.ulysses_size" if self.since("0.3.1") else f"{owner}.ulysses_sequence_parallel_size"

    def sp(self, role: str = ACTOR) -> int:
        return self.int(self.sp_key(role)) or 1

    def dp(self, role: str = ACTOR) -> int:
        return max(self.world // self.sp(role), 1)

    def per_device(self, role: str = ACTOR) -> int:
        """global_batch_size_per_device in samples, with the band's floor formula (§1 history)."""
        samples, world, sp = (self.int(f"{role}.global_batch_size") or 1) * self.n, self.world, self.sp(role)
        if not self.since("0.3.1"):
            return samples // world * sp
        if not self.since("0.3.2"):
            return samples * sp // world
        return samples // max(world // sp, 1)

    def roles(self) -> list[str]:
        """The trained models: the critic too with GAE."""
        return [ACTOR, CRITIC] if self.get(ESTIMATOR) == "gae" else [ACTOR]

    def metrics(self) -> dict[str, int]:
        return {
            "prompts per step": self.rbs,
            "samples per prompt": self.n,
            "samples per step": self.rbs * self.n,
            "samples per optimizer step": (self.int(f"{ACTOR}.global_batch_size") or 0) * self.n,
            "GPUs": self.world,
        }


def _name(role: str) -> str:
    return role.rsplit(".", 1)[1]


# ---------------------------------------------------------------------------- rules
def rollout_batch(view: View) -> list[Finding]:
    """§3 driver (from 2025-03): a step's prompts must split into whole optimizer mini-batches."""
    found = []
    for role in view.roles() if view.since(MARCH) else []:
        gbs = view.int(f"{role}.global_batch_size") or 1
        if view.rbs % gbs:
            which = f"{_name(role)} " if view.since("0.3.0") else ""
            found.append(
                finding(
                    view,
                    "easyr1.rollout-batch-divisible",
                    "error",
                    f"Rollout batch size must be divisible by {which}global batch size.",
                    [RBS, f"{role}.global_batch_size"],
                )
            )
    return found


def experience_micro(view: View) -> list[Finding]:
    """§3 driver (0.3.0+): rollout_batch_size × n (global) against the per-device log-prob micro size."""
    found = []
    for role in view.roles() if view.since("0.3.0") else []:
        micro = view.int(f"{role}.micro_batch_size_per_device_for_experience")
        if micro and (view.rbs * view.n) % micro:
            found.append(
                finding(
                    view,
                    "easyr1.experience-micro-divisible",
                    "error",
                    f"Rollout batch size * rollout.n must be divisible by {_name(role)} micro batch size "
                    "for experience.",
                    [RBS, N, f"{role}.micro_batch_size_per_device_for_experience"],
                )
            )
    return found


def group_size(view: View) -> list[Finding]:
    """§3: GRPO/RLOO need groups of at least two (a driver ValueError from 0.3.0; earlier a group of one is
    scored against mean 0 and std 1, i.e. no baseline). grpo_passk asserts in its advantage function."""
    estimator = str(view.get(ESTIMATOR))
    if view.n > 1 or estimator not in ("grpo", "rloo", "grpo_passk"):
        return []
    keys = [ESTIMATOR, N]
    if estimator == "grpo_passk":
        return [finding(view, "easyr1.group-size-one", "error", "GRPO needs rollout.n > 1.", keys)]
    if view.since("0.3.0"):
        return [
            finding(
                view,
                "easyr1.group-size-one",
                "error",
                "GRPO and RLOO algorithm need `config.worker.rollout.n > 1`.",
                keys,
            )
        ]
    return [
        finding(
            view,
            "easyr1.group-size-one",
            "warning",
            f"algorithm.adv_estimator={estimator} with worker.rollout.n=1: each group holds one sample, scored "
            "against mean 0 (and std 1), so there is no group baseline",
            keys,
        )
    ]


def per_device(view: View) -> list[Finding]:
    """§3 fsdp_workers: the per-rank mini-batch (samples) must be non-zero, split into micro-batches (checked
    even with dynamic batching), and be one micro-batch when FSDP offloads to the CPU."""
    found = []
    for role in view.roles():
        name, size = _name(role), view.per_device(role)
        gbs, micro_key = f"{role}.global_batch_size", f"{role}.micro_batch_size_per_device_for_update"
        micro, offload = view.int(micro_key), f"{role}.fsdp.enable_cpu_offload"
        if size == 0:
            message = (
                f"{name} global batch size * ulysses size must be larger than num gpus."
                if view.since("0.3.0")
                else "Global batch size must be larger than num gpus."
                if view.since(MARCH)
                else "global_batch_size_per_device is 0: DataProto.split(0) fails in the first update"
            )
            found.append(
                finding(
                    view,
                    "easyr1.global-batch-too-small",
                    "error",
                    message,
                    [gbs, N, N_PER_NODE, NODES, view.sp_key(role)],
                )
            )
            continue
        if micro and size % micro:
            message = (
                f"{name} global batch size per device must be divisible by the micro batch size."
                if view.since("0.3.0")
                else "Global batch size per device must be divisible by the micro batch size."
                if view.since(MARCH)
                else f"AssertionError: assert global_batch_size_per_device "
                f"% micro_batch_size_per_device_for_update == 0 ({size} % {micro})"
            )
            found.append(finding(view, "easyr1.micro-batch-divisible", "error", message, [gbs, N, micro_key]))
        elif micro and view.since(MARCH) and view.flag(offload) and size != micro:
            message = (
                "cannot use FSDP's CPU offload when gradient accumulation is enabled."
                if view.since("0.3.0")
                else "Cannot use FSDP's CPU offload when gradient accumulation is enabled."
            )
            found.append(
                finding(
                    view,
                    "easyr1.cpu-offload-grad-accum",
                    "error",
                    f"{name} {message}" if view.since("0.3.0") else message,
                    [offload, micro_key, gbs],
                )
            )
    return found


def floor_division(view: View) -> list[Finding]:
    """§1: global_batch_size × n is floored over the DP ranks (a warning); from 0.3.2 ``DataProto.split``
    asserts that the rank's samples split into equal mini-batches."""
    size, dp, gbs = view.per_device(), view.dp(), view.int(f"{ACTOR}.global_batch_size") or 1
    samples, keys = gbs * view.n, [f"{ACTOR}.global_batch_size", N, N_PER_NODE, NODES]
    if size == 0 or size * dp == samples:
        return []
    found = [
        finding(
            view,
            "easyr1.mini-batch-floor-division",
            "warning",
            f"global_batch_size {gbs} prompts × n {view.n} = {samples} samples do not split evenly over {dp} "
            f"data-parallel ranks: EasyR1 floors it to {size} per rank, so an optimizer step uses "
            f"{size * dp} samples",
            keys,
        )
    ]
    per_rank = view.rbs * view.n // dp
    if view.since("0.3.2") and (view.rbs * view.n) % dp == 0 and per_rank % size:
        found.append(
            finding(
                view,
                "easyr1.equal-split",
                "error",
                f"only support equal split. Got size of DataProto {per_rank} and split {size}.",
                [RBS, *keys],
            )
        )
    return found


def rollout_tp(view: View) -> list[Finding]:
    """§3 _build_rollout: the vLLM TP groups must tile the colocated GPUs."""
    tp = view.int(TP) or 1
    if view.world % tp == 0:
        return []
    w = view.world
    message = (
        f"rollout world size {w} is not divisible by tp size {tp}."
        if view.since("0.3.1")
        else f"rollout world size: {w} is not divisible by tp size: {tp}"
        if view.since(MARCH)
        else f"rollout world_size: {w} is not divisible by tp_size: {tp}"
    )
    return [finding(view, "easyr1.rollout-tp-divisible", "error", message, [TP, N_PER_NODE, NODES])]


def equal_chunk(view: View) -> list[Finding]:
    """§3, EasyR1#44: generate_sequences chunks a round's prompts, the later calls the step's rbs × n samples,
    into W equal pieces."""
    mini = view.int(MINI_RBS) if view.since("0.3.1") else None
    round_prompts, round_key = (mini, MINI_RBS) if mini else (view.rbs, RBS)
    for size, keys in ((round_prompts, [round_key]), (view.rbs * view.n, [RBS, N])):
        if size % view.world:
            return [
                finding(
                    view,
                    "easyr1.equal-chunk",
                    "error",
                    f"only support equal chunk. Got size of DataProto {size} and chunk {view.world}.",
                    [*keys, N_PER_NODE, NODES],
                )
            ]
    return []


def batched_tokens(view: View) -> list[Finding]:
    """§3 vLLM rollout (from 2025-03): one sequence must fit in a scheduler batch."""
    tokens, width = view.int(MNBT) or 0, (view.int(PROMPT) or 0) + (view.int(RESPONSE) or 0)
    if not view.since(MARCH) or tokens >= width:
        return []
    return [
        finding(
            view,
            "easyr1.max-num-batched-tokens",
            "error",
            "max_num_batched_tokens should be greater than prompt_length + response_length.",
            [MNBT, PROMPT, RESPONSE],
        )
    ]


def make_batch_rounds(view: View) -> list[Finding]:
    """§3 _make_batch_data (0.3.1+): rounds of mini_rollout_batch_size prompts stop at max_try_make_batch;
    without filtering, fewer than rollout_batch_size prompts by then fails the first step."""
    mini, tries = view.int(MINI_RBS), view.int(MAX_TRY) or 0
    if (
        not view.since("0.3.1")
        or not mini
        or tries <= 0
        or view.flag("algorithm.online_filtering")
        or mini * tries >= view.rbs
    ):
        return []
    return [
        finding(
            view,
            "easyr1.too-few-rounds",
            "error",
            f"num_try_make_batch={tries} >= max_try_make_batch={tries}. Generated too many. Please check your data.",
            [MINI_RBS, MAX_TRY, RBS],
        )
    ]


def estimator(view: View) -> list[Finding]:
    """§3 driver: the advantage estimator must exist in the band."""
    name = str(view.get(ESTIMATOR))
    since = ESTIMATORS.get(name)
    if since is not None and view.since(since):
        return []
    message = f"Unknown advantage estimator: {name}." if view.since(MARCH) else "NotImplementedError"
    return [finding(view, "easyr1.unknown-estimator", "error", message, [ESTIMATOR])]


def reward_function(view: View) -> list[Finding]:
    """workers/reward/function.py (0.3.0+): the reward manager is built at start-up and raises without a
    reward file. A path that does not exist is dropped by RewardConfig.post_init ("... not found.") and then
    fails the same way, which a static check cannot see."""
    if not view.since("0.3.0"):
        return []
    key = "worker.reward.score_function" if not view.since("0.3.1") else "worker.reward.reward_function"
    value = str(view.get(key) or "")
    if value.rpartition(":")[0 if ":" in value else 2]:  # the file part (an empty one is dropped as missing)
        return []
    message = "Score function is not provided." if not view.since("0.3.1") else "Reward function is not provided."
    return [finding(view, "easyr1.reward-missing", "error", message, [key])]


def data_files(view: View) -> list[Finding]:
    """trainer/data_loader.py: both the training and the validation set are loaded at start-up (EasyR1
    always validates after the last step); an empty path makes datasets.load_dataset('') fail."""
    return [
        finding(
            view,
            "easyr1.data-missing",
            "error",
            f"{key} is empty: EasyR1 loads it at start-up (load_dataset fails on '')",
            [key],
        )
        for key in ("data.train_files", "data.val_files")
        if not view.get(key)
    ]


def resume_path(view: View) -> list[Finding]:
    """ray_trainer.py _load_checkpoint (from 2025-03): a resume path must name a global_step_N directory. From
    0.3.1, TrainerConfig.post_init (verl/trainer/config.py@v0.3.1) first drops a path that does not exist when the
    run starts ("Model checkpoint ... not found."): whether it does on the user's machine is not known here, so the
    finding only warns."""
    path = view.get("trainer.load_checkpoint_path")
    if not path or not view.since(MARCH) or "global_step_" in str(path).strip("/").rsplit("/", 1)[-1]:
        return []
    message = "`load_checkpoint_path` should end with `global_step_*`."
    if view.since("0.3.1"):
        message += (
            " (EasyR1 stops on it only if the path exists when the run starts: one that does not is dropped with "
            '"Model checkpoint ... not found." and the run starts without resuming)'
        )
    severity = "warning" if view.since("0.3.1") else "error"
    return [finding(view, "easyr1.resume-path", severity, message, ["trainer.load_checkpoint_path"])]


RULES: tuple[Callable[[View], list[Finding]], ...] = (
    rollout_batch,
    experience_micro,
    group_size,
    per_device,
    floor_division,
    rollout_tp,
    equal_chunk,
    batched_tokens,
    make_batch_rounds,
    estimator,
    reward_function,
    data_files,
    resume_path,
)


def detect(view: View) -> list[Finding]:
    return [f for rule in RULES for f in rule(view)]


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    view = View.of(native, version)
    found = detect(view)
    for item in found:
        item.suggestions = suggest(view, item, CANDIDATES[item.rule](view, item), detect, View.metrics)
    return found


# ---------------------------------------------------------------------------- suggestions
def _role(item: Finding) -> str:
    return CRITIC if any(k.startswith(CRITIC) for k in item.keys) else ACTOR


def _gpus_per_node(view: View, ok: Callable[[int], bool]) -> list[Changes]:
    """Other GPU counts per node that keep Ulysses groups whole."""
    nodes, sp = view.int(NODES) or 1, view.sp()
    return [{N_PER_NODE: g} for g in near(view.int(N_PER_NODE) or 1, ok, 2, limit=64) if g * nodes % sp == 0]


def _rollout_batch(view: View, item: Finding) -> Approaches:
    key = f"{_role(item)}.global_batch_size"
    gbs = view.int(key) or 1
    return [
        [{key: g} for g in nearest(divisors(view.rbs), gbs, 3)],
        [{RBS: r} for r in nearest_multiple(view.rbs, gbs)],
    ]


def _experience(view: View, item: Finding) -> Approaches:
    key = item.keys[-1]
    return [[{key: m} for m in nearest(divisors(view.rbs * view.n), view.int(key) or 1, 3)]]


def _group_size(view: View, item: Finding) -> Approaches:
    """A group of k: fewer prompts (keeps samples per step and per optimizer step), or k× the samples."""
    gbs_key, sizes = f"{ACTOR}.global_batch_size", (8, 4, 16, 5, 2)
    gbs = view.int(gbs_key) or 1
    return [
        [{N: k, RBS: view.rbs // k, gbs_key: gbs // k} for k in sizes if view.rbs % k == 0 and gbs % k == 0],
        [{N: k} for k in sizes],
    ]


def _per_device(view: View, item: Finding) -> Approaches:
    role = _role(item)
    gbs_key, micro_key = f"{role}.global_batch_size", f"{role}.micro_batch_size_per_device_for_update"
    size, micro = view.per_device(role), view.int(micro_key) or 1
    if item.rule == "easyr1.cpu-offload-grad-accum":
        return [[{micro_key: size}], [{f"{role}.fsdp.enable_cpu_offload": False}]]
    if item.rule == "easyr1.micro-batch-divisible":
        return [[{micro_key: m} for m in nearest(divisors(size), micro, 3)]]
    gbs, dp = view.int(gbs_key) or 1, view.dp(role)
    return [
        [{gbs_key: g} for g in near(gbs, lambda g: view.rbs % g == 0 and g * view.n >= dp, 3)],
        _gpus_per_node(view, lambda g: g * (view.int(NODES) or 1) <= gbs * view.n),
    ]


def _floor(view: View, item: Finding) -> Approaches:
    gbs_key, dp, n = f"{ACTOR}.global_batch_size", view.dp(), view.n
    gbs = view.int(gbs_key) or 1
    return [
        [{gbs_key: g} for g in near(gbs, lambda g: g * n % dp == 0 and view.rbs % g == 0, 3)],
        [{N: k} for k in near(n, lambda k: gbs * k % dp == 0, 2, low=min(n, 2))],
    ]


def _rollout_tp(view: View, item: Finding) -> Approaches:
    tp = view.int(TP) or 1
    return [[{TP: t} for t in nearest(divisors(view.world), tp, 3)], _gpus_per_node(view, lambda g: g % tp == 0)]


def _chunk(view: View, item: Finding) -> Approaches:
    world, nodes, gbs = view.world, view.int(NODES) or 1, view.int(f"{ACTOR}.global_batch_size") or 1
    if MINI_RBS in item.keys:
        mini = view.int(MINI_RBS) or 1
        return [
            [{MINI_RBS: m} for m in nearest_multiple(mini, world)],
            _gpus_per_node(view, lambda g: mini % (g * nodes) == 0),
        ]
    if N in item.keys:
        return [
            [{N: k} for k in near(view.n, lambda k: view.rbs * k % world == 0, 2, low=2)],
            [{RBS: r} for r in near(view.rbs, lambda r: r * view.n % world == 0 and r % gbs == 0, 2)],
        ]
    step = math.lcm(world, gbs)
    return [
        [{RBS: r} for r in nearest_multiple(view.rbs, step)],
        _gpus_per_node(view, lambda g: view.rbs % (g * nodes) == 0),
    ]


def _tokens(view: View, item: Finding) -> Approaches:
    width = (view.int(PROMPT) or 0) + (view.int(RESPONSE) or 0)
    return [[{MNBT: width}], [{MNBT: 1 << (width - 1).bit_length()}]]


def _rounds(view: View, item: Finding) -> Approaches:
    mini = view.int(MINI_RBS) or 1
    return [[{MAX_TRY: -(-view.rbs // mini)}], [{MINI_RBS: m} for m in nearest_multiple(view.rbs, view.world)]]


def _estimator(view: View, item: Finding) -> Approaches:
    known = [name for name, since in ESTIMATORS.items() if view.since(since)]
    guesses = difflib.get_close_matches(str(view.get(ESTIMATOR)), known, n=2, cutoff=0.4)
    return [[{ESTIMATOR: name}] for name in dict.fromkeys([*guesses, "grpo"])]


def _reward(view: View, item: Finding) -> Approaches:
    """EasyR1's own scorer files (run from its repository root)."""
    folder = "./examples/score_function" if not view.since("0.3.1") else "./examples/reward_function"
    return [[{item.keys[0]: f"{folder}/math.py:compute_score"}]]


def _no_change(view: View, item: Finding) -> Approaches:
    return []  # only the user knows the data set or the checkpoint


CANDIDATES: dict[str, Callable[[View, Finding], Approaches]] = {
    "easyr1.reward-missing": _reward,
    "easyr1.data-missing": _no_change,
    "easyr1.resume-path": _no_change,
    "easyr1.rollout-batch-divisible": _rollout_batch,
    "easyr1.experience-micro-divisible": _experience,
    "easyr1.group-size-one": _group_size,
    "easyr1.global-batch-too-small": _per_device,
    "easyr1.micro-batch-divisible": _per_device,
    "easyr1.cpu-offload-grad-accum": _per_device,
    "easyr1.mini-batch-floor-division": _floor,
    "easyr1.equal-split": _floor,
    "easyr1.rollout-tp-divisible": _rollout_tp,
    "easyr1.equal-chunk": _chunk,
    "easyr1.max-num-batched-tokens": _tokens,
    "easyr1.too-few-rounds": _rounds,
    "easyr1.unknown-estimator": _estimator,
}
