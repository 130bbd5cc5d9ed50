"""Text reports for people: the plan with units and derivations, notes, translation summaries."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from translator.dialects.base import fmt
from translator.notes import Note
from translator.plan import PLAN_FIELDS, SECTIONS, field_names
from translator.summary import policy_status, run_length, step_picture

if TYPE_CHECKING:  # only for annotations: the command that needs each imports it
    from translator.api import Explanation, Translation
    from translator.checks.findings import CheckReport
    from translator.compare import DiffReport

# plan field → the unit phrase that follows its value.
PLAN_UNITS = {
    "prompts_per_step": "prompts per step",
    "samples_per_prompt": "samples per prompt",
    "samples_per_step": "samples per step",
    "samples_per_optimizer_step": "samples per optimizer step",
    "optimizer_steps_per_step": "optimizer steps per step",
    "epochs_per_step": "passes over each step's samples",
    "data_parallel_size": "data-parallel ranks",
    "micro_batch_per_device": "samples per micro-batch per rank",
    "grad_accum_steps": "micro-batches per optimizer step per rank",
    "total_steps": "steps in the run",
}
ORIGIN_WORDS = {"config": "", "default": " (default)", "derived": "", "assumed": " (assumed)", "unknown": ""}


def explanation_text(explanation: Explanation) -> str:
    spec = explanation.spec
    lines = [f"{explanation.source}: {spec.framework} {spec.version or ''}".rstrip(),
             "", "Batch plan (a step is one rollout step; a sample is one completion):"]
    for name in PLAN_FIELDS:
        value = getattr(spec.plan, name)
        derivation = spec.derivations.get(f"plan.{name}")
        if value is None:
            if derivation is not None and derivation.origin == "unknown":  # a variable the script never sets
                lines.append(f"  {name}: {derivation.text}")
                continue
            lines.append(f"  {name}: unknown" + _why_unknown(name, spec))
            continue
        text = f"{fmt(value)} {PLAN_UNITS[name]}"
        if derivation and derivation.text:
            text += f" = {derivation.text}{ORIGIN_WORDS.get(derivation.origin, '')}"
        lines.append(f"  {text}")
    lines += ["", "One step:"] + [f"  {line}" for line in step_picture(spec)]
    policy = policy_status(spec)
    state = {True: "on-policy", False: "off-policy", None: "unknown"}[policy["on_policy"]]
    lines += ["", f"Policy: {state}"] + [f"  {reason}" for reason in policy["reasons"]]
    run = run_length(spec, explanation.dataset_size)
    lines += ["", "The whole run:"] + _run_lines(run)
    for section in SECTIONS:
        if section == "plan":
            continue
        values = [(name, getattr(getattr(spec, section), name)) for name in field_names(section)]
        shown = [(n, v) for n, v in values if v is not None]
        if shown:
            lines.append("")
            lines.append(f"{section.replace('_', ' ').capitalize()}:")
            lines.extend(f"  {name}: {_show(value)}{_provenance(spec, f'{section}.{name}')}" for name, value in shown)
    if spec.extras:
        lines += ["", f"Carried along ({len(spec.extras)} native key(s) with no canonical field):"]
        lines.extend(f"  {e.key} = {_show(e.value)}" for e in spec.extras)
    lines += notes_text(explanation.notes)
    return "\n".join(lines) + "\n"


def _provenance(spec: Any, dotted: str) -> str:
    derivation = spec.derivations.get(dotted)
    if derivation is None:
        return ""
    if derivation.origin == "derived" and derivation.text == "derived":
        return "  (derived)"
    label = {"config": "", "default": "default: ", "derived": "derived: ", "assumed": "assumed: ",
             "unknown": ""}[derivation.origin]
    return f"  ({label}{derivation.text})"


def _run_lines(run: dict[str, Any]) -> list[str]:
    if run["steps"] is None:
        known = [f"{name.replace('_', ' ')}: {fmt(run[name])}" for name in ("dataset_passes",) if run[name] is not None]
        return [f"  {line}" for line in known] + [
            "  steps: unknown (depends on the dataset size; pass --dataset-size PROMPTS)"]
    lines = [f"  {fmt(run['steps'])} steps ({run['basis']})"]
    for name, unit in (("optimizer_steps", "optimizer steps"), ("samples", "samples"), ("prompts", "prompts"),
                       ("dataset_passes", "passes over the dataset")):
        if run[name] is not None:
            lines.append(f"  {fmt(run[name])} {unit}")
    if run["steps_per_dataset_pass"] is not None:
        lines.append(f"  ({run['steps_per_dataset_pass']} steps per pass over {run['dataset_size']} prompts; "
                     "the last partial batch is dropped)")
    return lines


def _why_unknown(name: str, spec: Any) -> str:
    if name in ("micro_batch_per_device", "grad_accum_steps") and spec.token_budget.dynamic_batching:
        return " (micro-batches are packed by a token budget)"
    if name == "total_steps":
        return " (depends on the dataset size)"
    if spec.plan.data_parallel_size is None:
        return " (the world size is not stated; pass --num-processes)"
    return ""


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return fmt(value)


def notes_text(notes: list[Note]) -> list[str]:
    if not notes:
        return []
    lines = ["", "Notes:"]
    lines.extend(f"  {n.severity}: [{n.code}] {n.message}" for n in notes)
    return lines


def translation_text(translation: Translation, written: list[str] | None = None) -> str:
    lines = [f"{translation.source.source} ({translation.source.framework} {translation.source.version}) → "
             f"{translation.framework} {translation.version}"]
    if written is not None:
        lines += ["", "Wrote:"] + [f"  {path}" for path in written]
    else:
        for name, text in translation.files.items():
            lines += ["", f"==> {name} <==", text.rstrip("\n")]
    lines += ["", "Plan of the written config:"]
    for name in PLAN_FIELDS:
        value = translation.plan[name]
        lines.append(f"  {name}: " + ("unknown" if value is None else f"{fmt(value)} {PLAN_UNITS[name]}"))
    lines += notes_text(translation.source.notes + translation.notes)
    return "\n".join(lines) + "\n"


def check_text(report: CheckReport) -> str:
    head = (f"{report.source}: {report.framework} {report.version or ''} — {len(report.errors)} error(s), "
            f"{len(report.warnings)} warning(s)")
    lines = [head]
    for finding in report.errors + report.warnings:
        lines += ["", f"{finding.severity} [{finding.rule}] {finding.message}"]
        if finding.values:
            lines.append("  values: " + ", ".join(f"{k}={_show(v)}" for k, v in finding.values.items()))
        for suggestion in finding.suggestions:
            changes = ", ".join(f"{k}=(remove)" if v is None else f"{k}={_show(v)}"
                                for k, v in suggestion.changes.items())
            lines.append(f"  fix: {changes}" + (f"  ({suggestion.text})" if suggestion.text else ""))
    if not report.errors and not report.warnings:
        lines.append("no rule is broken")
    return "\n".join(lines) + "\n"


def diff_text(report: DiffReport) -> str:
    a, b = report.a, report.b
    lines = [f"A: {a.source} ({a.framework} {a.version or ''})", f"B: {b.source} ({b.framework} {b.version or ''})"]
    if not report.differences:
        return "\n".join(lines + ["", "no semantic difference"]) + "\n"
    by_category: dict[str, list[Any]] = {}
    for difference in report.differences:
        by_category.setdefault(difference.category, []).append(difference)
    for category in ("batch", "algorithm", "run-length", "infrastructure", "other"):
        items = by_category.get(category, [])
        if not items:
            continue
        lines += ["", f"{category} ({len(items)}):"]
        for d in items:
            keys_a = f" [{', '.join(d.a.keys)}]" if d.a.keys else ""
            keys_b = f" [{', '.join(d.b.keys)}]" if d.b.keys else ""
            lines.append(f"  {d.field}: A {_show(d.a.value)}{keys_a} | B {_show(d.b.value)}{keys_b}")
    return "\n".join(lines) + "\n"


def frameworks_text(listing: list[dict[str, Any]]) -> str:
    lines = []
    for entry in listing:
        aliases = f" (aliases: {', '.join(entry['aliases'])})" if entry["aliases"] else ""
        lines += [f"{entry['name']}{aliases}: {entry['description']}",
                  f"  default version: {entry['default_version']}"]
        for version in entry["versions"]:
            lines.append(f"  {version['version']}" + (f": {version['changes']}" if version["changes"] else ""))
        lines.append("")
    return "\n".join(lines)
