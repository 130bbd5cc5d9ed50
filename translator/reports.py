"""Reports of a many-file run: text, json, GitHub workflow commands, SARIF 2.1.0; and the summaries."""

from __future__ import annotations

import os
from typing import Any

from translator.lines import line_of
from translator.results import EXIT_INPUT, EXIT_INTERNAL, FileResult, Skipped, worst
from translator.summary import plural

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
UNREADABLE_RULE = "rlconf.unreadable"


def _n(count: int, noun: str) -> str:
    """'1 config', '3 configs'."""
    return plural(count, noun, noun + "s")


def check_summary(results: list[FileResult], skipped: list[Skipped]) -> dict[str, Any]:
    return {
        "files": len(results),
        "clean": sum(1 for r in results if r.exit_code == 0),
        "with_findings": sum(1 for r in results if r.exit_code == 1),
        "unreadable": sum(1 for r in results if r.exit_code >= EXIT_INPUT),
        "errors": sum(len(r.report.errors) for r in results if r.report),
        "warnings": sum(len(r.report.warnings) for r in results if r.report),
        "suppressed": sum(len(r.report.suppressed) for r in results if r.report),
        "skipped": len(skipped),
        "exit_code": worst(results),
    }


def summary_line(summary: dict[str, Any]) -> str:
    return (
        f"{_n(summary['files'], 'config')} checked: {summary['clean']} clean, {summary['with_findings']} with "
        f"findings ({_n(summary['errors'], 'error')}, {_n(summary['warnings'], 'warning')}"
        f"{suppressed_count(summary['suppressed'])}), "
        f"{summary['unreadable']} unreadable; {_n(summary['skipped'], 'file')} skipped"
    )


def suppressed_count(count: int) -> str:
    """', 2 suppressed' (nothing when none is)."""
    return f", {count} suppressed" if count else ""


def suppressed_text(items: list[Any], show: bool) -> list[str]:
    """The findings or notes a comment in the config silenced: counted, and listed with --show-suppressed."""
    if not items:
        return []
    lines = [f"{len(items)} suppressed by comments in the config" + ("" if show else " (--show-suppressed lists them)")]
    if show:
        lines += [
            f"  suppressed {s.severity} [{s.code}]" + (f" line {s.line}" if s.line else "") + f": {s.message}"
            for s in items
        ]
    return lines


def skipped_text(skipped: list[Skipped]) -> list[str]:
    if not skipped:
        return []
    return [f"skipped {_n(len(skipped), 'file')}:", *(f"  {s.path} ({s.reason})" for s in skipped)]


def check_text(results: list[FileResult], skipped: list[Skipped], show_suppressed: bool = False) -> str:
    blocks = [
        one_check_text(r.report, show_suppressed).rstrip("\n") if r.report else f"{r.path}: error: {r.error}"
        for r in results
    ]
    lines = ["\n\n".join(blocks)] if blocks else []
    tail = skipped_text(skipped)
    return (
        "\n\n".join([*lines, *(["\n".join(tail)] if tail else []), summary_line(check_summary(results, skipped))])
        + "\n"
    )


def one_check_text(report: Any, show_suppressed: bool) -> str:
    """One config's check report, with what comments in it suppressed."""
    from translator import render

    return render.check_text(report) + "".join(
        f"{line}\n" for line in suppressed_text(report.suppressed, show_suppressed)
    )


def check_json(results: list[FileResult], skipped: list[Skipped]) -> dict[str, Any]:
    files = []
    for r in results:
        entry: dict[str, Any] = {"path": r.path, "exit_code": r.exit_code}
        if r.report is not None:
            entry.update(r.report.to_dict())
        else:
            entry["error"] = r.error
        files.append(entry)
    return {"files": files, "skipped": [s.to_dict() for s in skipped], "summary": check_summary(results, skipped)}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def check_github(results: list[FileResult], skipped: list[Skipped]) -> str:
    """GitHub Actions workflow commands: one annotation per finding at its file and line."""
    lines = []
    for r in results:
        if r.report is None:
            lines.append(
                f"::error file={_escape_property(r.path)},title={UNREADABLE_RULE}::{_escape_data(r.error or '')}"
            )
            continue
        for finding in r.report.errors + r.report.warnings:
            command = "error" if finding.severity == "error" else "warning"
            line = line_of(r.text, finding.keys)
            lines.append(
                f"::{command} file={_escape_property(r.path)},line={line},"
                f"title={_escape_property(finding.rule)}::{_escape_data(_with_fix(finding))}"
            )
    lines.append(summary_line(check_summary(results, skipped)))
    return "\n".join(lines) + "\n"


def _with_fix(finding: Any) -> str:
    if not finding.suggestions:
        return finding.message
    from translator.wording import settings  # a removal reads key=(remove), lists as [a, b]: never a Python repr

    return f"{finding.message} (nearest fix: {settings(finding.suggestions[0].changes)})"


def check_sarif(results: list[FileResult], skipped: list[Skipped], version: str) -> dict[str, Any]:
    """One SARIF 2.1.0 log: a run of the rlconf tool, a result per finding (or unreadable file)."""
    rules: dict[str, dict[str, Any]] = {}
    sarif_results = []
    for r in results:
        uri = sarif_uri(r.path)
        if r.report is None:
            rules.setdefault(UNREADABLE_RULE, _rule(UNREADABLE_RULE, "The file could not be read as a config"))
            level = "error" if r.exit_code in (EXIT_INPUT, EXIT_INTERNAL) else "note"
            sarif_results.append(_result(UNREADABLE_RULE, level, r.error or "", uri, 1))
            continue
        for finding in r.report.errors + r.report.warnings:
            rules.setdefault(finding.rule, _rule(finding.rule, f"{r.report.framework} rule {finding.rule}"))
            sarif_results.append(
                _result(
                    finding.rule,
                    "error" if finding.severity == "error" else "warning",
                    _with_fix(finding),
                    uri,
                    line_of(r.text, finding.keys),
                )
            )
    driver = {
        "name": "rlconf",
        "version": version,
        "informationUri": "https://github.com/rlconf/rlconf",
        "rules": list(rules.values()),
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "results": sarif_results,
                "invocations": [{"executionSuccessful": worst(results) < EXIT_INPUT}],
            }
        ],
    }


def sarif_uri(path: str) -> str:
    """A relative URI reference for a path (SARIF artifactLocation.uri): '/' separators, every other character
    that is not unreserved percent-encoded ('#', '?', '%', spaces, newlines, a backslash in a POSIX name)."""
    from urllib.parse import quote

    if os.sep == "\\":  # on Windows a backslash is the separator; on POSIX it is part of the name
        path = path.replace("\\", "/")
    return quote(path, safe="/")


def _rule(rule_id: str, text: str) -> dict[str, Any]:
    return {"id": rule_id, "shortDescription": {"text": text}}


def _result(rule_id: str, level: str, message: str, uri: str, line: int) -> dict[str, Any]:
    return {
        "ruleId": rule_id,
        "level": level,
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": max(1, line)}}}],
    }


# ---- explain ---------------------------------------------------------------------------------------


def explain_text(results: list[FileResult], skipped: list[Skipped]) -> str:
    from translator import render

    blocks = [
        render.explanation_text(r.explanation).rstrip("\n") if r.explanation else f"{r.path}: error: {r.error}"
        for r in results
    ]
    tail = skipped_text(skipped)
    failed = sum(1 for r in results if r.exit_code >= EXIT_INPUT)
    summary = f"{_n(len(results), 'config')} explained, {failed} unreadable; {_n(len(skipped), 'file')} skipped"
    return "\n\n".join([*blocks, *(["\n".join(tail)] if tail else []), summary]) + "\n"


def explain_json(results: list[FileResult], skipped: list[Skipped]) -> dict[str, Any]:
    files = [
        {
            "path": r.path,
            "exit_code": r.exit_code,
            **({"explanation": r.explanation.to_dict()} if r.explanation else {"error": r.error}),
        }
        for r in results
    ]
    return {
        "files": files,
        "skipped": [s.to_dict() for s in skipped],
        "summary": {
            "files": len(results),
            "unreadable": sum(1 for r in results if r.exit_code >= EXIT_INPUT),
            "skipped": len(skipped),
            "exit_code": worst(results),
        },
    }


# ---- translate -------------------------------------------------------------------------------------

CHANGE_CODES = ("plan.not-preserved", "translation.changed")


def translation_row(r: FileResult) -> dict[str, Any]:
    """kept (the plan and key semantics came through exactly), changed (which fields), failed (why)."""
    row: dict[str, Any] = {"path": r.path, "exit_code": r.exit_code, "framework": r.framework, "version": r.version}
    if r.translation is None:
        return {**row, "status": "failed", "reason": r.error}
    notes = r.translation.notes
    changed = sorted({key for n in notes if n.code in CHANGE_CODES for key in n.source_keys})
    rejected = [n.message for n in notes if n.code == "target.rejected"]
    return {
        **row,
        "status": "changed" if changed else "kept",
        "changed_fields": changed,
        "rejected": rejected,
        "output_dir": r.output_dir,
        "written": r.written,
        "suppressed": [s.to_dict() for s in r.translation.suppressed],
    }


def translate_json(results: list[FileResult], skipped: list[Skipped], target: str) -> dict[str, Any]:
    rows = [translation_row(r) for r in results]
    return {
        "target": target,
        "files": rows,
        "skipped": [s.to_dict() for s in skipped],
        "summary": {
            "files": len(rows),
            **{status: sum(1 for row in rows if row["status"] == status) for status in ("kept", "changed", "failed")},
            "suppressed": sum(len(row.get("suppressed", [])) for row in rows),
            "skipped": len(skipped),
            "exit_code": worst(results),
        },
    }


def translate_text(
    results: list[FileResult], skipped: list[Skipped], target: str, show_suppressed: bool = False
) -> str:
    document = translate_json(results, skipped, target)
    rows = document["files"]
    width = max([len("source"), *(len(row["path"]) for row in rows)])
    lines = [f"{'source'.ljust(width)}  {'result':8}  detail", f"{'-' * width}  {'-' * 8}  {'-' * 6}"]
    for row in rows:
        if row["status"] == "failed":
            detail = row["reason"]
        elif row["status"] == "changed":
            detail = "changed: " + ", ".join(row["changed_fields"]) + f" → {row['output_dir']}"
        else:
            detail = f"plan kept exactly → {row['output_dir']}"
        if row.get("rejected"):
            detail += f"; {_n(len(row['rejected']), 'rejection')} by the target's rules"
        lines.append(f"{row['path'].ljust(width)}  {row['status']:8}  {detail}")
        if show_suppressed:
            lines += [
                f"  suppressed {s['severity']} [{s['code']}]"
                + (f" line {s['line']}" if s["line"] else "")
                + f": {s['message']}"
                for s in row.get("suppressed", [])
            ]
    tail = skipped_text(skipped)
    s = document["summary"]
    summary = (
        f"{_n(s['files'], 'config')} translated to {target}: {s['kept']} kept exactly, {s['changed']} changed, "
        f"{s['failed']} failed{suppressed_count(s['suppressed'])}; {_n(s['skipped'], 'file')} skipped"
    )
    return "\n\n".join(["\n".join(lines), *(["\n".join(tail)] if tail else []), summary]) + "\n"
