"""SkyRL's own start-up rules: validate_batch_sizes and validate_cfg (skyrl/train/utils/utils.py:58-311@skyrl-v0.3.0;
docs/frameworks/skyrl.md §5), with SkyRL's message text. A bare ``assert`` has no text: its finding says which
assertion stops the run.

Units: train_batch_size and the mini-batches count prompts (× n_samples_per_prompt inside); micro-batches count
samples per data-parallel rank. Suggestions are kept only when the changed config breaks no rule
(:func:`translator.checks.findings.suggest`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from translator.checks.findings import (
    Approaches,
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
from translator.frameworks.skyrl import tables as T
from translator.plan import RunSpec

CRITIC_SP = "trainer.critic.sequence_parallel_size"
REF_SP = "trainer.ref.sequence_parallel_size"
REF_MEGATRON = "trainer.ref.megatron_config."


class View(SettingsAccess):
    """SkyRL's settings as one flat mapping in the skyrl package's spelling (config over the release's defaults)."""

    @classmethod
    def of(cls, native: Values, version: str) -> View:
        merged = {**native.defaults, **native.values}
        return cls({_new(k): v for k, v in merged.items()}, version)

    def changed(self, changes: Mapping[str, Any]) -> View:
        return View({**self.values, **changes}, self.version)

    def since(self, version: str) -> bool:
        return T.since(self.version, version)

    def size(self, key: str) -> int:
        return self.int(key) or 1

    @property
    def megatron(self) -> bool:
        return self.get(T.STRATEGY) == "megatron"

    @property
    def world(self) -> int:
        return self.size(T.NODES) * self.size(T.GPUS)

    def split(self, role: str = "policy") -> int:
        if self.megatron:
            prefix = T.MEGATRON if role == "policy" else REF_MEGATRON
            parts = ("pipeline_model_parallel_size", "context_parallel_size", "tensor_model_parallel_size")
            return math.prod(self.size(prefix + p) for p in parts)
        return self.size(T.SP if role == "policy" else REF_SP if role == "ref" else CRITIC_SP)

    def dp(self) -> int:
        return self.world // self.split()

    def uses_ref(self) -> bool:
        return self.flag(T.KL_LOSS) or self.flag(T.KL_REWARD)

    def metrics(self) -> dict[str, int]:
        train, n = self.size(T.TBS), self.size(T.N)
        return {
            "prompts per step": train,
            "samples per prompt": n,
            "samples per step": train * n,
            "samples per optimizer step": self.size(T.MINI) * n,
            "GPUs": self.world,
        }


def _new(key: str) -> str:
    return next((new for new, old in T.OLD_NAMES.items() if old == key), key)


def _mega(key: str) -> str:
    return T.MEGATRON + key


# ---------------------------------------------------------------------------- rules
def batch_rules(view: View) -> list[Finding]:
    """validate_batch_sizes (utils.py:58-190@skyrl-v0.3.0), in its order: the first failing assertion stops it."""
    train, n, mini, micro = (view.int(k) for k in (T.TBS, T.N, T.MINI, T.MICRO))
    if None in (train, n, mini, micro):
        return []
    assert train is not None and n is not None and mini is not None and micro is not None
    if mini <= 0:
        return [
            finding(view, "skyrl.mini-positive", "error", "policy_mini_batch_size must be greater than 0", [T.MINI])
        ]
    if train < mini:
        return [
            finding(
                view,
                "skyrl.train-ge-mini",
                "error",
                f"AssertionError (no message): assert cfg.trainer.train_batch_size >= "
                f"cfg.trainer.policy_mini_batch_size ({train} < {mini})",
                [T.TBS, T.MINI],
            )
        ]
    if micro <= 0:
        return [
            finding(
                view,
                "skyrl.micro-positive",
                "error",
                "micro_train_batch_size_per_gpu must be greater than 0",
                [T.MICRO],
            )
        ]
    world = view.world
    if view.megatron and view.since("skyrl_train-0.2.0"):
        split = view.split()
        if world % split:
            return [
                finding(
                    view,
                    "skyrl.megatron-world",
                    "error",
                    f"policy_world_size {world} should be divisible by (pp * cp * tp) {split}. This ensures that "
                    "the data parallel size is an integer.",
                    [T.GPUS, _mega("tensor_model_parallel_size"), _mega("pipeline_model_parallel_size")],
                )
            ]
    dp = view.dp()
    if dp <= 0:
        return []
    if train % mini:
        return [
            finding(
                view,
                "skyrl.train-divisible-by-mini",
                "error",
                f"train_batch_size {train} should be divisible by policy_mini_batch_size {mini}",
                [T.TBS, T.MINI],
            )
        ]
    per_gpu = mini * n // dp
    if per_gpu <= 0:
        return [
            finding(
                view,
                "skyrl.mini-per-gpu-positive",
                "error",
                f"Invalid policy_mini_batch_size_per_gpu: {per_gpu}. mini_batch_size={mini}, "
                f"n_samples_per_prompt={n}, dp_size={dp}",
                [T.MINI, T.N, T.GPUS],
            )
        ]
    if per_gpu % micro:
        return [
            finding(
                view,
                "skyrl.mini-per-gpu-divisible-by-micro",
                "error",
                f"normalized policy_mini_batch_size_per_gpu {per_gpu} should be divisible by "
                f"micro_train_batch_size_per_gpu {micro}",
                [T.MICRO, T.MINI, T.N, T.GPUS],
            )
        ]
    train_per_gpu = train * n // dp
    if train_per_gpu % per_gpu:
        return [
            finding(
                view,
                "skyrl.train-per-gpu-divisible-by-mini-per-gpu",
                "error",
                "normalized policy_train_batch_size_per_gpu (train_batch_size * n_samples_per_prompt // "
                f"policy_dp_size) {train_per_gpu} should be divisible by policy_mini_batch_size_per_gpu "
                f"(policy_mini_batch_size * n_samples_per_prompt // policy_dp_size) {per_gpu}",
                [T.TBS, T.MINI, T.N, T.GPUS],
            )
        ]
    if view.since("skyrl_train-0.2.0") and view.uses_ref():
        ref_world = view.size(T.REF_NODES) * view.size(T.REF_GPUS)
        ref_dp = ref_world // view.split("ref")
        lcm = math.lcm(dp, ref_dp) if ref_dp > 0 else dp
        if train * n < lcm:
            return [
                finding(
                    view,
                    "skyrl.lcm-dp",
                    "error",
                    f"train_batch_size * n_samples_per_prompt ({train * n}) should be larger than or equal to the "
                    f"least common multiple of the data parallel sizes of the enabled models: policy_dp_size={dp}, "
                    f"ref_dp_size={ref_dp}, lcm_dp_size={lcm}",
                    [T.TBS, T.N, T.GPUS, T.REF_GPUS],
                )
            ]
    return []


def cfg_rules(view: View) -> list[Finding]:
    """The rest of validate_cfg that concerns the plan's inputs (utils.py:261-445@skyrl-v0.3.0)."""
    found = []
    if view.since("0.3.0") and view.get(T.MAX_STEPS) is not None and (view.int(T.MAX_STEPS) or 0) <= 0:
        found.append(
            finding(
                view,
                "skyrl.max-training-steps",
                "error",
                f"max_training_steps must be > 0, got {view.get(T.MAX_STEPS)}",
                [T.MAX_STEPS],
            )
        )
    if view.get(T.ESTIMATOR) == "gae" and not view.get(T.CRITIC_MODEL):
        found.append(
            finding(
                view,
                "skyrl.gae-needs-critic",
                "error",
                "`trainer.critic.model.path` should be provided for PPO training, got `None`",
                [T.ESTIMATOR, T.CRITIC_MODEL],
            )
        )
    if view.flag(T.KL_REWARD) and view.flag(T.KL_LOSS):
        found.append(
            finding(
                view,
                "skyrl.kl-exclusive",
                "error",
                "use_kl_in_reward and use_kl_loss should be mutually exclusive",
                [T.KL_REWARD, T.KL_LOSS],
            )
        )
    if view.since("skyrl_train-0.4.0") and view.flag(T.COLOCATE):
        rollout = math.prod(view.size(k) for k in (T.ENGINES, T.ENGINE_TP, T.ENGINE_PP, T.ENGINE_DP))
        if view.world != rollout:
            found.append(
                finding(
                    view,
                    "skyrl.colocate-all-gpus",
                    "error",
                    f"num_policy_gpus ({view.world}) and num_rollout_gpus ({rollout}) must be the same when "
                    "colocating all models",
                    [T.GPUS, T.ENGINES, T.ENGINE_TP],
                )
            )
    return found


def plus_rule(view: View) -> list[Finding]:
    """from_cli_overrides refuses '+key' (config.py:1241-1247@skyrl-v0.3.0); the Hydra app appends the key."""
    if view.version in T.OLD_ERA:
        return []
    return [
        finding(
            view,
            "skyrl.plus-prefix",
            "error",
            f"The '+' prefix for adding new config fields is not supported: '{key}={view.get(key)}'. To add "
            "custom config fields, subclass the relevant config dataclass.",
            [key],
        )
        for key, value in view.values.items()
        if key.startswith("+") and value is not None  # None: the suggested removal
    ]


def detect(view: View) -> list[Finding]:
    return plus_rule(view) + batch_rules(view) + cfg_rules(view)


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    view = View.of(native, version)
    found = detect(view)
    for item in found:
        item.suggestions = suggest(view, item, _candidates(view, item), detect, View.metrics)
    return found


# ---------------------------------------------------------------------------- suggestions
def _candidates(view: View, item: Finding) -> Approaches:
    train, n, mini, micro = (view.size(k) for k in (T.TBS, T.N, T.MINI, T.MICRO))
    dp = max(view.dp(), 1)
    rule = item.rule.rpartition(".")[2]
    if rule in ("train-ge-mini", "train-divisible-by-mini", "mini-positive"):
        return [
            [{T.MINI: m} for m in nearest(divisors(train), mini, 3)],
            [{T.TBS: t} for t in nearest_multiple(train, mini)],
        ]
    if rule in ("mini-per-gpu-divisible-by-micro", "micro-positive"):
        per_gpu = mini * n // dp
        return [
            [{T.MICRO: m} for m in nearest(divisors(per_gpu), micro, 3)] if per_gpu > 0 else [],
            [{T.MINI: m} for m in near(mini, lambda m: (m * n // dp) % micro == 0 and train % m == 0, 2)],
        ]
    if rule in ("train-per-gpu-divisible-by-mini-per-gpu", "mini-per-gpu-positive", "lcm-dp"):
        per_node = view.size(T.GPUS)
        return [
            [{T.GPUS: g, T.REF_GPUS: g} for g in near(per_node, lambda g: g > 0, 6, limit=16)],
            [{T.MINI: m} for m in near(mini, lambda m: train % m == 0, 3)],
            [{T.N: k} for k in near(n, lambda k: True, 3, low=1)],
        ]
    if rule == "megatron-world":
        nodes, engine_gpus = view.size(T.NODES), view.size(T.ENGINE_TP) * view.size(T.ENGINE_PP)
        return [
            [
                {T.GPUS: g, T.REF_GPUS: g, T.ENGINES: g * nodes // engine_gpus}
                for g in near(view.size(T.GPUS), lambda g: g * nodes % view.split() == 0, 2, limit=64)
                if g * nodes % engine_gpus == 0
            ]
        ]
    if rule == "colocate-all-gpus":
        tp = view.size(T.ENGINE_TP) * view.size(T.ENGINE_PP) * view.size(T.ENGINE_DP)
        fixes = [{T.ENGINES: view.world // tp}] if view.world % tp == 0 else []
        return [fixes, [{T.ENGINES: view.world, T.ENGINE_TP: 1}], [{T.COLOCATE: False}]]
    if rule == "kl-exclusive":
        return [[{T.KL_REWARD: False}], [{T.KL_LOSS: False}]]
    if rule == "gae-needs-critic":
        model = view.get(T.MODEL)
        return [[{T.CRITIC_MODEL: model}] if model else [], [{T.ESTIMATOR: "grpo"}]]
    if rule == "max-training-steps":
        return [[{T.MAX_STEPS: None}]]
    if rule == "plus-prefix":
        key = item.keys[0]
        return [[{key: None}]]
    return []
