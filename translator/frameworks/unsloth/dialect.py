"""Unsloth: TRL's GRPOTrainer patched on import (docs/frameworks/unsloth.md). Read as TRL (the TRL dialect's
reader, through its variant hooks) with the TRL release the Unsloth release allows, Unsloth's own GRPOConfig
defaults, and its rewrite of per_device_train_batch_size applied before TRL computes the plan, so that the plan
reported is the one that runs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from translator.dialects.base import Dialect, Reading, ReadOptions, Values, fmt
from translator.dialects.writing import REQUIREMENTS, requirements
from translator.frameworks.trl.dialect import NativeTrl, TrlDialect, defaults_for
from translator.frameworks.unsloth.tables import (
    CHANGES,
    DEFAULTS,
    OWN_KEYS,
    RELEASES,
    REWRITE,
    SECOND_LINE,
    TRL_ALLOWED,
    TRL_FOR,
    fires,
)
from translator.notes import NoteList
from translator.plan import RunSpec
from translator.sources.files import Source
from translator.sources.project import stated_in
from translator.sources.shell import symbolic_names

PDTBS = "per_device_train_batch_size"


class UnslothDialect(TrlDialect):
    name = "unsloth"
    aliases = ()  # type: ignore[assignment]
    versions = RELEASES  # type: ignore[assignment]
    plan_bands = ()  # type: ignore[assignment]
    changes = CHANGES
    pip_name = "unsloth"
    version_files = (("unsloth/__init__.py", None),)
    # the project's trl pin beside its unsloth statement: the TRL it runs, and the Unsloth releases that allow it
    companion = "trl"
    description = "Unsloth on TRL (a Python script: `from unsloth import ...` then trl.GRPOConfig / GRPOTrainer)"

    def resolve_version(self, version: str | None) -> str:
        return Dialect.resolve_version(self, version)

    def read(self, source: Source, options: ReadOptions) -> Reading:
        pinned = options.companion  # (trl version, where) the project pins beside unsloth
        allowed = [r for r in RELEASES if pinned is not None and allows(r, pinned[0])]
        release = self.resolve_version(options.version or (allowed[-1] if allowed else None))
        native = NativeTrl()
        native.release = release
        trl = pinned[0] if pinned is not None and release in allowed else TRL_FOR[release]
        reading = self.read_native(source, replace(options, version=trl, companion=None), native)
        trl_version = reading.spec.version
        if pinned is not None and release in allowed:
            reading.notes.info(
                "version.project",
                f"trl {pinned[0]} from {pinned[1]}: unsloth {release} is read with it (read as trl {trl_version}'s "
                f"batching), with Unsloth's own GRPOConfig defaults; the unsloth releases that allow it: "
                f"{', '.join(allowed)}",
                source_keys=[pinned[1]],
            )
            if options.version is None:
                reading.candidates = tuple(allowed)
        else:
            reading.notes.info(
                "version.assumed",
                f"unsloth {release} is read with the newest TRL it allows, {TRL_FOR[release]} (read as trl "
                f"{trl_version}'s batching), with Unsloth's own GRPOConfig defaults",
            )
        reading.spec.version = release
        if reading.native is not None:
            reading.native.trl_version = trl_version  # type: ignore[attr-defined]
        return reading

    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        """Unsloth has no config file of its own: the TRL recipe for the TRL release ``version`` runs with, whose
        values go into the script's GRPOConfig(...) call (its batch checked against Unsloth's rewrite)."""
        trl = self.trl_release(TRL_FOR[version])
        notes.info(
            "unsloth.written-as-trl",
            f"Unsloth is configured in Python: the recipe is TRL {trl}'s (the TRL unsloth {version} runs with); pass "
            "its values to GRPOConfig(...) in a script that imports unsloth before trl",
        )
        files = TrlDialect.write(self, spec, trl, notes)
        # Unsloth's own release first (it is what patches GRPOConfig), then the TRL and transformers it runs with.
        trl_pins = stated_in(files.get(REQUIREMENTS, ""), REQUIREMENTS)
        pins = [("unsloth", version), *((e.package, e.version) for e in trl_pins)]
        return {**files, **requirements("Unsloth", pins)}

    def trl_release(self, version: str) -> str:
        from translator.dialects import registry

        return registry.get("trl").resolve_version(version)

    def defaults(self, version: str, native: NativeTrl) -> dict[str, Any]:
        """TRL's defaults with Unsloth's in their place (keys this TRL release has)."""
        trl = defaults_for(version)
        own = DEFAULTS[native.release or RELEASES[-1]]
        return {**trl, **{k: v for k, v in own.items() if k in trl}, **dict.fromkeys(OWN_KEYS)}

    def variant_rules(self, values: Values, native: NativeTrl, version: str, notes: NoteList) -> None:
        """Unsloth's rewrite of per_device_train_batch_size (docs/frameworks/unsloth.md §2), before TRL's
        __post_init__: the values then hold what runs, and ``values.rewrite`` what the check reports."""
        values.rewrite = None  # type: ignore[attr-defined]
        release = native.release or RELEASES[-1]
        form = REWRITE[release]
        if form is None:
            return
        first_line, cited, counts_world = form

        def raw(key: str) -> Any:
            return values.values.get(key, values.defaults.get(key))

        b, gas, group = raw(PDTBS), raw("gradient_accumulation_steps"), raw("num_generations")
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (b, gas, group)):
            return  # a value not known (or not a count, which TRL's reading reports)
        if counts_world and (raw("steps_per_generation") is not None or raw("generation_batch_size") is not None):
            return  # set by the user: Unsloth leaves the batch alone (unsloth/models/rl.py:3590-3593@2026.10.9)
        world = native.world_size if counts_world else 1
        where = values.origins.get(PDTBS, "Unsloth's default")
        if world is None:
            if (gas * b) % group == 0:
                return  # a multiple whatever WORLD_SIZE is
            # Whether it fires depends on WORLD_SIZE, which the config does not state: the micro-batch is unknown.
            word = native.world_size_word
            values.values[PDTBS] = word if word and symbolic_names(word) else "${WORLD_SIZE}"
            values.rewrite = ("unknown", "", cited, b, group)  # type: ignore[attr-defined]
            notes.warning(
                "unsloth.plan-rewritten",
                f"Unsloth sets {PDTBS} {b} to num_generations {group} when gradient_accumulation_steps {gas} × "
                f"WORLD_SIZE × {b} is not a multiple of {group} ({cited}); the process count is not stated, so "
                f"the micro-batch that runs is unknown: pass --num-processes N",
                source_keys=[PDTBS, "num_generations"],
            )
            return
        if not fires(release, b, gas, group, world, batch_set=False):
            return
        message = f"{first_line}\n{SECOND_LINE.format(b=b, g=group)}"
        values.values[PDTBS] = group
        values.origins[PDTBS] = where
        trl_would = gas * world * b
        values.rewrite = ("rewritten", message, cited, b, group)  # type: ignore[attr-defined]
        notes.warning(
            "unsloth.plan-rewritten",
            f'{where}: Unsloth runs {PDTBS} {group}, not the {b} written ({cited}): it prints "{message}"; '
            f"the plan below is the one that runs: {fmt(group * gas * (world or 1))} completions per optimizer "
            f"step instead of {fmt(trl_would)}, micro-batch {group} instead of {b}"
            + ("" if not counts_world else f" (WORLD_SIZE {world}: {native.world_size_from or 'one process'})"),
            source_keys=[PDTBS, "num_generations", "gradient_accumulation_steps"],
        )


def allows(release: str, trl: str) -> bool:
    """Whether unsloth ``release`` installs beside trl ``trl`` (tables.TRL_ALLOWED)."""
    from translator.dialects.base import version_key

    low, high, left_out = TRL_ALLOWED[release]
    key = version_key(trl)
    if key is None or trl in left_out:
        return False
    low_key, high_key = version_key(low), version_key(high) if high else None
    return (low_key is None or key >= low_key) and (high_key is None or key <= high_key)
