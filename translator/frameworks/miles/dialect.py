"""Miles (radixark/miles, slime's fork): its reader and writer, slime's with the differences of
docs/frameworks/miles.md.

The launch, the flags and the batch arithmetic are slime's (translator/frameworks/slime/dialect.py): Miles adds a
second training backend, ``--train-backend fsdp``, on which Megatron's parser is replaced by a plain argparse parser
over the ``FSDPArgs`` dataclass. There the data-parallel size is every actor GPU (no tensor or pipeline
parallelism; context parallelism refused), the optimizer defaults are the dataclass's (constant LR, no weight decay)
and nothing sets a global batch that neither ``--global-batch-size`` nor ``--num-steps-per-rollout`` gives.
"""

from __future__ import annotations

from typing import Any

from translator.dialects.base import fmt
from translator.frameworks.miles.tables import (
    CHANGES,
    DEFAULTS,
    ESTIMATORS,
    FSDP_DEFAULTS,
    FSDP_LIKE,
    MEGATRON_ONLY,
    VERSIONS,
)
from translator.frameworks.slime.dialect import SlimeDialect, SlimeReader, SlimeWriter
from translator.frameworks.slime.driver import Helper
from translator.notes import NoteList
from translator.plan import RunSpec


def backend_of(flags: dict[str, Any]) -> str:
    """The training backend a command selects (Miles' pre-parser reads --train-backend first)."""
    return str(flags.get("train-backend", "megatron"))


class MilesDialect(SlimeDialect):
    name = "miles"
    aliases = ("radixark/miles",)
    versions = VERSIONS
    changes = CHANGES
    plan_bands = ()
    label = "Miles"
    description = "Miles (slime's fork: ray job submit -- python3 train.py with --train-backend megatron or fsdp)"
    # Both parsers refuse an unknown flag (Megatron's parse_args without ignore_unknown_args, and the FSDP
    # parser's parse_args): rlconf has no Miles schema to tell one, so no key is reported as unknown.
    rejects_unknown_keys = True

    def helper(self) -> Helper:
        # Miles' command_utils.py@v0.1.0: ExecuteTrainConfig adds output_dir, and more hardware is listed
        return Helper(
            "Miles",
            "v0.1.0",
            "miles",
            {"cuda_core_dump": False, "extra_env_vars": "", "output_dir": "/root/shared_data"},
            {"H100": 8, "H200": 8, "B200": 8, "B300": 8, "GB200": 4, "GB300": 4, "MI350X": 8, "MI355X": 8},
            {"H100": "Hopper", "GB200": "Blackwell", "GB300": "Blackwell"},
        )

    def defaults(self, flags: dict[str, Any]) -> dict[str, Any]:
        return FSDP_DEFAULTS if backend_of(flags) == "fsdp" else DEFAULTS

    def reader(self, values: Any, version: str, spec: RunSpec, notes: NoteList, entry: str) -> MilesReader:
        return MilesReader(values, version, spec, notes, entry)

    def writer(self, spec: RunSpec, version: str, notes: NoteList) -> MilesWriter:
        return MilesWriter(spec, version, notes)


class MilesReader(SlimeReader):
    label = "Miles"
    steps_source = "miles/utils/arguments.py:3431-3439"

    @property
    def fsdp(self) -> bool:
        return self.spec.topology.training_backend == "fsdp"  # read by topology(), before the batch

    def megatron_sets_gbs(self) -> bool:
        # Megatron's validate_args runs on the Megatron backend only (miles/utils/arguments.py:2710-2711@v0.1.0).
        return not self.fsdp

    def no_global_batch(self) -> str:
        return (
            "on the FSDP backend nothing sets one (Megatron's default does not run), and the LR scheduler divides "
            "by it: Miles stops with a TypeError (miles/backends/fsdp_utils/lr_scheduler.py:170@v0.1.0); the "
            "optimizer batch is unknown"
        )

    def data_parallel_text(self, world: Any) -> str:
        if self.fsdp:
            return (
                f"{fmt(world)} actor GPUs (--actor-num-nodes × --actor-num-gpus-per-node): FSDP is data parallel only"
            )
        return super().data_parallel_text(world)


class MilesWriter(SlimeWriter):
    label = "Miles"
    filter_path = "miles.rollout.filter_hub.dynamic_sampling_filters.check_reward_nonzero_std"

    def estimators(self) -> tuple[str, ...]:
        return ESTIMATORS

    def flags(self) -> dict[str, Any]:
        out = super().flags()
        if out.get("advantage-estimator") == "ppo" and "kl-coef" in out:
            # Miles refuses a reward KL with its critic (miles/utils/arguments.py:3217-3222@v0.1.0)
            self.notes.warning(
                "algorithm.not-expressible",
                f"a KL penalty in the reward ({out.pop('kl-coef')}) is refused by Miles' PPO (its critic never sees "
                "it); not written (--use-kl-loss would put KL in the loss instead, a different objective)",
                source_keys=["algorithm.kl_coef", "algorithm.kl_placement"],
                target_keys=["kl-coef"],
            )
        if self.entry == "train_async.py" and out.get("advantage-estimator") == "ppo":
            # Async PPO must say which policy's log-probs the ratio divides by (miles/utils/arguments.py:
            # 3591-3609@v0.1.0): the weights the rollout engines used are the usual PPO behaviour policy.
            out["keep-old-actor"] = True
            self.notes.info(
                "miles.async-keep-old-actor",
                "asynchronous PPO is written with --keep-old-actor (Miles refuses async PPO without a "
                "behaviour-policy correction; this one recomputes the ratio's denominator with the rollout's weights)",
                source_keys=["asynchrony.max_steps_ahead"],
                target_keys=["keep-old-actor"],
            )
        return out

    def backend(self) -> None:
        """--train-backend fsdp for a source trained data parallel only (FSDP, DeepSpeed, DDP) without a critic;
        Megatron otherwise (PPO's critic needs it, miles/utils/arguments.py:3205-3208@v0.1.0)."""
        s, t, out = self.spec, self.spec.topology, self.out
        parallel = (out.get(k, 1) for k in ("tensor-model-parallel-size", "pipeline-model-parallel-size"))
        data_parallel_only = all(size == 1 for size in parallel) and out.get("context-parallel-size", 1) == 1
        critic = bool(s.critic.enabled) or s.algorithm.advantage_estimator == "gae"
        if (t.training_backend or "").startswith(FSDP_LIKE) and data_parallel_only and not critic:
            out["train-backend"] = "fsdp"
            for key in (*MEGATRON_ONLY, "context-parallel-size"):
                out.pop(key, None)  # the FSDP parser has no TP/PP flags; CP stays its default 1
        else:
            out["train-backend"] = "megatron"
