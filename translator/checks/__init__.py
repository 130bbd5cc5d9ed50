"""Rule checks per framework: ``check(native, spec, version) -> list[Finding]``, in the module a framework's
registration names (its ``checks``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from translator.checks.findings import CheckReport, Finding, Suggestion
from translator.dialects import registry
from translator.dialects.base import Values
from translator.plan import RunSpec

Rules = Callable[[Values, RunSpec, str], list[Finding]]


def rules_for(framework: str) -> Rules | None:
    """The framework's ``check``; None for a framework without rules (or without a module for them yet)."""
    entry = registry.lookup(framework)
    module = entry.checks if entry else None
    if module is None:
        return None
    try:
        return importlib.import_module(module).check
    except ModuleNotFoundError as error:
        if error.name == module:
            return None
        raise


__all__ = ["CheckReport", "Finding", "Suggestion", "rules_for"]
