"""Text reports for people: the plan with units and derivations, notes, translation summaries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from translator.certainty import basis
from translator.dialects.base import fmt
from translator.notes import Note
from translator.plan import PLAN_FIELDS, SECTIONS, field_names
from translator.summary import plural, policy_status, run_length, step_picture
from translator.wording import quantity, settings, show

if TYPE_CHECKING:  # only for annotations: the command that needs each imports it
    from translator.api import Explanation, Translation
    from translator.checks.findings import CheckReport
    from translator.compare import DiffReport

ORIGIN_WORDS = {"config": "", "default": " (default)", "derived": "", "assumed": " (assumed)", "unknown": ""}


def explanation_text(explanation: Explanation) -> str:
    spec = explanation.spec
    lines = [
        f"{explanation.source}: {spec.framework} {spec.version or ''}".rstrip(),
        "",
        "Batch plan (a step is one rollout step; a sample is one completion):",
    ]
    certainty = explanation.certainty
    shared: list[str] = []  # assumptions several quantities rest on, printed once below the plan
    for name in PLAN_FIELDS:
        value = getattr(spec.plan, name)
        derivation = spec.derivations.get(f"plan.{name}")
        sure = certainty[name]
        if value is None:
            lines.append(f"  {name}: unknown: {sure.why}" + (f" ({sure.hint})" if sure.hint else ""))
            continue
        text = quantity(f"plan.{name}", value)
        if sure.level == "assumed":
            own, common = basis(sure.why)
            if common:
                if common not in shared:
                    shared.append(common)
                text += f" (assumed [{shared.index(common) + 1}]: {own})"
            else:
                text += f" (assumed: {sure.why}" + (f"; {sure.hint}" if sure.hint else "") + ")"
        elif derivation and derivation.text:
            text += f" = {derivation.text}{ORIGIN_WORDS.get(derivation.origin, '')}"
        lines.append(f"  {text}")
    hints = sorted({c.hint for c in certainty.values() if c.level == "assumed" and c.hint and basis(c.why)[1]})
    for number, common in enumerate(shared, 1):
        lines.append(
            f"  [{number}] read with upstream semantics: {common}" + (f" ({'; '.join(hints)})" if hints else "")
        )
    lines += ["", "One step:"] + [f"  {line}" for line in step_picture(spec)]
    policy = policy_status(spec)
    state = {True: "on-policy", False: "off-policy", None: "unknown"}[policy["on_policy"]]
    lines += ["", f"Policy: {state}"] + [f"  {reason}" for reason in policy["reasons"]]
    run = run_length(spec, explanation.dataset_size)
    steps = spec.derivations.get("plan.total_steps")
    why = steps.text.removeprefix("unknown: ") if steps is not None and steps.origin == "unknown" else None
    lines += ["", "The whole run:", *_run_lines(run, why)]
    for section in SECTIONS:
        if section == "plan":
            continue
        values = [(name, getattr(getattr(spec, section), name)) for name in field_names(section)]
        shown = [(n, v) for n, v in values if v is not None]
        if shown:
            lines.append("")
            lines.append(f"{section.replace('_', ' ').capitalize()}:")
            lines.extend(f"  {name}: {show(value)}{_provenance(spec, f'{section}.{name}')}" for name, value in shown)
    if spec.extras:
        lines += [
            "",
            f"Carried along ({plural(len(spec.extras), 'native key', 'native keys')} with no canonical field):",
        ]
        from translator.redact import redact

        lines.extend(f"  {e.key} = {show(redact(e.key, e.value))}" for e in spec.extras)
    lines += notes_text(explanation.notes)
    return "\n".join(lines) + "\n"


def _provenance(spec: Any, dotted: str) -> str:
    derivation = spec.derivations.get(dotted)
    if derivation is None:
        return ""
    if derivation.origin == "derived" and derivation.text == "derived":
        return "  (derived)"
    label = {"config": "", "default": "default: ", "derived": "derived: ", "assumed": "assumed: ", "unknown": ""}[
        derivation.origin
    ]
    return f"  ({label}{derivation.text})"


def _run_lines(run: dict[str, Any], why: str | None = None) -> list[str]:
    """The whole run's lines; ``why``: why the plan's total_steps is unknown, when it says."""
    if run["steps"] is None:
        known = [f"{name.replace('_', ' ')}: {fmt(run[name])}" for name in ("dataset_passes",) if run[name] is not None]
        if why is None or "dataset" in why:
            why = "depends on the dataset size; pass --dataset-size PROMPTS"
        return [f"  {line}" for line in known] + [f"  steps: unknown ({why})"]
    lines = [f"  {plural(run['steps'], 'step', 'steps')} ({run['basis']})"]
    for name, one, many in (
        ("optimizer_steps", "optimizer step", "optimizer steps"),
        ("samples", "sample", "samples"),
        ("prompts", "prompt", "prompts"),
        ("dataset_passes", "pass over the dataset", "passes over the dataset"),
    ):
        if run[name] is not None:
            lines.append(f"  {plural(run[name], one, many)}")
    if run["steps_per_dataset_pass"] is not None:
        lines.append(
            f"  ({plural(run['steps_per_dataset_pass'], 'step', 'steps')} per pass over "
            f"{plural(run['dataset_size'], 'prompt', 'prompts')}; the last partial batch is dropped)"
        )
    return lines


def notes_text(notes: list[Note]) -> list[str]:
    if not notes:
        return []
    lines = ["", "Notes:"]
    lines.extend(f"  {n.severity}: [{n.code}] {n.message}" for n in notes)
    return lines


def translation_text(translation: Translation, written: list[str] | None = None) -> str:
    lines = [
        f"{translation.source.source} ({translation.source.framework} {translation.source.version}) → "
        f"{translation.framework} {translation.version}"
    ]
    if written is not None:
        lines += ["", "Wrote:"] + [f"  {path}" for path in written]
    else:
        for name, text in translation.files.items():
            lines += ["", f"==> {name} <==", text.rstrip("\n")]
    lines += ["", "Plan of the written config:"]
    for name in PLAN_FIELDS:
        value = translation.plan[name]
        lines.append(f"  {name}: " + ("unknown" if value is None else quantity(f"plan.{name}", value)))
    lines += notes_text(translation.source.notes + translation.notes)
    if translation.alternatives:
        lines += ["", "Settings that keep the source's plan exactly:"]
        for number, alternative in enumerate(translation.alternatives, 1):
            moved = ", ".join(
                f"{name.split('.', 1)[1]} {'unset' if a is None else show(a)} → {'unset' if b is None else show(b)}"
                for name, (a, b) in alternative.changes_plan.items()
            )
            lines.append(f"  {number}. {settings(alternative.changes) or '(the same keys)'}")
            lines.append(
                f"     changes {moved}; keeps "
                + ", ".join(
                    quantity(name, value)
                    for name, value in alternative.keeps.items()
                    if name in ("plan.prompts_per_step", "plan.samples_per_prompt", "plan.samples_per_optimizer_step")
                )
            )
            lines.extend(f"     run: {command}" for command in alternative.command.splitlines())
    return "\n".join(lines) + "\n"


def check_text(report: CheckReport) -> str:
    head = (
        f"{report.source}: {report.framework} {report.version or ''} — "
        f"{plural(len(report.errors), 'error', 'errors')}, {plural(len(report.warnings), 'warning', 'warnings')}"
    )
    if report.skipped:
        head += f", {plural(len(report.skipped), 'rule', 'rules')} skipped"
    lines = [head]
    for finding in report.errors + report.warnings:
        lines += ["", f"{finding.severity} [{finding.rule}] {finding.message}"]
        if finding.values:
            lines.append("  values: " + ", ".join(f"{k}={show(v)}" for k, v in finding.values.items()))
        for suggestion in finding.suggestions:
            lines.append(
                f"  fix: {settings(suggestion.changes)}" + (f"  ({suggestion.text})" if suggestion.text else "")
            )
    for skipped in report.skipped:
        lines += ["", f"skipped: {skipped.rule} needs {skipped.needs} ({skipped.hint})"]
    if not report.errors and not report.warnings:
        lines.append("no rule that could run is broken" if report.skipped else "no rule is broken")
    return "\n".join(lines) + "\n"


def diff_text(report: DiffReport) -> str:
    a, b = report.a, report.b
    lines = [f"A: {a.source} ({a.framework} {a.version or ''})", f"B: {b.source} ({b.framework} {b.version or ''})"]
    if not report.differences:
        return "\n".join([*lines, "", "no semantic difference"]) + "\n"
    by_category: dict[str, list[Any]] = {}
    for difference in report.differences:
        by_category.setdefault(difference.category, []).append(difference)
    for category in ("batch", "algorithm", "run-length", "infrastructure", "other"):
        items = by_category.get(category, [])
        if not items:
            continue
        lines += ["", f"{category} ({len(items)}):"]
        for d in items:
            if d.kind == "renamed":
                same = show(d.a.value) if d.a.value == d.b.value else f"A {show(d.a.value)} | B {show(d.b.value)}"
                lines.append(f"  {d.field}: renamed {', '.join(d.a.keys)} → {', '.join(d.b.keys)} ({same})")
                continue
            keys_a = f" [{', '.join(d.a.keys)}]" if d.a.keys else ""
            keys_b = f" [{', '.join(d.b.keys)}]" if d.b.keys else ""
            lines.append(
                f"  {d.field}: A {quantity(d.field, d.a.value, a.spec)}{keys_a} | "
                f"B {quantity(d.field, d.b.value, b.spec)}{keys_b}"
                + (f" (no canonical field; {d.reason})" if d.reason else "")
            )
    return "\n".join(lines) + "\n"


def frameworks_text(listing: list[dict[str, Any]]) -> str:
    lines = []
    for entry in listing:
        aliases = f" (aliases: {', '.join(entry['aliases'])})" if entry["aliases"] else ""
        lines += [f"{entry['name']}{aliases}: {entry['description']}", f"  default version: {entry['default_version']}"]
        for version in entry["versions"]:
            lines.append(f"  {version['version']}" + (f": {version['changes']}" if version["changes"] else ""))
        lines.append("")
    return "\n".join(lines)
