"""The config schema of a project's own copy of EasyR1, read from its dataclasses (never imported): EasyR1 merges
the YAML and the command line into its structured ``PPOConfig`` (``verl/trainer/main.py``, OmegaConf.merge), which
raises ConfigKeyError on a key no dataclass of the copy declares. A fork adds fields of its own and drops some of
upstream's, so a copy is judged by its own classes, not by a release's."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from translator.sources.dataclass_schema import held_class

ROOT_CLASS = "PPOConfig"
MAX_FILES = 400  # the copy's .py files read (bounded, as every reading of a project is)


def dataclasses_of(folder: str) -> dict[str, dict[str, str] | None]:
    """Class name → {field: annotation} of every ``@dataclass`` in the copy's package ``folder`` (its .py files in
    the project's file index, outside tests, at most MAX_FILES); None for a name two classes share with different
    fields (which one a field means is not known)."""
    return _parsed(folder)[0]


_NO_DEFAULT = object()


def _literal_default(value: ast.expr | None) -> Any:
    """A field's default when it is a literal (``= 2``, ``= field(default=2)``); _NO_DEFAULT otherwise."""
    if isinstance(value, ast.Call) and ast.unparse(value.func).endswith("field"):
        value = next((k.value for k in value.keywords if k.arg == "default"), None)
    if value is None:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO_DEFAULT


@lru_cache(maxsize=16)
def _parsed(folder: str) -> tuple[dict[str, dict[str, str] | None], dict[str, dict[str, Any]]]:
    """dataclasses_of, and class name → {field: literal default} (fields with one)."""
    from translator.dialects.rejected_keys import in_tests
    from translator.sources.code import MAX_FILE_BYTES, project_files, project_root
    from translator.sources.files import read_text

    found: dict[str, dict[str, str] | None] = {}
    defaults: dict[str, dict[str, Any]] = {}
    inside = [
        p
        for p in project_files(project_root(folder))
        if p.startswith(folder + os.sep) and p.endswith(".py") and not in_tests(p)
    ]
    for path in inside[:MAX_FILES]:
        try:
            tree = ast.parse(read_text(path, MAX_FILE_BYTES) or "")
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                fields = {
                    item.target.id: ast.unparse(item.annotation)
                    for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                }
                if node.name in found and found[node.name] != fields:
                    found[node.name] = None
                else:
                    found.setdefault(node.name, fields)
                    defaults.setdefault(node.name, {})
                    for item in node.body:
                        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                            default = _literal_default(item.value)
                            if default is not _NO_DEFAULT:
                                defaults[node.name][item.target.id] = default
    return found, defaults


def missing_part(folder: str, key: str) -> str | None:
    """The first part of dotted ``key`` that the copy's dataclasses certainly lack ('algorrithm', or
    'worker.actor.entropy_coeff'); None when every part is declared, when the walk reaches a field whose type is not
    one of the copy's dataclasses (a dict, a scalar, a type rlconf cannot resolve: not judged), or when the copy's
    entry opens the node that lacks it to new keys (:func:`opened_depth`)."""
    classes = dataclasses_of(folder)
    current = ROOT_CLASS
    parts = key.split(".")
    for i, part in enumerate(parts):
        fields = classes.get(current)
        if fields is None:
            return None
        if part not in fields:
            return None if i < opened_depth(folder) else ".".join(parts[: i + 1])
        current = held_class(fields[part])
    return None


def field_type(folder: str, key: str) -> str | None:
    """The annotation the copy's dataclasses give dotted ``key`` ('bool', 'Optional[str]'); None where a part is
    not declared or the walk leaves the copy's dataclasses."""
    classes = dataclasses_of(folder)
    current, annotation = ROOT_CLASS, None
    for part in key.split("."):
        fields = classes.get(current) if current else None
        if fields is None or part not in fields:
            return None
        annotation = fields[part]
        current = held_class(annotation)
    return annotation


ENTRY = ("trainer", "main.py")  # the copy's entry, verl/trainer/main.py, which builds and merges the config


@lru_cache(maxsize=16)
def opened_depth(folder: str) -> int:
    """How deep the copy's entry opens its structured config to new keys before merging (a fork's main calling
    ``OmegaConf.set_struct(config, False)``: 1, the root takes new top-level keys; ``set_struct(config[key], False)``
    for each key: 2, each top-level section takes new keys too); 0 when it opens none (OmegaConf then raises
    ConfigKeyError on a key no dataclass declares). Deeper sections keep their own flag."""
    from translator.sources.code import MAX_FILE_BYTES
    from translator.sources.files import read_text

    try:
        tree = ast.parse(read_text(os.path.join(folder, *ENTRY), MAX_FILE_BYTES) or "")
    except (OSError, SyntaxError, ValueError):
        return 0
    depth = 0
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("set_struct")
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value is False
        ):
            continue
        target = node.args[0]
        if isinstance(target, ast.Name):
            depth = max(depth, 1)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            depth = max(depth, 2)
    return depth


def _leaves(classes: dict[str, dict[str, str] | None]) -> Iterator[tuple[str, str, str]]:
    """(dotted key, class, field) of every field from PPOConfig down through the fields holding one of its
    dataclasses, to the fields that hold none (nested at most 8 deep)."""

    def walk(name: str, prefix: str, depth: int) -> Iterator[tuple[str, str, str]]:
        for field, annotation in (classes.get(name) or {}).items():
            held = held_class(annotation)
            if classes.get(held) is not None and depth < 8:
                yield from walk(held, f"{prefix}{field}.", depth + 1)
            else:
                yield prefix + field, name, field

    return walk(ROOT_CLASS, "", 0)


def declared_keys(folder: str) -> set[str] | None:
    """Every dotted key the copy's config classes declare; None when the copy has no PPOConfig rlconf can read."""
    classes = dataclasses_of(folder)
    if classes.get(ROOT_CLASS) is None:
        return None
    return {key for key, _, _ in _leaves(classes)}


def declared_defaults(folder: str) -> dict[str, Any]:
    """Dotted key → the literal default the copy's config classes give it (a fork that changes a default, say
    ``ppo_epochs: int = 2``); {} when the copy has no PPOConfig rlconf can read."""
    classes, defaults = _parsed(folder)
    if classes.get(ROOT_CLASS) is None:
        return {}
    return {key: defaults[name][field] for key, name, field in _leaves(classes) if field in defaults.get(name, {})}
