"""Text reports for people: the plan with units and derivations, notes, translation summaries."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from translator.dialects.base import fmt
from translator.notes import Note
from translator.plan import PLAN_FIELDS, SECTIONS, field_names
from translator.summary import plural, policy_status, run_length, step_picture

if TYPE_CHECKING:  # only for annotations: the command that needs each imports it
    from translator.api import Explanation, Translation
    from translator.checks.findings import CheckReport
    from translator.compare import DiffReport

# canonical field → the unit phrase that follows its value: (one, many).
UNITS: dict[str, tuple[str, str]] = {
    "plan.prompts_per_step": ("prompt per step", "prompts per step"),
    "plan.samples_per_prompt": ("sample per prompt", "samples per prompt"),
    "plan.samples_per_step": ("sample per step", "samples per step"),
    "plan.samples_per_optimizer_step": ("sample per optimizer step", "samples per optimizer step"),
    "plan.optimizer_steps_per_step": ("optimizer step per step", "optimizer steps per step"),
    "plan.epochs_per_step": ("pass over each step's samples", "passes over each step's samples"),
    "plan.data_parallel_size": ("data-parallel rank", "data-parallel ranks"),
    "plan.micro_batch_per_device": ("sample per micro-batch per rank", "samples per micro-batch per rank"),
    "plan.grad_accum_steps": ("micro-batch per optimizer step per rank", "micro-batches per optimizer step per rank"),
    "plan.total_steps": ("step in the run", "steps in the run"),
    "topology.nodes": ("node", "nodes"),
    "topology.gpus_per_node": ("GPU per node", "GPUs per node"),
    "topology.training_gpus": ("training GPU", "training GPUs"),
    "topology.rollout_gpus": ("GPU for rollout only", "GPUs for rollout only"),
    "topology.rollout_engines": ("inference engine", "inference engines"),
    "token_budget.max_tokens_per_device": ("token per micro-batch per rank", "tokens per micro-batch per rank"),
    "token_budget.logprob_max_tokens_per_device": ("token per log-prob micro-batch per rank",
                                                   "tokens per log-prob micro-batch per rank"),
    "generation.prompts_per_round": ("prompt per generation round", "prompts per generation round"),
    "generation.max_rounds_per_step": ("round per step", "rounds per step"),
    "generation.logprob_micro_batch_per_device": ("sample per log-prob micro-batch per rank",
                                                  "samples per log-prob micro-batch per rank"),
    "run_length.dataset_passes": ("pass over the dataset", "passes over the dataset"),
    "run_length.total_optimizer_steps": ("optimizer step", "optimizer steps"),
    "run_length.total_samples": ("sample", "samples"),
    "lengths.max_prompt_tokens": ("token", "tokens"),
    "lengths.max_response_tokens": ("token", "tokens"),
    "critic.samples_per_optimizer_step": ("sample per optimizer step", "samples per optimizer step"),
    "critic.epochs_per_step": ("pass over each step's samples", "passes over each step's samples"),
    "critic.micro_batch_per_device": ("sample per micro-batch per rank", "samples per micro-batch per rank"),
    "asynchrony.max_steps_ahead": ("step ahead", "steps ahead"),
    "data.max_train_prompts": ("prompt", "prompts"),
    "data.max_eval_prompts": ("prompt", "prompts"),
    "checkpointing.every_steps": ("step between checkpoints", "steps between checkpoints"),
    "checkpointing.keep_last": ("checkpoint kept", "checkpoints kept"),
    "evaluation.every_steps": ("step between evaluations", "steps between evaluations"),
}
WARMUP_UNITS = {"steps": ("rollout step", "rollout steps"), "optimizer_steps": ("optimizer step", "optimizer steps")}
PLAN_UNITS = {name: UNITS[f"plan.{name}"][1] for name in PLAN_FIELDS}  # the plural phrases, by plan field


def quantity(name: str, value: Any, spec: Any = None) -> str:
    """A canonical field's value for people: with its unit, lists as ``a, b``, None as ``unset``."""
    if value is None:
        return "unset"
    unit = UNITS.get(name)
    if name == "optimizer.warmup_steps" and spec is not None:
        unit = WARMUP_UNITS.get(spec.optimizer.warmup_unit or "optimizer_steps")
    if unit is not None and isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return plural(value, *unit)
    return show(value)


ORIGIN_WORDS = {"config": "", "default": " (default)", "derived": "", "assumed": " (assumed)", "unknown": ""}


def explanation_text(explanation: Explanation) -> str:
    spec = explanation.spec
    lines = [f"{explanation.source}: {spec.framework} {spec.version or ''}".rstrip(),
             "", "Batch plan (a step is one rollout step; a sample is one completion):"]
    certainty = explanation.certainty
    for name in PLAN_FIELDS:
        value = getattr(spec.plan, name)
        derivation = spec.derivations.get(f"plan.{name}")
        sure = certainty[name]
        if value is None:
            lines.append(f"  {name}: unknown: {sure.why}" + (f" ({sure.hint})" if sure.hint else ""))
            continue
        text = quantity(f"plan.{name}", value)
        if sure.level == "assumed":
            text += f" (assumed: {sure.why}" + (f"; {sure.hint}" if sure.hint else "") + ")"
        elif derivation and derivation.text:
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
            lines.extend(f"  {name}: {show(value)}{_provenance(spec, f'{section}.{name}')}" for name, value in shown)
    if spec.extras:
        lines += ["", f"Carried along ({plural(len(spec.extras), 'native key', 'native keys')} with no canonical field):"]
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
    label = {"config": "", "default": "default: ", "derived": "derived: ", "assumed": "assumed: ",
             "unknown": ""}[derivation.origin]
    return f"  ({label}{derivation.text})"


def _run_lines(run: dict[str, Any]) -> list[str]:
    if run["steps"] is None:
        known = [f"{name.replace('_', ' ')}: {fmt(run[name])}" for name in ("dataset_passes",) if run[name] is not None]
        return [f"  {line}" for line in known] + [
            "  steps: unknown (depends on the dataset size; pass --dataset-size PROMPTS)"]
    lines = [f"  {plural(run['steps'], 'step', 'steps')} ({run['basis']})"]
    for name, one, many in (("optimizer_steps", "optimizer step", "optimizer steps"), ("samples", "sample", "samples"),
                            ("prompts", "prompt", "prompts"),
                            ("dataset_passes", "pass over the dataset", "passes over the dataset")):
        if run[name] is not None:
            lines.append(f"  {plural(run[name], one, many)}")
    if run["steps_per_dataset_pass"] is not None:
        lines.append(f"  ({plural(run['steps_per_dataset_pass'], 'step', 'steps')} per pass over "
                     f"{plural(run['dataset_size'], 'prompt', 'prompts')}; the last partial batch is dropped)")
    return lines


def show(value: Any) -> str:
    """A value as people read it in a sentence: lists as ``a, b``, mappings as ``k: v``, never a Python repr."""
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value) if value else "(empty list)"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return fmt(value)


def setting(key: str, value: Any) -> str:
    """A native ``key=value`` as a fix shows it: ``key=(remove)`` for a removal, lists in YAML flow style."""
    if value is None:
        return f"{key}=(remove)"
    if isinstance(value, (list, tuple)):
        return f"{key}=[{', '.join(show(v) for v in value)}]"
    return f"{key}={show(value)}"


def settings(changes: dict[str, Any]) -> str:
    return ", ".join(setting(k, v) for k, v in changes.items())


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
        lines.append(f"  {name}: " + ("unknown" if value is None else quantity(f"plan.{name}", value)))
    lines += notes_text(translation.source.notes + translation.notes)
    if translation.alternatives:
        lines += ["", "Settings that keep the source's plan exactly:"]
        for number, alternative in enumerate(translation.alternatives, 1):
            moved = ", ".join(f"{name.split('.', 1)[1]} {'unset' if a is None else show(a)} → "
                              f"{'unset' if b is None else show(b)}"
                              for name, (a, b) in alternative.changes_plan.items())
            lines.append(f"  {number}. {settings(alternative.changes) or '(the same keys)'}")
            lines.append(f"     changes {moved}; keeps " + ", ".join(
                quantity(name, value) for name, value in alternative.keeps.items()
                if name in ("plan.prompts_per_step", "plan.samples_per_prompt", "plan.samples_per_optimizer_step")))
            lines.extend(f"     run: {command}" for command in alternative.command.splitlines())
    return "\n".join(lines) + "\n"


def check_text(report: CheckReport) -> str:
    head = (f"{report.source}: {report.framework} {report.version or ''} — "
            f"{plural(len(report.errors), 'error', 'errors')}, {plural(len(report.warnings), 'warning', 'warnings')}")
    if report.skipped:
        head += f", {plural(len(report.skipped), 'rule', 'rules')} skipped"
    lines = [head]
    for finding in report.errors + report.warnings:
        lines += ["", f"{finding.severity} [{finding.rule}] {finding.message}"]
        if finding.values:
            lines.append("  values: " + ", ".join(f"{k}={show(v)}" for k, v in finding.values.items()))
        for suggestion in finding.suggestions:
            lines.append(f"  fix: {settings(suggestion.changes)}" + (f"  ({suggestion.text})" if suggestion.text else ""))
    for skipped in report.skipped:
        lines += ["", f"skipped: {skipped.rule} needs {skipped.needs} ({skipped.hint})"]
    if not report.errors and not report.warnings:
        lines.append("no rule that could run is broken" if report.skipped else "no rule is broken")
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
            if d.kind == "renamed":
                same = show(d.a.value) if d.a.value == d.b.value else f"A {show(d.a.value)} | B {show(d.b.value)}"
                lines.append(f"  {d.field}: renamed {', '.join(d.a.keys)} → {', '.join(d.b.keys)} ({same})")
                continue
            keys_a = f" [{', '.join(d.a.keys)}]" if d.a.keys else ""
            keys_b = f" [{', '.join(d.b.keys)}]" if d.b.keys else ""
            lines.append(f"  {d.field}: A {quantity(d.field, d.a.value, a.spec)}{keys_a} | "
                         f"B {quantity(d.field, d.b.value, b.spec)}{keys_b}"
                         + (f" (no canonical field; {d.reason})" if d.reason else ""))
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
