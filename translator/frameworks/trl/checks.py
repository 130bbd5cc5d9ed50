"""TRL GRPOTrainer / Open-R1 rules, per release (docs/frameworks/trl.md §3 timeline, §4 checks, §7 confusions).

Units: ``per_device_train_batch_size`` / ``per_device_eval_batch_size`` count completions per training process
per micro-step (prompts in 0.14); ``generation_batch_size`` counts completions over all training processes per
generation round; ``steps_per_generation`` and ``gradient_accumulation_steps`` count micro-steps. W is the number
of training processes (``spec.plan.data_parallel_size``; GPUs serving vLLM do not count). Suggestions change native
recipe keys; ``num_processes`` is a pseudo-key for W (accelerate launch --num_processes), and ``None`` removes a key.
Error messages are TRL's own text, checked in the released wheels; warnings are rlconf's words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from translator.checks.findings import Finding, Suggestion, divisors, effects, needs_world_size, ranked, split_product
from translator.dialects.base import Values, at_least, closest_key, fmt
from translator.frameworks.trl.tables import DEFAULTS, KEY_RANGE, OPEN_R1_KEYS, OTHER_KNOWN_KEYS, RENAMED
from translator.plan import RunSpec

WORLD = "num_processes"  # pseudo-key: the training world size, set on the launch line, never read from a recipe
MAX_SUGGESTIONS = 3
SEARCH = 256  # candidate values tried per key, nearest first
DAPO_NORMALISED = ("dapo", "cispo", "vespo")  # losses divided by the generation batch's token count (§5)
_CLI_ORIGIN = re.compile(r":\d+$")  # the reader records launch-line flags as "file:line", recipe keys as "file"

# Defaults of keys the rules read that the dialect's table lacks: key → [(first release, value)].
EXTRA_DEFAULTS: dict[str, list[tuple[str, Any]]] = {
    "per_device_eval_batch_size": [("0.14.0", 8)],
    "eval_strategy": [("0.14.0", "no")],
    "auto_find_batch_size": [("0.14.0", False)],
    "sync_ref_model": [("0.14.0", False)],
    "use_liger_loss": [("0.14.0", False), ("0.25.0", None)],
    "use_liger_kernel": [("0.14.0", False)],
    "vllm_importance_sampling_correction": [("0.14.0", False), ("0.23.0", True)],
    "vllm_importance_sampling_mode": [("0.14.0", "sequence_mask")],
    "vllm_importance_sampling_clip_max": [("0.14.0", 3.0)],
    "vllm_device": [("0.14.0", "auto"), ("0.16.0", None)],  # deprecated and unread from 0.16
}


@dataclass(frozen=True)
class Run:
    """What the rules read: the keys the config sets, the version's defaults, and W (None when not stated)."""

    version: str
    world: int | None
    values: Mapping[str, Any]
    defaults: Mapping[str, Any]
    origins: Mapping[str, str]
    transformers: str | None = None  # the transformers release TrlParser's TrainingArguments comes from
    fork_script: str | None = None  # a fork's own training script, whose parser may know more arguments
    own_fields: frozenset[str] = frozenset()  # fields of the script's own argument dataclasses (ScriptArguments)
    visible: int | None = None  # GPUs the training processes see (torch.cuda.device_count()), when the launch says
    visible_from: str | None = None  # where it says so

    @classmethod
    def from_native(cls, native: Values, spec: RunSpec, version: str) -> Run:
        defaults = dict(native.defaults)
        for key, history in EXTRA_DEFAULTS.items():
            defaults.setdefault(key, [value for since, value in history if at_least(version, since)][-1])
        return cls(
            version,
            spec.plan.data_parallel_size,
            dict(native.values),
            defaults,
            dict(native.origins),
            getattr(native, "transformers", None),
            getattr(native, "fork_script", None),
            getattr(native, "own_fields", frozenset()),
            getattr(native, "visible_gpus", None),
            getattr(native, "visible_from", None),
        )

    def since(self, first: str) -> bool:
        return at_least(self.version, first)

    def band(self, first: str, end: str) -> bool:
        """first <= version < end."""
        return self.since(first) and not self.since(end)

    def get(self, key: str) -> Any:
        if key == WORLD:
            return self.world
        return self.values[key] if key in self.values else self.defaults.get(key)

    def number(self, key: str) -> float | None:
        value = self.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # exact: float() of an integer past 1e308 raises OverflowError
        try:
            return None if value is None or isinstance(value, bool) else float(value)
        except (TypeError, ValueError, OverflowError):
            return None

    def count(self, key: str) -> int | None:
        """A whole number (batch sizes, steps); None when unset or not a whole number."""
        number = self.number(key)
        return int(number) if number is not None and (isinstance(number, int) or number.is_integer()) else None

    def flag(self, key: str) -> bool:
        value = self.get(key)
        return value.lower() == "true" if isinstance(value, str) else bool(value)

    def changed(self, changes: Mapping[str, Any]) -> Run:
        """This run with a suggestion applied: None removes a key; num_processes sets W and leaves the recipe."""
        values, world = dict(self.values), self.world
        for key, value in changes.items():
            if key == WORLD:
                world = value
                values.pop(WORLD, None)
            elif value is None:
                values.pop(key, None)
            else:
                values[key] = value
        return replace(self, world=world, values=values)

    # ---- the batch quantities of §2 (None where W is needed and unknown)
    @property
    def pdtbs(self) -> int:
        return self.count("per_device_train_batch_size") or 1

    @property
    def gas(self) -> int:
        return self.count("gradient_accumulation_steps") or 1

    @property
    def group(self) -> int:
        return self.count("num_generations") or 1

    @property
    def iterations(self) -> int:
        return (self.count("num_iterations") or 1) if self.since("0.16.0") else 1

    @property
    def both_generation_keys(self) -> bool:
        """Both generation_batch_size and steps_per_generation set (0.18+; unknown keys before)."""
        return self.since("0.18.0") and None not in (
            self.get("generation_batch_size"),
            self.get("steps_per_generation"),
        )

    def generation(self) -> tuple[int | None, int | None]:
        """(generation_batch_size, steps_per_generation) as GRPOConfig.__post_init__ leaves them (0.18+, §2.1): spg
        defaults to GAS, gbs to pdtbs·W·spg; a given gbs gives spg = gbs // (pdtbs·W)."""
        gbs, spg = self.count("generation_batch_size"), self.count("steps_per_generation")
        per_step = self.pdtbs * self.world if self.world else None
        if gbs is not None and spg is not None:
            return gbs, spg
        if gbs is None:
            spg = spg or self.gas
            return (per_step * spg if per_step else None), spg
        return gbs, (gbs // per_step if per_step else None)

    def steps_per_generation(self) -> int | None:
        """Micro-steps per generation round: GAS in 0.17, one in 0.15–0.16 (and 0.14)."""
        if self.since("0.18.0"):
            return self.generation()[1]
        return self.gas if self.since("0.17.0") else 1

    def round_size(self) -> int | None:
        """Completions per generation round over all processes (§3: every micro-step until 0.16)."""
        if self.world is None:
            return None
        if self.since("0.18.0"):
            return self.generation()[0]
        per_process = self.pdtbs * (self.steps_per_generation() or 1)
        return per_process * self.world * (1 if self.since("0.15.0") else self.group)

    def optimizer_batch(self) -> int | None:
        """Completions per optimizer step over all processes (the Trainer's 'Total train batch size')."""
        if self.world is None:
            return None
        return self.pdtbs * self.world * self.gas * (1 if self.since("0.15.0") else self.group)

    def prompts_per_round(self) -> Fraction | None:
        size = self.round_size()
        return Fraction(size, self.group) if size is not None else None


Rule = Callable[[Run], "Finding | None"]


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    """The rules of TRL ``version`` on this config; each finding keeps the suggestions that really fix it."""
    if not native.values and not native.defaults:  # an accelerate config alone: no recipe, nothing to check
        return []
    run = Run.from_native(native, spec, version)
    findings = evaluate(run)
    present_errors = {f.rule for f in findings if f.severity == "error"}
    for item in findings:
        item.suggestions = working_suggestions(run, item, present_errors)
    return findings


def evaluate(run: Run) -> list[Finding]:
    """Every rule once; the suggestions are still the unfiltered candidates, in order of preference."""
    return [item for rule in RULES if (item := rule(run)) is not None]


def working_suggestions(run: Run, item: Finding, present_errors: set[str]) -> list[Suggestion]:
    """Per kind of change (the keys set or removed), the first candidate that clears the rule without an error that
    was not there before — re-checked, never assumed. If none does, the first ones that clear the rule, naming the
    error they then meet (a fix can uncover a check TRL runs later). Texts gain what they keep and change."""
    clean: dict[frozenset[tuple[str, bool]], Suggestion] = {}
    fallback: dict[frozenset[tuple[str, bool]], Suggestion] = {}
    for candidate in item.suggestions:
        kind = frozenset((key, value is None) for key, value in candidate.changes.items())
        if kind in clean:
            continue
        after = run.changed(candidate.changes)
        results = evaluate(after)
        if any(f.rule == item.rule for f in results):
            continue
        new_errors = sorted({f.rule for f in results if f.severity == "error" and f.rule not in present_errors})
        text = "; ".join(p for p in (candidate.text, describe_effects(run, after)) if p)
        kept, moved = effects(measures(run), measures(after))
        if not new_errors:
            clean[kind] = Suggestion(candidate.changes, text, kept, moved)
        elif kind not in fallback and len(fallback) < MAX_SUGGESTIONS:
            fallback[kind] = Suggestion(
                candidate.changes, f"{text}; then fix {', '.join(new_errors)}".lstrip("; "), kept, moved
            )
    return ranked(list((clean or fallback).values()), item.rule)[:MAX_SUGGESTIONS]  # those that keep the update first


EFFECTS: tuple[tuple[str, str, str, Callable[[Run], Any]], ...] = (  # (metric, one, many, measure): what people
    ("data_parallel_size", "training process", "training processes", lambda r: r.world),  # plan with
    ("samples_per_prompt", "completion per prompt", "completions per prompt", lambda r: r.group),
    (
        "samples_per_optimizer_step",
        "completion per optimizer step",
        "completions per optimizer step",
        lambda r: r.optimizer_batch(),
    ),
    (
        "prompts_per_round",
        "prompt per generation round",
        "prompts per generation round",
        lambda r: r.prompts_per_round(),
    ),
)


def measures(run: Run) -> dict[str, Any]:
    return {metric: measure(run) for metric, _, _, measure in EFFECTS}


def describe_effects(before: Run, after: Run) -> str:
    """What a change keeps and changes among those quantities (§2.3); empty if it changes none of them."""
    kept, changed = [], []
    for _, one, many, measure in EFFECTS:
        a, b = measure(before), measure(after)
        if a is not None and b is not None:
            if a == b:
                kept.append(f"{fmt(a)} {one if a == 1 else many}")
            else:
                changed.append(f"{many} {fmt(a)} → {fmt(b)}")
    return f"keeps {', '.join(kept) or 'none of them'}; changes {', '.join(changed)}" if changed else ""


# ---------------------------------------------------------------- findings and candidate changes
def finding(
    run: Run,
    rule: str,
    severity: str,
    message: str,
    keys: list[str],
    candidates: Iterable[Suggestion] = (),
    values: dict[str, Any] | None = None,
) -> Finding:
    values = values if values is not None else {k: shown(run, k) for k in keys}
    return Finding(rule, severity, message, keys, values, list(candidates))  # type: ignore[arg-type]


def shown(run: Run, key: str) -> Any:
    """A key's value as TRL uses it: steps_per_generation / generation_batch_size after __post_init__."""
    if (
        key in ("generation_batch_size", "steps_per_generation")
        and run.since("0.18.0")
        and not run.both_generation_keys
    ):
        return run.generation()[0 if key == "generation_batch_size" else 1]
    return run.get(key)


def around(value: int) -> list[int]:
    """Whole numbers from 1 to max(2·value, value + 16) nearest ``value`` first (the larger first on ties), ``value``
    excluded, at most SEARCH of them."""
    high = max(2 * value, value + 16)
    steps = range(1, min(high, SEARCH))
    return [c for step in steps for c in (value + step, value - step) if 1 <= c <= high][:SEARCH]


def by_distance(values: Iterable[int], target: int) -> list[int]:
    return sorted(set(values), key=lambda v: (abs(v - target), -v))


def possible_values(batch: int) -> list[int]:
    """TRL's own list of valid num_generations for a batch (0.15–0.19): its divisors from 2 up."""
    return [n for n in divisors(batch) if n >= 2]


def change(key: str, value: Any, why: str = "") -> Suggestion:
    """One key changed (None: removed); ``why`` is what the value means, the effects are added when it works."""
    return Suggestion({key: value}, why)


def world_candidates(run: Run, values: Iterable[int] | None = None) -> list[Suggestion]:
    if run.world is None:
        return []
    worlds = around(run.world) if values is None else by_distance(values, run.world)
    return [change(WORLD, w, f"accelerate launch --num_processes {w}") for w in worlds if w != run.world]


def group_candidates(run: Run, batch: int) -> list[Suggestion]:
    """num_generations among TRL's valid values for the batch, nearest the current group first."""
    return [
        change("num_generations", g, "a valid value for this batch")
        for g in by_distance(possible_values(batch), run.group)
    ]


def generation_batch_candidates(run: Run) -> list[Suggestion]:
    """generation_batch_size: the multiples of lcm(pdtbs·W, num_generations) nearest the current value."""
    gbs = run.count("generation_batch_size")
    if gbs is None or run.world is None:
        return []
    unit = math.lcm(run.pdtbs * run.world, run.group)
    below, above = (gbs // unit) * unit, -(-gbs // unit) * unit
    return [
        change("generation_batch_size", v, f"{v // run.group} prompts x {run.group} per round")
        for v in by_distance({below, above, above + unit} - {0}, gbs)
    ]


def spg_change(run: Run, spg: int) -> Suggestion:
    """Steps per generation set the way the config states it (generation_batch_size if that is what it sets)."""
    if "generation_batch_size" in run.values and run.world is not None:
        return change("generation_batch_size", run.pdtbs * run.world * spg, f"steps_per_generation {spg}")
    return change("steps_per_generation", spg, f"a generation round every {spg} micro-steps")


def gas_change(run: Run, gas: int) -> Suggestion:
    """gradient_accumulation_steps, pinning steps_per_generation when it only followed GAS by default."""
    pinned = (
        {}
        if {"steps_per_generation", "generation_batch_size"} & set(run.values) or not run.since("0.18.0")
        else {"steps_per_generation": run.steps_per_generation()}
    )
    return Suggestion({"gradient_accumulation_steps": gas, **pinned}, f"an optimizer step every {gas} micro-steps")


# ---------------------------------------------------------------- TrlParser
def unknown_config_keys(run: Run) -> Finding | None:
    """Recipe keys no parsed dataclass defines: TrlParser raises since 0.19 (fail_with_unknown_args=True) and
    silently drops them before (§3 row 0.19.0; §6: Open-R1's `num_processes: 7`, `vllm_device: auto`)."""
    unknown = [
        k
        for k in run.values
        if not _from_cli(run, k)
        and not _from_python(run, k)
        and k not in run.own_fields
        and (not known_key(k, run.version) or gone_from_transformers(run, k))
    ]
    if not unknown:
        return None
    remaining = [item for k in unknown for item in (f"--{k}", str(run.values[k]))]  # TrlParser's own rendering
    if run.since("0.19.0"):
        severity, message = (
            "error",
            (
                f"Unknown arguments from config file: {remaining}. Please remove them, add them to the dataclass, "
                "or set "
                "`fail_with_unknown_args=False`."
            ),
        )
    else:
        severity, message = (
            "warning",
            (
                f"trl {run.version}'s TrlParser silently ignores recipe keys that no argument "
                f"class defines: {', '.join(unknown)} (an error from 0.19)"
            ),
        )
    return finding(
        run,
        "trl.unknown-config-key",
        severity,
        message,
        unknown,
        unknown_fixes(run, unknown),
        {k: run.values[k] for k in unknown},
    )


def unknown_cli_arguments(run: Run) -> Finding | None:
    """Flags after the training script go through HfArgumentParser, which rejects unknown ones in every release."""
    unknown = [
        k
        for k in run.values
        if _from_cli(run, k)
        and k not in run.own_fields
        and (k == "env" or not known_key(k, run.version) or gone_from_transformers(run, k))
    ]
    if not unknown:
        return None
    remaining = [item for k in unknown for item in (f"--{k}", _as_typed(run.values[k]))]
    message = f"Some specified arguments are not used by the HfArgumentParser: {remaining}"
    if run.fork_script:  # the fork's own argument classes may define them: TRL's verdict is not the fork's
        return finding(
            run,
            "trl.unknown-cli-argument",
            "warning",
            f"{', '.join(unknown)} are not TRL {run.version} arguments; {run.fork_script} must define them "
            f"itself, or TRL's parser stops: {message}",
            unknown,
            unknown_fixes(run, unknown),
            {k: run.values[k] for k in unknown},
        )
    return finding(
        run,
        "trl.unknown-cli-argument",
        "error",
        message,
        unknown,
        unknown_fixes(run, unknown),
        {k: run.values[k] for k in unknown},
    )


def unknown_fixes(run: Run, unknown: list[str]) -> list[Suggestion]:
    """Move a world size to the launch line, rename likely typos, or remove the keys."""
    others = {k: None for k in unknown if k != WORLD}
    moved: dict[str, Any] = {}
    candidates = []
    if WORLD in unknown:  # the recipe's number is what its author meant to launch
        world = run.values[WORLD] if isinstance(run.values[WORLD], int) and run.values[WORLD] > 0 else run.world
        moved = {WORLD: world} if world else {}
        why = (
            f"the launch line already runs {world} processes; TrlParser does not read the recipe key"
            if world == run.world
            else f"accelerate launch --num_processes {world}, not the recipe key, which TrlParser does not read"
        )
        why += f"; remove {', '.join(others)}" if others else ""
        candidates += [Suggestion({**others, **moved}, why)] if world else []
    names = known_names(run.version)
    respelled = {
        k: "warmup_steps"
        for k in others
        if k == "warmup_ratio"
        and "warmup_steps" not in run.values
        and run.transformers
        and at_least(run.transformers, "5.0.0")
    }
    if respelled:  # transformers >= 5 reads a warmup_steps below 1 as a ratio of the run
        candidates.append(
            Suggestion(
                {**others, "warmup_steps": run.values["warmup_ratio"], **moved},
                "warmup_ratio → warmup_steps (a value below 1 is a ratio in transformers ≥ 5)",
            )
        )
    renames = {
        k: g
        for k in others
        if (g := RENAMED.get(k) or closest_key(k, names))
        and not gone_from_transformers(run, g)
        and (g not in run.values or (_from_cli(run, k) and not _from_cli(run, g)))
    }  # a flag overrides the recipe
    if renames:
        candidates.append(
            Suggestion(
                {**others, **{g: run.values[k] for k, g in renames.items()}, **moved},
                "rename " + ", ".join(f"{k} → {g}" for k, g in renames.items()),
            )
        )
    if others:
        candidates.append(Suggestion({**others, **moved}, "remove " + ", ".join(others)))
    return candidates


def _from_cli(run: Run, key: str) -> bool:
    return bool(_CLI_ORIGIN.search(run.origins.get(key, ""))) and not _from_python(run, key)


def _from_python(run: Run, key: str) -> bool:
    """A keyword argument of a GRPOConfig(...) call in a Python script (python_script.py records it as file:line)."""
    return run.origins.get(key, "").rpartition(":")[0].endswith(".py")


def unknown_script_arguments(run: Run) -> Finding | None:
    """A keyword GRPOConfig does not declare: the dataclass's __init__ raises TypeError when the script runs."""
    unknown = [
        k
        for k in run.values
        if _from_python(run, k) and (not known_key(k, run.version) or gone_from_transformers(run, k))
    ]
    if not unknown:
        return None
    return finding(
        run,
        "trl.unknown-script-argument",
        "error",
        f"GRPOConfig.__init__() got an unexpected keyword argument '{unknown[0]}'",
        unknown,
        unknown_fixes(run, unknown),
        {k: run.values[k] for k in unknown},
    )


def _as_typed(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def known_names(version: str) -> set[str]:
    return {k for k in set(DEFAULTS) | set(KEY_RANGE) | OPEN_R1_KEYS | OTHER_KNOWN_KEYS if known_key(k, version)}


def gone_from_transformers(run: Run, key: str) -> bool:
    """A TrainingArguments field the transformers this run uses no longer has (e.g. warmup_ratio, logging_dir in
    5.15+): TrlParser treats it as unknown."""
    if not run.transformers or key in OPEN_R1_KEYS:
        return False
    from translator.frameworks.trl.dialect import training_arguments_lack

    return training_arguments_lack(key, run.version, run.transformers)


def known_key(key: str, version: str) -> bool:
    """A field of a dataclass TrlParser fills (TRL's, transformers', Open-R1's) in this release."""
    if key == WORLD:  # an accelerate setting; Open-R1 branch recipes wrote it in the YAML (§6)
        return False
    if key in KEY_RANGE:
        since, until = KEY_RANGE[key]
        major, minor, *_ = (until or "0.0").split(".")
        return at_least(version, since) and (until is None or not at_least(version, f"{major}.{int(minor) + 1}.0"))
    return key in DEFAULTS or key in OPEN_R1_KEYS or key in OTHER_KNOWN_KEYS or key == "env"


# ---------------------------------------------------------------- GRPOConfig.__post_init__ / GRPOTrainer.__init__
def auto_find_batch_size(run: Run) -> Finding | None:
    """Rejected from 1.10; before, halving the batch on out-of-memory silently breaks whole prompt groups."""
    if not run.flag("auto_find_batch_size") or not run.since("0.15.0"):
        return None
    if run.since("1.10.0"):
        severity, message = (
            "error",
            (
                "auto_find_batch_size is not supported by GRPO, because the generation batch must contain full prompt "
                "groups of num_generations completions, and reducing the batch size on out-of-memory breaks this "
                "invariant. Set auto_find_batch_size=False and lower per_device_train_batch_size instead."
            ),
        )
    else:
        severity, message = (
            "warning",
            (
                f"auto_find_batch_size halves per_device_train_batch_size on out-of-memory, after which trl "
                f"{run.version}'s batches need not hold whole groups of num_generations completions (an error "
                "from 1.10)"
            ),
        )
    return finding(
        run,
        "trl.auto-find-batch-size",
        severity,
        message,
        ["auto_find_batch_size"],
        [change("auto_find_batch_size", False, "lower per_device_train_batch_size by hand if needed")],
    )


def generation_batch_exclusive(run: Run) -> Finding | None:
    if not run.since("0.18.0") or not run.both_generation_keys:
        return None
    return finding(
        run,
        "trl.generation-batch-exclusive",
        "error",
        "'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time",
        ["generation_batch_size", "steps_per_generation"],
        [
            change("steps_per_generation", None, "keep generation_batch_size"),
            change("generation_batch_size", None, "keep steps_per_generation"),
        ],
    )


def generation_batch_divisible(run: Run) -> Finding | None:
    """gbs % (pdtbs·W), only when gbs is given (§2.1); 0.18.0–0.19.0 test `gbs % pdtbs * W`, which by operator
    precedence is just gbs % pdtbs (fixed in 0.19.1)."""
    gbs = run.count("generation_batch_size")
    if not run.since("0.18.0") or gbs is None or run.both_generation_keys:
        return None
    if run.world is None:
        return needs_world_size("trl.generation-batch-divisible")
    per_step = run.pdtbs * run.world
    if not (gbs % run.pdtbs if run.band("0.18.0", "0.19.1") else gbs % per_step):
        return None
    spg = max(1, round(gbs / per_step))
    return finding(
        run,
        "trl.generation-batch-divisible",
        "error",
        f"generation_batch_size ({gbs}) must be divisible by the global batch size ({per_step}).",
        ["generation_batch_size", "per_device_train_batch_size", WORLD],
        [
            *generation_batch_candidates(run),
            Suggestion({"generation_batch_size": None, "steps_per_generation": spg}, "rounds of whole steps"),
            *world_candidates(run, divisors(gbs // run.pdtbs) if gbs % run.pdtbs == 0 else []),
        ],
    )


def generation_batch_floored(run: Run) -> Finding | None:
    """0.18.0–0.19.0: a gbs that passes the buggy test but is no multiple of pdtbs·W gets spg = gbs // (pdtbs·W)."""
    gbs = run.count("generation_batch_size")
    if not run.band("0.18.0", "0.19.1") or gbs is None or run.both_generation_keys:
        return None
    if run.world is None:
        return needs_world_size("trl.generation-batch-floored")
    per_step = run.pdtbs * run.world
    if gbs % run.pdtbs or not gbs % per_step:
        return None
    spg = gbs // per_step
    keys = ["generation_batch_size", "per_device_train_batch_size", WORLD]
    candidates = [*generation_batch_candidates(run), *world_candidates(run, divisors(gbs // run.pdtbs))]
    if spg == 0:  # the train dataloader gets batch_size pdtbs × 0, which torch's BatchSampler refuses
        return finding(
            run,
            "trl.generation-batch-floored",
            "error",
            "batch_size should be a positive integer value, but got batch_size=0",
            keys,
            candidates,
        )
    return finding(
        run,
        "trl.generation-batch-floored",
        "warning",
        f"trl {run.version} only checks generation_batch_size % per_device_train_batch_size (a precedence "
        f"bug fixed in 0.19.1): {gbs} is not a multiple of {run.pdtbs} x {run.world} processes = "
        f"{per_step}, "
        f"so steps_per_generation is floored to {spg} and each generation round takes {per_step * spg} "
        f"completions, out of step with the sampler's batches of {gbs}",
        keys,
        candidates,
    )


def num_generations_min(run: Run) -> Finding | None:
    """G >= 2 from 0.17 (PR #3199; 0.15–0.16 leave it to the divisibility check). 0.14 has no check, and a group of
    one has a NaN std, so every advantage is NaN."""
    if run.group >= 2 or run.band("0.15.0", "0.17.0"):
        return None
    candidates = [change("num_generations", g, "the smallest group with an advantage signal") for g in range(2, 65)]
    if (run.round_size() or 2) < 2:  # a round of one completion holds no group of two: grow the batch as well
        candidates += [Suggestion({"num_generations": 2, "per_device_train_batch_size": 2 * run.pdtbs}, "")]
    if run.since("0.17.0"):
        return finding(
            run,
            "trl.num-generations-min",
            "error",
            "GRPO requires at least 2 generations per prompt to calculate the advantages. You provided "
            f"{run.group}, which is less than the minimum required.",
            ["num_generations"],
            candidates,
        )
    return finding(
        run,
        "trl.num-generations-min",
        "warning",
        f"num_generations {run.group}: trl {run.version} divides each advantage by the std of a group of "
        "one, which is NaN, so there is no learning signal (an error from 0.17)",
        ["num_generations"],
        candidates,
    )


def num_generations_divisible(run: Run) -> Finding | None:
    """The batch TRL groups by prompt must hold whole groups (§4): W·pdtbs in 0.15–0.16, W·pdtbs·GAS in 0.17, the
    generation batch from 0.18 (TRL's 'possible values' list until 0.19, plain gbs % G from 0.20)."""
    if not run.since("0.15.0") or (run.since("0.17.0") and run.group < 2) or run.both_generation_keys:
        return None
    if run.world is None:
        return needs_world_size("trl.num-generations-divisible")
    w, p, g = run.world, run.pdtbs, run.group
    batch = run.round_size() or 0
    if run.since("0.20.0"):
        if batch % g == 0:
            return None
        message = f"generation_batch_size ({batch}) must be divisible by num_generations ({g})."
    else:
        if g in possible_values(batch):
            return None
        size = {
            "0.15.0": f"global train batch size ({w} x {p})",
            "0.17.0": f"effective train batch size ({w} x {p} x {run.gas})",
            "0.18.0": f"effective train batch size ({w} x {p} x {run.steps_per_generation()})",
        }
        era = "0.18.0" if run.since("0.18.0") else "0.17.0" if run.since("0.17.0") else "0.15.0"
        current = "train batch size" if era == "0.15.0" else "effective train batch size"
        message = (
            f"The {size[era]} must be evenly divisible by the number of generations per prompt ({g}). Given "
            f"the current {current}, the valid values for the number of generations are: "
            f"{possible_values(batch)}."
        )
    keys = ["num_generations", "per_device_train_batch_size", WORLD]
    keys[2:2] = (
        ["gradient_accumulation_steps"]
        if run.band("0.17.0", "0.18.0")
        else ["generation_batch_size"]
        if run.since("0.18.0")
        else []
    )
    fixed_batch = "generation_batch_size" in run.values and run.since("0.18.0")
    batch_candidates = (
        generation_batch_candidates(run)
        if fixed_batch
        else [change("per_device_train_batch_size", v, f"{v} completions per device") for v in around(p)]
    )
    # per-device batch × accumulation with the same product: the completions per optimizer step stay
    kept_update = (
        []
        if fixed_batch
        else [
            Suggestion(
                {"per_device_train_batch_size": a, **gas_change(run, b).changes},
                f"{a} completions per device × {b} accumulation steps",
            )
            for a, b in split_product(p * run.gas, p)
        ]
    )
    return finding(
        run,
        "trl.num-generations-divisible",
        "error",
        message,
        keys,
        [*group_candidates(run, batch), *world_candidates(run), *batch_candidates, *kept_update],
    )


def eval_batch_divisible(run: Run) -> Finding | None:
    """With evaluation on, W·per_device_eval_batch_size must hold whole groups (§4, §7 item 7): not checked in
    0.20–0.21; from 0.27 the group is num_generations_eval or num_generations (0.27.0 wheel; reference says 0.28)."""
    if (
        run.get("eval_strategy") in (None, False, "no")
        or not run.since("0.15.0")
        or run.band("0.20.0", "0.22.0")
        or (run.since("0.17.0") and run.group < 2)
    ):
        return None
    if run.world is None:
        return needs_world_size("trl.eval-batch-divisible")
    w, e, g = run.world, run.count("per_device_eval_batch_size") or 1, run.group
    batch, keys = w * e, ["per_device_eval_batch_size", "num_generations", WORLD]
    if run.since("0.27.0"):
        g = run.count("num_generations_eval") or g
        keys.insert(2, "num_generations_eval")
        message = (
            f"The global eval batch size ({e} * {w}) must be divisible by the number of generations used for "
            f"evaluation ({g})."
        )
    elif run.since("0.22.0"):
        message = f"The global eval batch size ({e} * {w}) must be divisible by num_generations ({g})."
    else:
        kind, current = {
            "0.15.0": ("global", "current"),
            "0.17.0": ("effective", "current effective"),
            "0.18.0": ("global", "current global"),
        }["0.18.0" if run.since("0.18.0") else "0.17.0" if run.since("0.17.0") else "0.15.0"]
        message = (
            f"The {kind} eval batch size ({w} x {e}) must be evenly divisible by the number of generations per "
            f"prompt ({g}). Given the {current} eval batch size, the valid values for the number of generations "
            f"are: {possible_values(batch)}."
        )
    if (batch % g == 0) if run.since("0.22.0") else (g in possible_values(batch)):
        return None
    candidates = [
        change("per_device_eval_batch_size", v, f"{w} x {v} = {w * v} eval completions, whole groups of {g}")
        for v in around(e)
        if (v * w) % g == 0
    ]
    if run.since("0.27.0"):
        candidates += [
            change("num_generations_eval", n, "evaluation only") for n in by_distance(possible_values(batch), g)
        ]
    candidates.append(change("eval_strategy", "no", "no evaluation during training"))
    return finding(run, "trl.eval-batch-divisible", "error", message, keys, candidates)


def liger_two_sided(run: Run) -> Finding | None:
    """delta (two-sided clipping) is not in the Liger GRPO loss (0.18+; driven by use_liger_kernel from 0.26).
    The check is in the 1.0.0 wheel and gone by 1.8.0 (the releases between were not read)."""
    if not run.since("0.18.0") or run.since("1.8.0") or run.number("delta") is None:
        return None
    switches = (
        ["use_liger_loss"]
        if not run.since("0.26.0")
        else ["use_liger_loss", "use_liger_kernel"]
        if not run.since("0.28.0")
        else ["use_liger_kernel"]
    )
    on = [k for k in switches if run.flag(k)]
    if not on:
        return None
    name = "Liger kernel" if run.since("0.26.0") else "Liger loss"
    return finding(
        run,
        "trl.liger-two-sided",
        "error",
        f"{name} does not support two-sided GRPO loss yet.",
        ["delta", *on],
        [
            change("delta", None, "one-sided clipping"),
            Suggestion(dict.fromkeys(on, False), "the plain PyTorch GRPO loss"),
        ],
    )


def vllm_is_clip_range(run: Run) -> Finding | None:
    """1.6+: the vLLM importance-sampling bounds must be ordered (clip_max 3.0 by default; the _cap alias wins)."""
    high_key = (
        "vllm_importance_sampling_cap"
        if run.get("vllm_importance_sampling_cap") is not None
        else "vllm_importance_sampling_clip_max"
    )
    low, high = run.number("vllm_importance_sampling_clip_min"), run.number(high_key)
    if not run.since("1.6.0") or low is None or high is None or low < high:
        return None
    return finding(
        run,
        "trl.vllm-is-clip-range",
        "error",
        f"vllm_importance_sampling_clip_min ({run.get('vllm_importance_sampling_clip_min')}) must be less "
        f"than vllm_importance_sampling_clip_max ({run.get(high_key)}).",
        ["vllm_importance_sampling_clip_min", high_key],
        [change("vllm_importance_sampling_clip_min", None, "no lower bound")],
    )


def vllm_is_truncate_bounds(run: Run) -> Finding | None:
    """1.6+: a *_truncate importance-sampling mode needs a bound."""
    if (
        not run.since("1.6.0")
        or not run.flag("vllm_importance_sampling_correction")
        or run.get("vllm_importance_sampling_mode") not in ("token_truncate", "sequence_truncate")
        or any(
            run.get(k) is not None
            for k in (
                "vllm_importance_sampling_cap",
                "vllm_importance_sampling_clip_min",
                "vllm_importance_sampling_clip_max",
            )
        )
    ):
        return None
    return finding(
        run,
        "trl.vllm-is-truncate-bounds",
        "error",
        "At least one of `vllm_importance_sampling_clip_min` or `vllm_importance_sampling_clip_max` must be "
        "set when `vllm_importance_sampling_mode` is a `*_truncate` mode.",
        ["vllm_importance_sampling_mode", "vllm_importance_sampling_clip_max"],
        [change("vllm_importance_sampling_clip_max", 3.0, "TRL's default bound")],
    )


def sequence_parallel(run: Run) -> Finding | None:
    """1.4+: GRPO builds its inputs after generation, so context/sequence-parallel input sharding is rejected."""
    config = run.get("parallelism_config")
    if (
        not run.since("1.4.0")
        or not isinstance(config, Mapping)
        or not any(isinstance(config.get(k), int) and config[k] > 1 for k in ("cp_size", "sp_size"))
    ):
        return None
    return finding(
        run,
        "trl.sequence-parallel",
        "error",
        "GRPOTrainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or "
        "`parallelism_config.sp_size > 1`) yet. GRPO builds model inputs after generation inside the "
        "trainer, so Transformers' context-parallel / Ulysses sequence-parallel input sharding cannot be "
        "applied to the raw generation batch. Set both `cp_size=1` and `sp_size=1`, or disable "
        "`parallelism_config`.",
        ["parallelism_config"],
        [
            change("parallelism_config", {**config, "cp_size": 1, "sp_size": 1}, "no sequence-dim sharding"),
            change("parallelism_config", None, "no parallelism_config"),
        ],
    )


def vllm_tensor_parallel(run: Run) -> Finding | None:
    """Colocated vLLM groups consecutive ranks into TP groups, so W % vllm_tensor_parallel_size == 0 (0.18+)."""
    tp = run.count("vllm_tensor_parallel_size") or 1
    if not run.since("0.18.0") or not run.flag("use_vllm") or run.get("vllm_mode") != "colocate" or tp == 1:
        return None
    if run.world is None:
        return needs_world_size("trl.vllm-tensor-parallel")
    if run.world % tp == 0:
        return None
    name = "tensor_parallel_size" if run.since("0.28.0") else "vllm_tensor_parallel_size"
    multiples = {(run.world // tp) * tp, -(-run.world // tp) * tp} - {0}
    return finding(
        run,
        "trl.vllm-tensor-parallel",
        "error",
        f"{name} ({tp}) must divide world size ({run.world}) evenly.",
        ["vllm_tensor_parallel_size", WORLD, "vllm_mode"],
        [
            *(
                change("vllm_tensor_parallel_size", d, f"{run.world // d} vLLM engines of {d} GPUs")
                for d in by_distance(divisors(run.world), tp)
            ),
            *world_candidates(run, multiples),
        ],
    )


def vllm_device_available(run: Run) -> Finding | None:
    """0.14–0.15: with use_vllm the main process places vLLM on vllm_device — "auto" is cuda:W, the GPU after the
    training processes (0.15 shares cuda:0 when one GPU is visible) — and raises when its index is not below
    torch.cuda.device_count() (trl/trainer/grpo_trainer.py@v0.14.0:287-298, @v0.15.2:373-387). Judged only where
    the launch states the GPUs the processes see (CUDA_VISIBLE_DEVICES, accelerate's gpu_ids): never the machine's."""
    device, visible = run.get("vllm_device"), run.visible
    if not run.band("0.14.0", "0.16.0") or not run.flag("use_vllm") or visible is None or not isinstance(device, str):
        return None
    keys = ["use_vllm", "vllm_device"]
    if device == "auto":
        if run.since("0.15.0") and visible == 1:
            return None  # cuda:0, shared with training
        if run.world is None:
            return needs_world_size("trl.vllm-device-available")
        index, placed, keys = run.world, f"cuda:{run.world}", [*keys, WORLD]
    else:
        kind, _, number = device.partition(":")
        try:
            index = int(number.partition(":")[0]) if kind == "cuda" else -1
        except ValueError:
            return None  # TRL's int() fails first, with another message
        placed = device
    if index < visible:
        return None
    values = {k: shown(run, k) for k in keys}
    values["visible GPUs"] = f"{visible} ({run.visible_from})"
    last = f"cuda:{visible - 1}"
    shared = f", shared with training process {visible - 1}: TRL only warns" if (run.world or 0) >= visible else ""
    return finding(
        run,
        "trl.vllm-device-available",
        "error",
        f"The requested device for vllm ({placed}) is not available. You are likely using vLLM without restricting "
        "the number of GPUs for training. Set the `--num_processes` argument to a value lower than the number of "
        "GPUs available on your machine—typically, reducing it by one is sufficient. In your case: "
        f"`--num_processes {visible - 1}`.",
        keys,
        [
            *(
                [change("vllm_device", "auto", f"the GPU after the {run.world} training processes")]
                if run.world
                else []
            ),
            *world_candidates(run, [visible - 1] if visible > 1 else []),
            change("vllm_device", last, f"the last visible GPU{shared}"),
            change("use_vllm", False, "generate with transformers on the training GPUs"),
        ],
        values,
    )


def reward_weights_length(run: Run) -> Finding | None:
    """One weight per reward function (0.15+); Open-R1's reward_funcs default is accuracy, format, tag_count."""
    weights, funcs = run.get("reward_weights"), run.get("reward_funcs")
    if funcs is None and OPEN_R1_KEYS & set(run.values):
        funcs = ["accuracy", "format", "tag_count"]
    if (
        not run.since("0.15.0")
        or not isinstance(weights, list)
        or not isinstance(funcs, list)
        or len(funcs) == len(weights)
    ):
        return None
    fitted = (list(weights) + [1.0] * len(funcs))[: len(funcs)]
    return finding(
        run,
        "trl.reward-weights-length",
        "error",
        f"Number of reward weights ({len(weights)}) must match number of reward functions ({len(funcs)})",
        ["reward_weights", "reward_funcs"],
        [
            change("reward_weights", fitted, "one weight per reward function, missing ones 1.0"),
            change("reward_weights", None, "every reward weighted 1.0"),
        ],
    )


def sync_ref_model_beta(run: Run) -> Finding | None:
    """beta 0 loads no reference model (0.16+): 0.28+ rejects sync_ref_model, before the sync silently does nothing
    (SyncRefModelCallback skips a None ref_model)."""
    if not run.flag("sync_ref_model") or run.number("beta") != 0.0 or not run.since("0.16.0"):
        return None
    keys, candidates = (
        ["sync_ref_model", "beta"],
        [
            change("sync_ref_model", False, "no reference model to sync"),
            change("beta", 0.04, "a KL term to a synchronised reference"),
        ],
    )
    if run.since("0.28.0"):
        return finding(
            run,
            "trl.sync-ref-model-beta",
            "error",
            "You passed `sync_ref_model=True` while `beta=0.0`, which means the reference model is not "
            "used during training. Consequently, GRPOTrainer does not create a `ref_model` instance, and "
            "there is nothing to synchronize. Please set `sync_ref_model=False`, or set `beta` to a "
            "non-zero value.",
            keys,
            candidates,
        )
    return finding(
        run,
        "trl.sync-ref-model-beta",
        "warning",
        f"sync_ref_model does nothing with beta 0.0: trl {run.version} creates no reference model, so "
        "there is nothing to synchronize (an error from 0.28)",
        keys,
        candidates,
    )


# ---------------------------------------------------------------- accepted, but silently changed
def max_prompt_length_ignored(run: Run) -> Finding | None:
    """0.26–0.27 accept max_prompt_length with a FutureWarning but never read it (§1; removed in 0.28)."""
    if not run.band("0.26.0", "0.28.0") or run.values.get("max_prompt_length") is None:
        return None
    return finding(
        run,
        "trl.max-prompt-length-ignored",
        "warning",
        "The `max_prompt_length` argument is deprecated and will be removed in version 0.28.0. You should "
        "instead filter your dataset before training to ensure that prompts do not exceed your desired "
        f"length. (trl {run.version} does not read it: prompts are not truncated.)",
        ["max_prompt_length"],
        [change("max_prompt_length", None, "filter long prompts out of the data")],
    )


def cosine_min_lr_kwargs(run: Run) -> Finding | None:
    """transformers' cosine_with_min_lr schedule needs its floor in lr_scheduler_kwargs; the Trainer raises when it
    creates the scheduler (transformers/optimization.py, get_cosine_with_min_lr_schedule_with_warmup)."""
    if str(run.get("lr_scheduler_type")) != "cosine_with_min_lr":
        return None
    kwargs = run.get("lr_scheduler_kwargs")
    kwargs = kwargs if isinstance(kwargs, dict) else {}
    if kwargs.get("min_lr") is not None or kwargs.get("min_lr_rate") is not None:
        return None
    return finding(
        run,
        "trl.cosine-min-lr-unset",
        "error",
        "One of min_lr or min_lr_rate should be set through the `lr_scheduler_kwargs`",
        ["lr_scheduler_type", "lr_scheduler_kwargs"],
        [
            change("lr_scheduler_kwargs", {**kwargs, "min_lr_rate": 0.1}, "a floor of 0.1 × learning_rate"),
            change("lr_scheduler_type", "cosine", "cosine decay to 0"),
        ],
    )


def off_policy_steps(run: Run) -> Finding | None:
    """Rounds that straddle optimizer steps train partly on an older policy's completions (§2.3, §7 item 5): 0.20+
    computes old log-probs iff GAS % (spg·μ) != 0; 0.18–0.19 only iff μ > 1 or spg > GAS (PR #3493); 0.16–0.17
    replay each generation batch μ times."""
    spg, gas, mu = run.steps_per_generation(), run.gas, run.iterations
    if not run.since("0.16.0") or run.both_generation_keys:
        return None
    if spg is None:  # generation_batch_size given: steps_per_generation follows from the world size
        return needs_world_size("trl.off-policy-steps")
    if not spg:
        return None
    if (gas % (spg * mu) == 0) if run.since("0.18.0") else mu == 1:  # 0.16 generates per micro-step, replays μ times
        return None
    if run.since("0.18.0"):
        head = (
            f"gradient_accumulation_steps ({gas}) is not a multiple of steps_per_generation x num_iterations "
            f"({spg} x {mu} = {spg * mu})"
        )
        keys = ["gradient_accumulation_steps", "steps_per_generation", "num_iterations"]
    else:
        head, keys = f"num_iterations {mu} replays each generation batch {mu} times", ["num_iterations"]
    if run.band("0.18.0", "0.20.0") and mu == 1 and spg < gas:
        tail = (
            f": some micro-steps train on completions generated before the last optimizer step, and trl "
            f"{run.version} computes no old log-probabilities here (only when num_iterations > 1 or "
            "steps_per_generation > gradient_accumulation_steps), so the policy ratio is taken as 1 on "
            "off-policy data (fixed in 0.20)"
        )
    else:
        tail = (
            ": some micro-steps train on completions generated before the last optimizer step (off-policy), so "
            "TRL computes old log-probabilities and clips the policy ratio"
        )
    candidates = [change("num_iterations", 1, "one pass over each generation batch")] if mu > 1 else []
    if run.since("0.18.0"):
        unit = spg * mu
        candidates += [spg_change(run, s) for s in by_distance(divisors(gas // mu), spg)] if gas % mu == 0 else []
        candidates += [
            gas_change(run, a) for a in by_distance({(gas // unit) * unit, -(-gas // unit) * unit} - {0}, gas)
        ]
    return finding(run, "trl.off-policy-steps", "warning", head + tail, keys, candidates)


def dapo_loss_scale(run: Run) -> Finding | None:
    """dapo/cispo/vespo divide by the token count of the whole generation batch; with spg != GAS the gradient comes
    out scaled by GAS/spg until 1.10 (PR #6024; §5, §7 item 6)."""
    loss_type, spg, gas = run.get("loss_type"), run.steps_per_generation(), run.gas
    if not run.band("0.22.0", "1.10.0") or loss_type not in DAPO_NORMALISED or spg == gas or run.both_generation_keys:
        return None
    if spg is None:  # generation_batch_size given: steps_per_generation follows from the world size
        return needs_world_size("trl.dapo-loss-scale")
    if not spg:
        return None
    return finding(
        run,
        "trl.dapo-loss-scale",
        "warning",
        f"loss_type '{loss_type}' with steps_per_generation {spg} != gradient_accumulation_steps {gas}: "
        f"trl {run.version} normalises by the token count of the whole generation batch, so gradients "
        f"are scaled by gradient_accumulation_steps / steps_per_generation = {gas}/{spg} = "
        f"{fmt(Fraction(gas, spg))} (fixed in trl 1.10)",
        ["loss_type", "steps_per_generation", "gradient_accumulation_steps"],
        [spg_change(run, gas), gas_change(run, spg), change("loss_type", "bnpo", "a token mean per micro-batch")],
    )


# In the order TRL meets them: TrlParser, GRPOConfig.__post_init__, GRPOTrainer.__init__; then the warnings.
RULES: tuple[Rule, ...] = (
    unknown_config_keys,
    unknown_cli_arguments,
    unknown_script_arguments,
    auto_find_batch_size,
    sequence_parallel,
    generation_batch_exclusive,
    generation_batch_divisible,
    generation_batch_floored,
    num_generations_min,
    num_generations_divisible,
    eval_batch_divisible,
    liger_two_sided,
    vllm_is_clip_range,
    vllm_is_truncate_bounds,
    vllm_tensor_parallel,
    reward_weights_length,
    vllm_device_available,
    sync_ref_model_beta,
    cosine_min_lr_kwargs,
    max_prompt_length_ignored,
    off_policy_steps,
    dapo_loss_scale,
)
