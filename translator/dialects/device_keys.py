"""Keys that place devices, which the release does not have and the reader did not read.

A fork adds a parallelism of its own (FSDP context parallelism beside the release's Ulysses sequence parallelism)
or reserves GPUs for a model of its own (an LLM judge with ``resources.gpus_per_node``): the project's code then
divides or takes the devices the reader counted as the policy's, so the data-parallel size it derived from the
release's keys may be wrong. Such a key, set to a value that divides (a parallel size above 1 in the policy's own
training section: a generation engine's, a teacher's or a judge's parallelism is theirs) or, where the policy
trains on the GPUs other roles leave (``Dialect.gpus_taken_by``: a framework's environment ``resources``), takes (a
GPU or node count above 0), in a section that is not switched off, makes the data-parallel size unknown, and with it the
per-rank count (micro-batch or accumulation) derived from it. Where each role states its own GPUs (a trainer pool
and a rollout pool), another role's count takes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from translator.dialects.base import Reading
from translator.plan import Derivation

# A size of a parallelism (context_parallel_size, ulysses_sequence_parallel_size, cp_size)
_DIVIDES = re.compile(r"(?:^|_)(?:parallel(?:ism)?_size|[cdeptu]p_size|(?:context|sequence|expert)_parallel)$")
# Where a parallel size divides the policy's GPUs: a section of the policy's training (its segments name the policy
# or actor, none another model or an engine: a generation engine's or a teacher's parallelism is theirs)
_POLICY_WORDS = ("policy", "actor")
_OTHER_WORDS = (
    "generation", "rollout", "inference", "vllm", "sglang", "trtllm", "ref", "critic", "reward", "judge", "teacher",
    "env",
)  # fmt: skip
# The per-rank counts computed from the data-parallel size (samples per optimizer step is global everywhere the
# rule applies: a config key of its own, not rank arithmetic)
_DERIVED_FROM_WORLD = ("grad_accum_steps", "micro_batch_per_device")


def _switched_off(key: str, values: Mapping[str, Any]) -> bool:
    """Whether a section holding ``key`` has ``enabled: false`` (or ``enable``)."""
    parts = key.split(".")
    for depth in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:depth])
        if any(values.get(f"{prefix}.{switch}") is False for switch in ("enabled", "enable")):
            return True
    return False


def _places_devices(key: str, value: Any, taken_by: str | None) -> bool:
    """Whether ``key`` = ``value`` divides the policy's GPUs (a parallel size above 1 in the policy's training
    section) or takes some (a GPU or node count above 0 of a key ``taken_by`` matches)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    segments = key.split(".")
    leaf, sections = segments[-1], [s.lower() for s in segments[:-1]]
    own = any(w in s for s in sections for w in _POLICY_WORDS) and not any(
        w in s for s in sections for w in _OTHER_WORDS
    )
    divides = own and bool(_DIVIDES.search(leaf)) and value > 1
    takes = taken_by is not None and re.fullmatch(taken_by, key) is not None and value > 0
    return divides or takes


def unmodelled_device_keys(reading: Reading, taken_by: str | None) -> list[str]:
    """The launch's keys that place devices (module doc) and that no release of the framework declares (or its
    version declares only as part of a free-form section), which the reader did not read."""
    from translator import native_schemas

    native, spec = reading.native, reading.spec
    if native is None or not spec.version:
        return []
    found = []
    for key, value in native.values.items():
        bare = key.lstrip("+~-")
        if key in native.used or bare in native.used or not _places_devices(bare, value, taken_by):
            continue
        if _switched_off(bare, native.values):
            continue
        if (
            native_schemas.in_no_release(spec.framework, bare)
            or native_schemas.declares(spec.framework, spec.version, bare) is False
        ):
            found.append(key)
    return found


def apply(reading: Reading, gpus_taken_by: str | None) -> None:
    """Unknown data-parallel size (and the quantity derived from it) when the launch sets device keys the reader
    does not model (module doc); a warning names them."""
    spec = reading.spec
    if spec.plan.data_parallel_size is None:
        return
    keys = unmodelled_device_keys(reading, gpus_taken_by)
    if not keys:
        return
    native = reading.native
    assert native is not None
    shown = ", ".join(f"{k}={native.values[k]} ({native.origins.get(k, native.source_name)})" for k in keys[:3])
    why = (
        f"unknown: {shown} places devices in a way no {spec.framework} release has; the project's own code decides "
        "how many ranks train the policy"
    )
    spec.plan.data_parallel_size = None
    spec.derivations["plan.data_parallel_size"] = Derivation(why, keys, "unknown")
    for quantity in _DERIVED_FROM_WORLD:
        derivation = spec.derivations.get(f"plan.{quantity}")
        if getattr(spec.plan, quantity) is not None and (derivation is None or derivation.origin != "config"):
            setattr(spec.plan, quantity, None)
            spec.derivations[f"plan.{quantity}"] = Derivation(why, keys, "unknown")
            break
    reading.notes.warning(
        "plan.unmodelled-devices",
        f"{shown}: a device placement no {spec.framework} release has (a fork's own parallelism or reserved "
        "GPUs); the data-parallel size and the per-rank counts built on it are unknown (read the project's code "
        "and pass them by hand)",
        source_keys=keys,
    )
