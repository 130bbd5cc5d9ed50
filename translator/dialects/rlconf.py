"""The canonical model as a file (TOML or JSON): a neutral, editable spec of a run.

Derived plan quantities (samples_per_step, optimizer_steps_per_step, grad_accum_steps) are recomputed
from the stated ones; a stated derived value that disagrees gets a note.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

from translator.dialects.base import MAX_COUNT, MAX_GPUS, Dialect, Reading, ReadOptions
from translator.errors import ConfigError
from translator.notes import NoteList
from translator.plan import SECTIONS, Derivation, Extra, RunSpec, exact, field_names, to_json_number
from translator.sources.files import Source

DERIVED = ("samples_per_step", "optimizer_steps_per_step", "grad_accum_steps")
INT_FIELDS = {"samples_per_prompt", "epochs_per_step", "data_parallel_size", "total_steps"}


class RlconfDialect(Dialect):
    name = "rlconf"
    aliases = ("plan", "canonical")
    versions = ("1",)
    description = "rlconf's canonical model (explain --format toml|json), a neutral spec of a run"

    def read(self, source: Source, options: ReadOptions) -> Reading:
        data = _parse(source)
        if "plan" not in data or not isinstance(data["plan"], dict):
            raise ConfigError(
                "no [plan] table: not an rlconf plan file",
                file=source.name,
                hint="write one with 'rlconf explain CONFIG --format toml'",
            )
        notes = NoteList()
        spec = RunSpec(framework=str(data.get("framework", "rlconf")), version=_text(data.get("version")))
        for section in SECTIONS:
            table = data.get(section) or {}
            if not isinstance(table, dict):
                raise ConfigError(f"[{section}] must be a table", file=source.name, key=section)
            known = field_names(section)
            for key, value in table.items():
                if key not in known:
                    raise ConfigError(
                        f"unknown field {section}.{key}",
                        file=source.name,
                        key=f"{section}.{key}",
                        hint=f"known fields: {', '.join(known)}",
                    )
                if section == "plan" and key in DERIVED:
                    continue
                spec.set(
                    f"{section}.{key}",
                    _value(section, key, value, source.name),
                    Derivation(f"{section}.{key} in {source.name}", [f"{section}.{key}"], "config"),
                )
        # The plan's quantities that the file cannot derive (no counts to derive from) are kept as stated.
        plan_table = data["plan"]
        spec.plan.complete()
        for key in DERIVED:
            stated = plan_table.get(key)
            if stated is None:
                continue
            stated_value = _value("plan", key, stated, source.name)
            computed = getattr(spec.plan, key)
            if computed is None:
                setattr(spec.plan, key, stated_value)
            elif Fraction(computed) != Fraction(stated_value):
                notes.warning(
                    "plan.inconsistent",
                    f"plan.{key} = {stated} disagrees with the other plan values, "
                    f"which give {to_json_number(computed)}; the computed value is used",
                    source_keys=[f"plan.{key}"],
                )
        for extra in data.get("extras") or []:
            if isinstance(extra, dict) and {"framework", "key"} <= set(extra):
                spec.extras.append(Extra(str(extra["framework"]), str(extra["key"]), extra.get("value")))
        return Reading(spec, notes)

    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        return {"plan.toml": to_toml(spec)}


def to_document(spec: RunSpec, redacted: bool = False) -> dict[str, Any]:
    """The canonical model as plain data: framework, version, the sections, extras and derivations.
    ``redacted``: values of keys named like secrets shown as <redacted> (explain's output; a written plan
    keeps them, as every translation does)."""
    from translator.redact import redact

    document: dict[str, Any] = {"framework": spec.framework, "version": spec.version}
    document.update(spec.sections_dict())
    document["extras"] = [
        {"framework": e.framework, "key": e.key, "value": redact(e.key, e.value) if redacted else e.value}
        for e in spec.extras
    ]
    document["derivations"] = {
        k: {"text": d.text, "keys": d.keys, "origin": d.origin} for k, d in spec.derivations.items()
    }
    return document


def to_toml(spec: RunSpec, redacted: bool = False) -> str:
    """TOML has no null: unset fields are left out (reading back gives None for them)."""
    import tomli_w

    document = to_document(spec, redacted)
    document.pop("derivations")
    clean = _drop_none(document)
    header = (
        "# rlconf plan: one training run in framework-neutral units.\n"
        "# A step is one rollout step; a sample is one completion. Edit and run\n"
        "# 'rlconf translate THIS_FILE --to FRAMEWORK' to write a framework's config.\n"
    )
    return header + tomli_w.dumps(clean)


def _drop_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value if v is not None]
    return value


def _parse(source: Source) -> dict[str, Any]:
    if source.suffix == ".toml" or not source.text.lstrip().startswith("{"):
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - Python 3.10
            import tomli as tomllib
        try:
            return tomllib.loads(source.text)
        except (tomllib.TOMLDecodeError, ValueError) as exc:  # ValueError: an integer too long to convert
            raise ConfigError(f"broken TOML: {exc}", file=source.name, hint="fix the TOML syntax") from None
    try:
        data = json.loads(source.text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"broken JSON: {exc.msg}", file=source.name, line=exc.lineno, hint="fix the JSON syntax"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError("expected a JSON object", file=source.name)
    return data


# Counts that may be 0 (none / never / unlimited) and the one field that may be -1; other counts are ≥ 1.
ZERO_ALLOWED = {
    "topology.rollout_gpus",
    "generation.max_rounds_per_step",
    "asynchrony.max_steps_ahead",
    "checkpointing.every_steps",
    "evaluation.every_steps",
    "optimizer.warmup_steps",
    "checkpointing.keep_last",
    "run_length.total_optimizer_steps",
    "run_length.total_samples",
}
NEGATIVE_ALLOWED = {"sampling.top_k"}


def _value(section: str, key: str, value: Any, name: str) -> Any:
    dotted = f"{section}.{key}"
    if value is None:
        return value
    if section != "plan":
        return _typed(section, key, value, name)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value != value
        or value in (float("inf"), float("-inf"))
    ):
        raise ConfigError(f"{dotted} must be a number, got {_shown(value)}", file=name, key=dotted)
    number = exact(value) if abs(value) <= MAX_COUNT else None
    if number is None or number <= 0 or (key == "data_parallel_size" and number > MAX_GPUS):
        raise ConfigError(f"{dotted} must be greater than 0 and realistic, got {_shown(value)}", file=name, key=dotted)
    if key in INT_FIELDS and not isinstance(number, int):
        raise ConfigError(f"{dotted} must be a whole number, got {value}", file=name, key=dotted)
    return number


def _typed(section: str, key: str, value: Any, name: str) -> Any:
    """A field of another section, checked against its declared type: whole numbers within their range, finite
    numbers, text, switches, lists of these."""
    dotted = f"{section}.{key}"
    annotation = str(SECTIONS[section].__annotations__.get(key, "Any")).replace(" ", "")
    kind = annotation.split("|")[0]
    if kind.startswith("list["):
        if not isinstance(value, list):
            raise ConfigError(f"{dotted} must be a list, got {_shown(value)}", file=name, key=dotted)
        item = kind[5:-1]
        return [_scalar(dotted, item, v, name, dotted) for v in value]
    return _scalar(dotted, kind, value, name, dotted)


def _scalar(dotted: str, kind: str, value: Any, name: str, key: str) -> Any:
    wrong = ConfigError(f"{dotted} must be {_KINDS.get(kind, kind)}, got {_shown(value)}", file=name, key=key)
    if kind == "bool":
        if not isinstance(value, bool):
            raise wrong
    elif kind == "str":
        if not isinstance(value, str):
            raise wrong
    elif kind == "int":
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or abs(value) > (MAX_GPUS if dotted.startswith("topology.") else MAX_COUNT)
            or not float(value).is_integer()
        ):
            raise wrong
        value = int(value)
        low = -1 if dotted in NEGATIVE_ALLOWED else 0 if dotted in ZERO_ALLOWED else 1
        if value < low:
            raise ConfigError(f"{dotted} must be at least {low}, got {value}", file=name, key=key)
    elif kind == "float" and (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value != value
        or abs(value) == float("inf")
        or abs(value) > MAX_COUNT
    ):
        raise wrong
    return value


_KINDS = {"int": "a whole number", "float": "a finite number", "str": "text", "bool": "true or false"}


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
