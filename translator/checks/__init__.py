"""Rule checks per framework: ``check(native, spec, version) -> list[Finding]`` in one module each."""
from __future__ import annotations

import importlib
from collections.abc import Callable

from translator.checks.findings import CheckReport, Finding, Suggestion
from translator.dialects.base import Values
from translator.plan import RunSpec

Rules = Callable[[Values, RunSpec, str], list[Finding]]

# framework → module with a `check` function; frameworks without rules yet have no entry.
_RULES = {
    "verl": "translator.frameworks.verl.checks",
    "easyr1": "translator.frameworks.easyr1.checks",
    "trl": "translator.frameworks.trl.checks",
    "openrlhf": "translator.frameworks.openrlhf.checks",
    "open-instruct": "translator.frameworks.open_instruct.checks",
}


def register_rules(framework: str, module: str) -> None:
    """The rules of a framework added with translator.dialects.register: a module with a ``check`` function."""
    _RULES[framework] = module


def rules_for(framework: str) -> Rules | None:
    module = _RULES.get(framework)
    if module is None:
        return None
    try:
        return importlib.import_module(module).check  # type: ignore[no-any-return]
    except ModuleNotFoundError as error:
        if error.name == module:
            return None
        raise


__all__ = ["CheckReport", "Finding", "Suggestion", "register_rules", "rules_for"]
