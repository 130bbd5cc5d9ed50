"""NeMo-RL's start-up and first-step checks, in its own words (docs/frameworks/nemo-rl.md §5; the table is
docs/frameworks/data/nemo-rl.yaml ``checks``). Each rule reads the merged config (the release's base recipe under
the user's keys) and returns a finding with NeMo-RL's message; suggestions are searched by re-running the rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from translator.checks.findings import (
    Approaches,
    Finding,
    SettingsAccess,
    divisors,
    finding,
    near,
    nearest_multiple,
    needs_world_size,
    suggest,
)
from translator.dialects.base import Values
from translator.frameworks.nemo_rl.tables import CHECK_SINCE, IGNORE_TP_CHECK
from translator.plan import RunSpec
from translator.records import record

P, N = "grpo.num_prompts_per_step", "grpo.num_generations_per_prompt"
PER_DATALOADER = "data.num_prompts_per_dataloader"
GBS, MBS, LPBS = "policy.train_global_batch_size", "policy.train_micro_batch_size", "policy.logprob_batch_size"
NODES, GPN = "cluster.num_nodes", "cluster.gpus_per_node"
COLOCATED = "policy.generation.colocated.enabled"
GEN_GPN, GEN_NODES = (
    "policy.generation.colocated.resources.gpus_per_node",
    "policy.generation.colocated.resources.num_nodes",
)
# from 0.6.0 a reward model environment the data uses (extract_necessary_env_names: the env_name of data.train,
# validation or default, nemo_rl/data/datasets/utils.py:196-216@v0.7.0) takes env.reward_model.resources
RM_USED_BY = ("data.train.env_name", "data.validation.env_name", "data.default.env_name")
RM_NODES, RM_GPN = "env.reward_model.resources.num_nodes", "env.reward_model.resources.gpus_per_node"
RM_SINCE = "0.6.0"
MEGATRON = "policy.megatron_cfg.enabled"
ASYNC = "grpo.async_grpo.enabled"
FORCE = "loss_fn.force_on_policy_ratio"


class View(SettingsAccess):
    """The merged settings, the launch's environment variables NeMo-RL reads, and what NeMo-RL derives from
    them (the training world, DP)."""

    def __init__(self, values: Mapping[str, Any], version: str, environment: Mapping[str, str]) -> None:
        super().__init__(values, version)
        self.environment = dict(environment)

    @classmethod
    def of(cls, native: Values, version: str) -> View:
        return cls({**native.defaults, **native.values}, version, native.environment)

    def changed(self, changes: Mapping[str, Any]) -> View:
        return View({**self.values, **changes}, self.version, self.environment)

    def parallel(self) -> tuple[str, str, str | None]:
        """The TP, CP and PP keys of the backend in use."""
        if self.flag(MEGATRON):
            m = "policy.megatron_cfg."
            return m + "tensor_model_parallel_size", m + "context_parallel_size", m + "pipeline_model_parallel_size"
        return "policy.dtensor_cfg.tensor_parallel_size", "policy.dtensor_cfg.context_parallel_size", None

    def model_parallel(self) -> tuple[int, int, int]:
        tp, cp, pp = self.parallel()
        return self.int(tp) or 1, self.int(cp) or 1, (self.int(pp) or 1) if pp else 1

    def train_world(self) -> int | None:
        """grpo.py:525-664@v0.7.0: the GPUs left for training (None: unknown or rejected by a placement check)."""
        placed = placed_gpus(self.get, self.flag(COLOCATED), self.since(RM_SINCE))
        return placed.training if placed else None

    def dp(self) -> int | None:
        world = self.train_world()
        tp, cp, pp = self.model_parallel()
        return world // (tp * cp * pp) if world and world % (tp * cp * pp) == 0 and world >= tp * cp * pp else None

    def metrics(self) -> dict[str, int]:
        p, n = self.int(P) or 0, self.int(N) or 0
        return {
            "prompts per step": p,
            "samples per prompt": n,
            "samples per step": p * n,
            "samples per optimizer step": self.int(GBS) or 0,
            "GPUs": (self.int(NODES) or 0) * (self.int(GPN) or 0),
        }


def _since(view: View, rule: str) -> bool:
    return view.since(CHECK_SINCE[rule])


def world(view: View) -> list[Finding]:
    """lm_policy.py:196-211@v0.7.0: the training world against PP × CP × TP."""
    w = view.train_world()
    if w is None or not _since(view, "world-indivisible"):
        return []
    tp, cp, pp = view.model_parallel()
    m = tp * cp * pp
    keys = [NODES, GPN, *(k for k in view.parallel() if k)]
    if w < m:
        return [
            finding(
                view,
                "nemo-rl.world-too-small",
                "error",
                f"World size ({w}) is insufficient for the parallelism configuration. Required minimum world size: "
                f"PP({pp}) * CP({cp}) * TP({tp}) = {m}. This would result in DP = {w}/{m} = {w / m:.3f}, but DP "
                "must be ≥ 1. Please either increase the number of GPUs/nodes or reduce the parallelism parameters.",
                keys,
            )
        ]
    if w % m:
        return [
            finding(
                view,
                "nemo-rl.world-indivisible",
                "error",
                f"World size ({w}) must be divisible by PP * CP * TP ({m}). The data parallel size (DP = world_size "
                f"/ (PP * CP * TP)) must be a positive integer. Current DP would be {w}/{m} = {w / m:.6f}, which is "
                "not an integer. Please adjust your cluster size or parallelism parameters.",
                keys,
            )
        ]
    return []


def tp_accuracy(view: View) -> list[Finding]:
    """lm_policy.py:178-194@v0.7.0 (the first line of its message). The launch's NRL_IGNORE_TP_ACCURACY_CHECK
    skips it (os.environ.get, any non-empty value): then the finding only warns that the run goes on."""
    tp, _, _ = view.model_parallel()
    if not _since(view, "tp4-micro-equals-logprob") or tp < 4 or view.flag(FORCE):
        return []
    if view.int(MBS) == view.int(LPBS):
        return []
    message = "There is a known batch-variant accuracy issue with TP>=4 for both DTensor and Megatron backend."
    ignored = view.environment.get(IGNORE_TP_CHECK)
    if ignored:
        message += f" ({IGNORE_TP_CHECK}={ignored} set by the launch: NeMo-RL skips the check)"
    severity = "warning" if ignored else "error"
    return [finding(view, "nemo-rl.tp4-micro-equals-logprob", severity, message, [MBS, LPBS, view.parallel()[0]])]


def force_on_policy(view: View) -> list[Finding]:
    """grpo.py:427-436@v0.7.0."""
    if not _since(view, "force-on-policy") or not view.flag(FORCE):
        return []
    if view.int(GBS) == (view.int(P) or 0) * (view.int(N) or 0):
        return []
    return [
        finding(
            view,
            "nemo-rl.force-on-policy",
            "error",
            "force_on_policy_ratio requires train_global_batch_size == num_prompts_per_step * "
            "num_generations_per_prompt",
            [FORCE, GBS, P, N],
        )
    ]


def batch_multiplier(view: View) -> list[Finding]:
    """grpo.py:342-345@v0.7.0."""
    if not _since(view, "batch-multiplier") or view.flag("grpo.use_dynamic_sampling"):
        return []
    value = view.get("grpo.batch_multiplier")
    if value in (None, 1):
        return []
    return [
        finding(
            view,
            "nemo-rl.batch-multiplier",
            "error",
            "batch_multiplier>1 can only be used if use_dynamic_sampling=True",
            ["grpo.batch_multiplier", "grpo.use_dynamic_sampling"],
        )
    ]


def prompts_per_dataloader(view: View) -> list[Finding]:
    """grpo.py:281-302@v0.6.0 (332-353@v0.7.0): with several dataloaders a step gathers num_prompts_per_step prompts
    in draws of num_prompts_per_dataloader (both × batch_multiplier under dynamic sampling)."""
    if not _since(view, "prompts-per-dataloader") or not view.flag("data.use_multiple_dataloader"):
        return []
    prompts, per_draw = view.int(P), view.int(PER_DATALOADER)
    if prompts is None or not per_draw:
        return []
    multiplier = view.get("grpo.batch_multiplier") if view.flag("grpo.use_dynamic_sampling") else 1
    if not isinstance(multiplier, (int, float)) or isinstance(multiplier, bool):
        return []
    step, draw = int(prompts * multiplier), int(per_draw * multiplier)
    if draw and step % draw == 0:
        return []
    return [
        finding(
            view,
            "nemo-rl.prompts-per-dataloader",
            "error",
            f"Expected num_prompts_per_step to be a multiple of num_prompts_per_dataloader, but got {step} and {draw}.",
            [P, PER_DATALOADER, "data.use_multiple_dataloader"],
        )
    ]


@record(frozen=True)
class Placement:
    """How grpo.py's setup splits the cluster's GPUs: training, generation (0 when colocated), and the reward
    model environment's (nodes, GPUs per node; 0 when the data uses none)."""

    training: int
    generation: int
    reward_nodes: int
    reward_gpus_per_node: int


def reward_model_resources(get: Callable[[str], Any], since: bool) -> tuple[int, int] | None:
    """(nodes, GPUs per node) the reward model environment takes (grpo.py:525-531@v0.7.0, from 0.6.0: ``since``);
    (0, 0) when the data uses none; None when a count it takes is not a number."""
    if not since or "reward_model" not in (get(key) for key in RM_USED_BY):
        return 0, 0
    nodes, gpus = get(RM_NODES), get(RM_GPN)
    return (nodes, gpus) if isinstance(nodes, int) and isinstance(gpus, int) else None


def placed_gpus(get: Callable[[str], Any], colocated: bool, since_reward_model: bool) -> Placement | None:
    """grpo.py:525-664@v0.7.0 setup(): the GPUs left for training once generation (when not colocated) and a reward
    model environment have theirs. On one node the reward model shares it; on more it takes whole nodes, and the
    policy's are the rest. None when a count is not a number or NeMo-RL's placement checks reject the split."""
    nodes, gpn = get(NODES), get(GPN)
    reward = reward_model_resources(get, since_reward_model)
    if not isinstance(nodes, int) or not isinstance(gpn, int) or reward is None:
        return None
    rm_nodes, rm_gpn = reward
    policy_nodes = nodes if nodes == 1 else nodes - rm_nodes
    if policy_nodes <= 0:
        return None
    if colocated:
        train, rollout = (gpn - rm_gpn if nodes == 1 else policy_nodes * gpn), 0
    elif policy_nodes == 1:
        gen = get(GEN_GPN)
        if not isinstance(gen, int) or gen <= 0:
            return None
        train, rollout = gpn - gen - (rm_gpn if nodes == 1 else 0), gen
    else:
        gen_nodes = get(GEN_NODES)
        if not isinstance(gen_nodes, int) or not 0 < gen_nodes < policy_nodes:
            return None
        train, rollout = (policy_nodes - gen_nodes) * gpn, gen_nodes * gpn
    return Placement(train, rollout, rm_nodes, rm_gpn) if train > 0 else None


def placement(view: View) -> list[Finding]:
    """grpo.py:614-644@v0.7.0: one node, generation not colocated."""
    if view.flag(COLOCATED) or view.int(NODES) != 1 or view.int(GPN) is None:
        return []
    gen = view.get(GEN_GPN)
    if gen is None or (isinstance(gen, int) and gen <= 0):
        return [
            finding(
                view,
                "nemo-rl.non-colocated-needs-gpus",
                "error",
                f"policy.generation.colocated.resources.gpus_per_node must be explicitly set to a value > 0 when "
                f"policy_nodes = 1 and inference is non-colocated, but got {gen}.",
                [GEN_GPN, COLOCATED],
            )
        ]
    gpn = view.int(GPN) or 0
    reward = reward_model_resources(view.get, view.since(RM_SINCE))
    rm = reward[1] if reward else 0
    if isinstance(gen, int) and gpn - gen - rm <= 0:
        return [
            finding(
                view,
                "nemo-rl.no-gpu-left-for-training",
                "error",
                f"No enough GPUs for training, train_gpus_per_node:{gpn - gen - rm} = cluster_config['gpus_per_node']:"
                f"{gpn} - inference_gpus_per_node:{gen}" + (f" - rm_gpus_per_node:{rm}" if rm else ""),
                [GPN, GEN_GPN, *([RM_GPN] if rm else [])],
            )
        ]
    return []


def async_colocated(view: View) -> list[Finding]:
    """grpo.py:3421-3423@v0.7.0."""
    if not _since(view, "async-not-colocated") or not view.flag(ASYNC) or not view.flag(COLOCATED):
        return []
    return [
        finding(
            view,
            "nemo-rl.async-not-colocated",
            "error",
            "Colocated inference is not supported for async GRPO. Please use non-colocated inference.",
            [ASYNC, COLOCATED],
        )
    ]


def shards(view: View) -> list[Finding]:
    """batched_data_dict.py:395-401@v0.7.0 (the first training call) and grpo.py:3747-3750 (async)."""
    samples, gbs = (view.int(P) or 0) * (view.int(N) or 0), view.int(GBS) or 1
    found = []
    if samples % gbs:
        found.append(
            finding(
                view,
                "nemo-rl.step-multiple-of-gbs",
                "error",
                f"Total batch size ({samples}) is not a multiple of batch_size ({gbs})",
                [P, N, GBS],
            )
        )
    dp = view.dp()
    if dp is None:
        return found
    if gbs % dp:
        found.append(
            finding(
                view,
                "nemo-rl.gbs-multiple-of-dp",
                "error",
                f"Batch size ({gbs}) is not a multiple of shards ({dp})",
                [GBS, NODES, GPN],
            )
        )
    if _since(view, "async-dp") and view.flag(ASYNC) and samples % dp:
        found.append(
            finding(
                view,
                "nemo-rl.async-dp",
                "error",
                f"Configuration error: (num_prompts_per_step * num_generations_per_prompt) = {samples} must be "
                f"divisible by data_parallel size {dp}.",
                [P, N, NODES, GPN],
            )
        )
    return found


RULES: tuple[Callable[[View], list[Finding]], ...] = (
    world,
    tp_accuracy,
    force_on_policy,
    batch_multiplier,
    prompts_per_dataloader,
    placement,
    async_colocated,
    shards,
)


def detect(view: View) -> list[Finding]:
    return [f for rule in RULES for f in rule(view)]


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    view = View.of(native, version)
    found: list[Finding] = detect(view)
    for item in found:
        item.suggestions = suggest(view, item, _candidates(view, item), detect, View.metrics)
    if any(k in native.unknown for k in (NODES, GPN)):
        found.append(needs_world_size("nemo-rl.gbs-multiple-of-dp"))
    return found


def _candidates(view: View, item: Finding) -> Approaches:
    """Ways to fix a finding, nearest first: change the batch, the GPUs, or the switch the rule names."""
    gpn, gbs = view.int(GPN) or 1, view.int(GBS) or 1
    samples = (view.int(P) or 0) * (view.int(N) or 0)
    tp_key, _, _ = view.parallel()
    tp, cp, pp = view.model_parallel()
    m = tp * cp * pp
    rule = item.rule.partition(".")[2]
    if rule in ("world-too-small", "world-indivisible"):
        world = view.train_world() or gpn
        spare = gpn - world
        return [
            [{GPN: g} for g in near(gpn, lambda g: (g - spare) >= m and (g - spare) % m == 0)],
            [{tp_key: t} for t in sorted(divisors(world), key=lambda t: abs(t - tp)) if t != tp][:3],
        ]
    if rule == "tp4-micro-equals-logprob":
        return [[{LPBS: view.int(MBS)}], [{MBS: view.int(LPBS)}]]
    if rule == "force-on-policy":
        return [[{GBS: samples}], [{FORCE: False}]]
    if rule == "prompts-per-dataloader":
        per_draw = view.int(PER_DATALOADER) or 1
        return [
            [{P: p} for p in nearest_multiple(view.int(P) or 1, per_draw)],
            [{"data.use_multiple_dataloader": False}],
        ]
    if rule == "batch-multiplier":
        return [[{"grpo.use_dynamic_sampling": True}], [{"grpo.batch_multiplier": 1}]]
    if rule == "non-colocated-needs-gpus":
        return [[{GEN_GPN: g} for g in range(1, gpn)][:3], [{COLOCATED: True}]]
    if rule == "no-gpu-left-for-training":
        return [[{GEN_GPN: g} for g in range(gpn - 1, 0, -1)][:3], [{COLOCATED: True}]]
    if rule == "async-not-colocated":
        return [[{COLOCATED: False, GEN_GPN: g} for g in range(1, gpn)][:3], [{ASYNC: False}]]
    dp = view.dp() or 1
    spare = gpn - (view.train_world() or gpn)  # GPUs of a node kept for generation

    def divides(g: int) -> bool:
        train = g - spare
        return train >= m and train % m == 0 and gbs % (train // m) == 0

    ways = [
        [{GBS: g} for g in sorted(divisors(samples), key=lambda g: abs(g - gbs)) if g % dp == 0][:3],
        [{P: p} for p in nearest_multiple(view.int(P) or 1, max(gbs // max(view.int(N) or 1, 1), 1))],
        [{GPN: g} for g in near(gpn, divides)],
    ]
    if spare:
        ways.append([{GEN_GPN: g} for g in range(1, gpn) if divides(gpn - g + spare)][:3])
    return ways
