#!/usr/bin/env python3
"""Generate the native JSON Schemas: for each supported framework version, the keys its own parser accepts,
with their JSON types and defaults, read from the framework's released source without installing it.

How it works (standard library + PyYAML only; nothing is imported from the frameworks):

* TRL 0.14.0 / 0.18.0 / 1.16.0: ``pip download --no-deps`` fetches the trl wheel and the wheel of the
  transformers release it is read with (the newest transformers that trl release resolves to today,
  ``NEWEST_TRANSFORMERS`` of translator/dialects/trl_tables.py, as trl requires no upper bound; for 0.18.0
  Open-R1's pin, 4.52.3, as Open-R1 recipes are what that schema serves). The transformers releases of
  ``TRANSFORMERS_VERSIONS`` also get a schema of their own: TrainingArguments alone (``transformers-X``), which
  the TRL writer checks a recipe against for the transformers it targets. The wheels are read with
  ``zipfile`` + ``ast``: the dataclasses the ``trl grpo`` / Open-R1 parser is built from (``GRPOConfig``
  with every base class up to transformers' ``TrainingArguments``, ``ModelConfig``, ``ScriptArguments``,
  ``GRPOScriptArguments``, ``DatasetMixtureConfig`` where it exists), each field's annotation and default.
  Open-R1's own arguments are added from ``translator/dialects/trl_tables.py`` ``OPEN_R1_KEYS`` (read with
  ``ast``, untyped), typed from Open-R1's ``src/open_r1/configs.py`` when ``--open-r1-src`` is given.
* verl 0.2.0.post2 / 0.3.0 (the 0.3.0.post1 wheel) / 0.4.1 / 0.7.1 / 0.8.0 / 0.9.0 / 0.9.1: the wheel's Hydra YAML defaults. ``_generated_ppo*_trainer.yaml`` (the fully
  composed configs verl ships since 0.5) where present, else ``ppo_trainer.yaml`` and
  ``ppo_megatron_trainer.yaml`` composed through their ``defaults`` lists (0.4.1 has none). Nested mappings
  are flattened into dotted keys; the type of a key is that of its default (verl's YAML is untyped).
* OpenRLHF 0.5.0–0.7.4 (each release that changed the flag set), 0.10.1, 0.11.2: the ``add_argument`` calls of ``openrlhf/cli/train_ppo_ray.py`` in the wheel,
  evaluated with ``ast`` (``for prefix in (...)`` loops and f-string flag names unrolled).
* EasyR1 and Open-Instruct ship no wheel: ``--easyr1-src DIR`` / ``--open-instruct-src DIR`` name a source
  checkout. EasyR1's ``PPOConfig`` dataclass tree (``verl/trainer/config.py``) becomes dotted keys;
  Open-Instruct's schema holds the dataclasses ``grpo_fast.py`` hands to ``ArgumentParserPlus`` (with its
  ``parser.set_defaults``). Without the option, that framework's schema is left as it is.

Python annotations map to JSON types: int → integer, float → number, bool → boolean, str → string,
Optional[...] adds null, list/tuple → array, dict → object, Literal/Enum → enum, anything else → {} (any).
A property whose type is an object also admits its dotted sub-keys (``patternProperties``).
``additionalProperties`` is false where the framework rejects unknown keys (Hydra for plain overrides,
TrlParser >= 0.19, argparse, EasyR1's OmegaConf merge into dataclasses); ``x-unknown-keys`` says how each
treats them, ``x-source`` what was read (wheel file name and sha256, or repository + commit, and the files).

Each schema is written to ``--out`` (``schemas/native``) and, identically, to ``--package-out``
(``translator/schema_data``, shipped as package data, which the validator reads at run time).

    python scripts/gen_schemas.py --out schemas/native --cache /tmp/wheels \\
        [--easyr1-src DIR [--easyr1-commit SHA]] [--open-instruct-src DIR [--open-instruct-commit SHA]] \\
        [--open-r1-src DIR [--open-r1-commit SHA]]

The output depends only on the wheels and checkouts read, so running it again gives the same files.
"""
from __future__ import annotations

import argparse
import ast
import glob
import hashlib
import json
import math
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

TRL_VERSIONS = ("0.14.0", "0.18.0", "1.16.0")
# transformers releases whose TrainingArguments fields are written as schemas of their own: the ones the trl
# schemas are read with (4.46.0, 4.52.3, 4.56.2), the first 5.x, the one CI pins (5.10.4) and the newest every trl
# release resolves to today (5.24.0; translator/dialects/trl_tables.py TRANSFORMERS).
TRANSFORMERS_VERSIONS = ("4.46.0", "4.52.3", "4.56.2", "5.0.0", "5.10.4", "5.24.0")
# The transformers release each trl schema is read with, and why (see the module docstring).
TRANSFORMERS_FOR = {"0.18.0": ("4.52.3", ("Open-R1's setup.py pins transformers==4.52.3 with trl==0.18.0 "
                                         "(trl 0.18.0 itself requires transformers>=4.50.0)"))}
VERL_VERSIONS = ("0.2.0.post2", "0.3.0", "0.4.1", "0.7.1", "0.8.0", "0.9.0", "0.9.1")
VERL_WHEELS = {"0.3.0": "0.3.0.post1"}  # rlconf's 0.3.0 is read from PyPI's only 0.3.0 wheel
# Every release whose train_ppo_ray flag set changed before 0.8 (0.5.0 … 0.7.4), then a flat and a dotted release.
OPENRLHF_VERSIONS = ("0.5.0", "0.5.1", "0.5.3", "0.5.5", "0.5.7", "0.5.8", "0.6.0", "0.6.1", "0.6.2", "0.6.3", "0.6.4",
                     "0.7.0", "0.7.1", "0.7.2", "0.7.4", "0.10.1", "0.11.2")

UNKNOWN_KEYS = {
    "verl": ("rejected", ("Hydra rejects an override of a key the config does not have ('Could not override ...'); "
                         "'+key=value' appends one, '++key=value' adds or overrides. Keys under a mapping-valued "
                         "key (an object property) are the user's own.")),
    "trl-rejects": ("rejected", ("TrlParser (>= 0.19) raises 'Unknown arguments from config file' for a recipe key "
                                 "no dataclass of the parser declares (Open-R1's grpo.py; TRL's own 'trl grpo' "
                                 "command passes fail_with_unknown_args=False and drops it).")),
    "trl-drops": ("dropped", ("TrlParser (<= 0.18) silently drops recipe keys no dataclass of the parser declares "
                             "(set_defaults_with_config returns them unused); command-line flags are argparse errors.")),
    "openrlhf": ("rejected", ("argparse stops with 'unrecognized arguments' (allow_abbrev: a unique prefix of a "
                             "flag means that flag).")),
    "easyr1": ("rejected", ("OmegaConf.merge into the structured PPOConfig raises ConfigKeyError for a key the "
                           "dataclasses do not declare; keys under a Dict[str, Any] field are free.")),
    "open-instruct": ("rejected", "HfArgumentParser (ArgumentParserPlus) raises for flags no dataclass declares."),
    "transformers": ("rejected", ("TrainingArguments is a dataclass: an unknown keyword is a TypeError, and TrlParser "
                                  "(>= 0.19) stops on a recipe key no dataclass of the parser declares.")),
}
TYPE_CHECKS = {
    "verl": ("numbers-and-booleans", ("verl's YAML is untyped: a type here is that of the key's default. Only a "
                                     "value that cannot be a number (or a boolean) where the default is one is an "
                                     "error; lists for strings and the like are accepted as Hydra accepts them.")),
    "trl": ("coercing", ("TrlParser sets recipe values as argparse defaults: strings are converted by the field's "
                        "type ('1e-6' → float), ints pass for floats, null passes; a list or mapping where a "
                        "number is declared fails in the trainer.")),
    "openrlhf": ("coercing", "argparse converts each value with the flag's type (int, float, str)."),
    "easyr1": ("coercing", ("OmegaConf validates and converts values for the dataclass field types ('1e-6' → "
                           "float, 1 → 1.0); null is rejected where the field is not Optional.")),
    "open-instruct": ("coercing", ("HfArgumentParser converts each value with the field's type; booleans "
                                  "accept true/false/yes/no/1/0.")),
}


# ---------------------------------------------------------------------------- sources: wheels and checkouts
def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_wheel(cache: Path, name: str, version: str) -> Path:
    """The wheel of ``name==version`` in ``cache``, downloaded with pip when it is not there yet."""
    cache.mkdir(parents=True, exist_ok=True)

    def found() -> list[str]:
        stem = name.replace("-", "_")
        return sorted(glob.glob(str(cache / f"{stem}-{version}-*.whl")) + glob.glob(str(cache / f"{name}-{version}-*.whl")))

    if not found():
        # One wheel whatever Python runs this script: OpenRLHF publishes per-interpreter wheels (the same source).
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary=:none:", "--only-binary=:all:",
                   "--python-version", "3.11", "--implementation", "cp", "--platform", "manylinux1_x86_64",
                   "-d", str(cache), f"{name}=={version}"]
        print("+", " ".join(command), file=sys.stderr)
        subprocess.run(command, check=True, stdout=sys.stderr)
    wheels = found()
    if not wheels:
        raise SystemExit(f"pip download gave no wheel for {name}=={version} in {cache}")
    return Path(wheels[0])


class Tree:
    """Python source files of a wheel or a checkout, by path inside the package root(s)."""

    def __init__(self, files: dict[str, str], label: str) -> None:
        self.files = files
        self.label = label
        self._modules: dict[str, ast.Module] = {}
        self.read: list[str] = []  # files parsed, in order (recorded in x-source)

    @classmethod
    def from_wheel(cls, path: Path) -> Tree:
        files = {}
        with zipfile.ZipFile(path) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                name = info.filename
                # Some wheels keep the package under NAME.data/purelib/ (OpenRLHF).
                name = re.sub(r"^[^/]+\.data/(purelib|platlib)/", "", name)
                if name.endswith((".py", ".yaml", ".yml")):
                    files[name] = archive.read(info).decode("utf-8")
        return cls(files, path.name)

    @classmethod
    def from_dir(cls, root: Path, packages: Iterable[str]) -> Tree:
        files = {}
        for package in packages:
            for path in sorted((root / package).rglob("*")):
                if path.suffix in (".py", ".yaml", ".yml") and path.is_file():
                    files[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
        return cls(files, str(root))

    def module_path(self, dotted: str) -> str | None:
        base = dotted.replace(".", "/")
        for candidate in (base + ".py", base + "/__init__.py"):
            if candidate in self.files:
                return candidate
        return None

    def module(self, path: str) -> ast.Module:
        if path not in self._modules:
            self._modules[path] = ast.parse(self.files[path], filename=path)
            self.read.append(path)
        return self._modules[path]

    def content_sha256(self) -> str:
        digest = hashlib.sha256()
        for path in sorted(set(self.read)):
            digest.update(path.encode() + b"\0" + self.files[path].encode() + b"\0")
        return digest.hexdigest()


def wheel_source(path: Path, tree: Tree | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": "wheel", "file": path.name, "sha256": sha256_of(path)}
    if tree is not None:
        record["read"] = sorted(set(tree.read))
    return record


def checkout_source(repository: str, commit: str | None, tree: Tree) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": "repository", "repository": repository, "commit": commit or "unknown",
                              "read": sorted(set(tree.read)), "files_sha256": tree.content_sha256()}
    return record


def git_commit(path: Path) -> tuple[str | None, str | None]:
    """(commit, commit date YYYY.MM.DD) of a git work tree, or (None, None)."""
    try:
        out = subprocess.run(["git", "-C", str(path), "log", "-1", "--format=%H %cs"], check=True,
                             capture_output=True, text=True).stdout.split()
        return out[0], out[1].replace("-", ".")
    except (OSError, subprocess.CalledProcessError, IndexError):
        return None, None


# ---------------------------------------------------------------------------- JSON types from annotations
_SCALARS = {"int": "integer", "float": "number", "bool": "boolean", "str": "string", "bytes": "string"}
_ARRAYS = {"list", "List", "tuple", "Tuple", "Sequence", "set", "Set", "frozenset", "Iterable"}
_OBJECTS = {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict"}
_ENUM_BASES = {"Enum", "StrEnum", "IntEnum", "ExplicitEnum"}


def json_type_of(value: Any) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return None


class Types:
    """A union of JSON types being built from an annotation; ``any`` once a member is unknown."""

    def __init__(self) -> None:
        self.types: list[str] = []
        self.enum: list[Any] | None = None
        self.items: dict[str, Any] | None = None
        self.any = False
        self.open_string = False  # a plain str member: drops any enum

    def add(self, json_type: str) -> None:
        if json_type not in self.types:
            self.types.append(json_type)

    def schema(self, nullable: bool) -> dict[str, Any]:
        if self.any:
            return {}
        types = list(self.types)
        if "integer" in types and "number" in types:
            types.remove("integer")
        if "null" in types:
            types.remove("null")
            nullable = True
        if nullable:
            types.append("null")
        if not types:
            return {}
        out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
        if self.enum is not None and not self.open_string:
            out["enum"] = self.enum + ([None] if "null" in types and None not in self.enum else [])
        if self.items:
            out["items"] = self.items
        return out


class Resolver:
    """Names in a module → class definitions in one or more trees (following imports)."""

    def __init__(self, trees: list[Tree]) -> None:
        self.trees = trees

    def find(self, tree: Tree, path: str, name: str) -> tuple[Tree, str, ast.ClassDef] | None:
        """The class ``name`` (possibly ``a.B``) as seen from module ``path`` of ``tree``."""
        module = tree.module(path)
        head, _, rest = name.partition(".")
        for node in module.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return tree, path, node
        for node in ast.walk(module):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    bound = alias.asname or alias.name
                    if rest and bound == head:  # from pkg import module as head; head.Class
                        target = self._module_of(tree, path, node, alias.name)
                        if target:
                            return self.find(target[0], target[1], rest)
                    if not rest and bound == name:
                        target = self._module_of(tree, path, node, None)
                        if target:
                            found = self.find_defined(target[0], target[1], alias.name)
                            if found:
                                return found
                        return self.search(alias.name)
            elif isinstance(node, ast.Import) and rest:
                for alias in node.names:
                    if (alias.asname or alias.name) == head or alias.name == head:
                        for other in self.trees:
                            target = other.module_path(alias.name)
                            if target:
                                return self.find(other, target, rest)
        return None

    def _module_of(self, tree: Tree, path: str, node: ast.ImportFrom, submodule: str | None) -> tuple[Tree, str] | None:
        if node.level:
            parts = path.split("/")[:-1]
            parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
            dotted = ".".join(parts + ([node.module] if node.module else []))
        else:
            dotted = node.module or ""
        if submodule:
            dotted = f"{dotted}.{submodule}" if dotted else submodule
        for candidate in [tree] + [t for t in self.trees if t is not tree]:
            target = candidate.module_path(dotted)
            if target:
                return candidate, target
        return None

    def find_defined(self, tree: Tree, path: str, name: str) -> tuple[Tree, str, ast.ClassDef] | None:
        for node in tree.module(path).body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return tree, path, node
        # Re-exported: follow the module's own `from .x import name`.
        for node in tree.module(path).body:
            if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
                target = self._module_of(tree, path, node, None)
                if target and target != (tree, path):
                    return self.find_defined(target[0], target[1], name)
        return None

    def search(self, name: str) -> tuple[Tree, str, ast.ClassDef] | None:
        """A class defined at the top level of exactly one module (lazy package __init__s hide the import)."""
        pattern = re.compile(rf"^class {re.escape(name)}\b", re.MULTILINE)
        for tree in self.trees:
            hits = [p for p in sorted(tree.files) if p.endswith(".py") and pattern.search(tree.files[p])]
            for hit in hits:
                found = self.find_defined(tree, hit, name)
                if found:
                    return found
        return None


def is_enum(node: ast.ClassDef) -> bool:
    return any((b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "") in _ENUM_BASES
               for b in node.bases)


def enum_values(node: ast.ClassDef) -> list[Any]:
    values = []
    for item in node.body:
        if isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant):
            values.append(item.value.value)
    return values


def annotation_types(node: ast.AST | None, ctx: tuple[Resolver, Tree, str], types: Types | None = None) -> Types:
    """The JSON types of an annotation."""
    types = types or Types()
    if node is None:
        types.any = True
        return types
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a string annotation
        try:
            return annotation_types(ast.parse(node.value, mode="eval").body, ctx, types)
        except SyntaxError:
            types.any = True
            return types
    if isinstance(node, ast.Constant) and node.value is None:
        types.add("null")
        return types
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        annotation_types(node.left, ctx, types)
        return annotation_types(node.right, ctx, types)
    name = _name(node.value if isinstance(node, ast.Subscript) else node)
    if isinstance(node, ast.Subscript):
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name in ("Optional",):
            types.add("null")
            return annotation_types(args[0], ctx, types)
        if name in ("Union",):
            for arg in args:
                annotation_types(arg, ctx, types)
            return types
        if name == "Literal":
            values = [a.value for a in args if isinstance(a, ast.Constant)]
            types.enum = (types.enum or []) + values
            for value in values:
                json_type = json_type_of(value)
                if json_type:
                    types.add(json_type)
            return types
        if name in _ARRAYS:
            types.add("array")
            inner = annotation_types(args[0], ctx) if args and not (name in ("tuple", "Tuple") and len(args) > 1
                                                                   and _name(args[-1]) != "...") else None
            if inner is not None and not inner.any and inner.types:
                types.items = inner.schema(False)
            elif name in ("tuple", "Tuple") and args:
                member = Types()
                for arg in args:
                    annotation_types(arg, ctx, member)
                if not member.any and member.types:
                    types.items = member.schema(False)
            return types
        if name in _OBJECTS:
            types.add("object")
            return types
        if name in ("Annotated", "Final", "ClassVar", "InitVar"):
            return annotation_types(args[0], ctx, types)
        types.any = True
        return types
    if name in _SCALARS:
        types.add(_SCALARS[name])
        if name == "str":
            types.open_string = True
        return types
    if name in _ARRAYS:
        types.add("array")
        return types
    if name in _OBJECTS:
        types.add("object")
        return types
    if name in ("None", "NoneType"):
        types.add("null")
        return types
    if name in ("Any", "object", ""):
        types.any = True
        return types
    resolver, tree, path = ctx
    found = resolver.find(tree, path, name)
    if found and is_enum(found[2]):
        values = enum_values(found[2])
        types.enum = (types.enum or []) + values
        for value in values:
            json_type = json_type_of(value)
            if json_type:
                types.add(json_type)
        return types
    types.any = True
    return types


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        prefix = _name(node.value)
        if prefix in ("typing", "t", "dataclasses", "collections", "abc", "collections.abc", "builtins", "enum"):
            return node.attr
        return f"{prefix}.{node.attr}" if prefix else node.attr
    return ""


# ---------------------------------------------------------------------------- dataclass fields
_MISSING = object()


class Field:
    def __init__(self, name: str, annotation: ast.AST | None, default: Any, ctx: tuple[Resolver, Tree, str],
                 owner: str, choices: list[Any] | None = None, default_expr: str | None = None) -> None:
        self.name, self.annotation, self.default, self.ctx, self.owner = name, annotation, default, ctx, owner
        self.choices = choices
        self.default_expr = default_expr  # the source of a default that is not a plain literal

    def schema(self) -> dict[str, Any]:
        types = annotation_types(self.annotation, self.ctx)
        if self.choices is not None:
            types.enum, types.open_string = list(self.choices), False
        out = types.schema(nullable=self.default is None)
        add_default(out, self.default)
        if self.default is _MISSING and self.default_expr:
            out["x-default"] = self.default_expr
        return out


def add_default(schema: dict[str, Any], default: Any) -> None:
    if default is _MISSING:
        return
    if isinstance(default, float) and not math.isfinite(default):
        schema["x-default"] = repr(default)
        return
    if isinstance(default, tuple):
        default = list(default)
    try:
        json.dumps(default, allow_nan=False)
    except (TypeError, ValueError):
        schema["x-default"] = repr(default)
        return
    schema["default"] = default


def literal(node: ast.AST | None) -> Any:
    """The value of a default expression, or _MISSING when it is not a plain literal."""
    if node is None:
        return _MISSING
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Call):
        fn = _name(node.func)
        if fn in ("list", "dict", "tuple", "set") and not node.args:
            return {"list": [], "dict": {}, "tuple": [], "set": []}[fn]
        if fn in ("float", "int") and len(node.args) == 1:
            inner = literal(node.args[0])
            if inner is not _MISSING:
                try:
                    return float(inner) if fn == "float" else int(inner)
                except (TypeError, ValueError):
                    return _MISSING
    if isinstance(node, ast.Lambda):
        return literal(node.body)
    return _MISSING


def dataclass_fields(resolver: Resolver, tree: Tree, path: str, node: ast.ClassDef,
                     seen: tuple[str, ...] = (), own_only: bool = False) -> dict[str, Field]:
    """The init fields of a dataclass, base classes first (dataclasses' MRO order); ``own_only``: the fields
    the class itself declares (its bases live elsewhere)."""
    fields: dict[str, Field] = {}
    for base in [] if own_only else reversed(node.bases):
        base_name = _name(base)
        if base_name in ("object", "") or base_name in seen:
            continue
        found = resolver.find(tree, path, base_name)
        if found is None:
            raise SystemExit(f"{tree.label}: base class {base_name} of {node.name} not found")
        base_tree, base_path, base_node = found
        for name, item in dataclass_fields(resolver, base_tree, base_path, base_node, (*seen, node.name)).items():
            fields[name] = item
    ctx = (resolver, tree, path)
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        name = item.target.id
        if _name(item.annotation.value if isinstance(item.annotation, ast.Subscript) else item.annotation) in (
                "ClassVar", "KW_ONLY", "InitVar"):
            continue
        default: Any = _MISSING
        choices = None
        expression = None
        if isinstance(item.value, ast.Call) and _name(item.value.func) == "field":
            keywords = {k.arg: k.value for k in item.value.keywords}
            if "init" in keywords and literal(keywords["init"]) is False:
                fields.pop(name, None)
                continue
            if "default" in keywords:
                default = literal(keywords["default"])
                expression = ast.unparse(keywords["default"])
            elif "default_factory" in keywords:
                default = literal(keywords["default_factory"])
                expression = ast.unparse(keywords["default_factory"]) + "()"
            metadata = keywords.get("metadata")
            if isinstance(metadata, ast.Dict):
                for key, value in zip(metadata.keys, metadata.values):
                    if isinstance(key, ast.Constant) and key.value == "choices":
                        choices = literal(value)
                        choices = list(choices) if isinstance(choices, (list, tuple)) else None
        elif item.value is not None:
            default = literal(item.value)
            expression = ast.unparse(item.value)
        fields[name] = Field(name, item.annotation, default, ctx, node.name, choices, expression)
    return fields


def class_in(resolver: Resolver, tree: Tree, module: str, name: str) -> tuple[Tree, str, ast.ClassDef]:
    path = tree.module_path(module)
    if path is None:
        raise SystemExit(f"{tree.label}: no module {module}")
    found = resolver.find_defined(tree, path, name)
    if found is None:
        raise SystemExit(f"{tree.label}: no class {name} in {module}")
    return found


def properties_of(fields: dict[str, Field]) -> dict[str, dict[str, Any]]:
    return {name: f.schema() for name, f in fields.items()}


# ---------------------------------------------------------------------------- the schema document
def document(framework: str, version: str, title: str, properties: dict[str, dict[str, Any]],
             sources: list[dict[str, Any]], unknown: str, type_check: str, notes: list[str]) -> dict[str, Any]:
    treatment, why = UNKNOWN_KEYS[unknown]
    check, check_why = TYPE_CHECKS[type_check]
    patterns = {"^" + re.escape(key) + r"\..+$": {} for key, prop in properties.items() if _is_object(prop)}
    described = "; ".join(_describe(s) for s in sources)
    doc: dict[str, Any] = {
        "$schema": SCHEMA_DIALECT,
        "$id": f"https://rlconf.invalid/schemas/native/{framework}-{version}.schema.json",
        "$comment": f"Generated by scripts/gen_schemas.py from {described}. Do not edit: run the script again.",
        "title": title,
        "type": "object",
        "x-framework": framework,
        "x-version": version,
        "x-source": sources,
        "x-unknown-keys": treatment,
        "x-unknown-keys-why": why,
        "x-type-check": check,
        "x-type-check-why": check_why,
    }
    if notes:
        doc["x-notes"] = notes
    doc["properties"] = properties
    if patterns:
        doc["patternProperties"] = patterns
    doc["additionalProperties"] = treatment != "rejected"
    return doc


def _is_object(prop: dict[str, Any]) -> bool:
    kind = prop.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def _describe(source: dict[str, Any]) -> str:
    if source["kind"] == "wheel":
        return f"{source['file']} (sha256 {source['sha256'][:12]}…)"
    if source["kind"] == "repository":
        return f"{source['repository']}@{source['commit'][:12]}"
    return source.get("file", source["kind"])


def write(doc: dict[str, Any], outs: list[Path]) -> None:
    name = f"{doc['x-framework']}-{doc['x-version']}.schema.json"
    text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    for out in outs:
        out.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {name}: {len(doc['properties'])} keys", file=sys.stderr)


# ---------------------------------------------------------------------------- TRL / Open-R1
def open_r1_table_keys() -> list[str]:
    """OPEN_R1_KEYS of translator/dialects/trl_tables.py, read with ast (nothing is imported)."""
    path = ROOT / "translator" / "frameworks" / "trl" / "tables.py"
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "OPEN_R1_KEYS"
                                                for t in node.targets):
            call = node.value
            assert isinstance(call, ast.Call)
            return sorted(ast.literal_eval(call.args[0]))
    raise SystemExit("OPEN_R1_KEYS not found in trl_tables.py")


def trl_table_value(name: str) -> Any:
    """A constant of translator/dialects/trl_tables.py, read with ast (nothing is imported)."""
    path = ROOT / "translator" / "frameworks" / "trl" / "tables.py"
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
                return ast.literal_eval(node.value)
    raise SystemExit(f"{name} not found in trl_tables.py")


def transformers_requirement(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(meta).decode()
    match = re.search(r"^Requires-Dist: transformers\s*\(?>=\s*([\d.]+)", text, re.MULTILINE)
    if not match:
        raise SystemExit(f"{wheel.name}: no transformers>= requirement")
    return match.group(1)


def trl_schema(version: str, cache: Path, open_r1: tuple[Path, str | None] | None) -> dict[str, Any]:
    trl_wheel = fetch_wheel(cache, "trl", version)
    wanted = transformers_requirement(trl_wheel)
    newest = trl_table_value("NEWEST_TRANSFORMERS")
    tf_version, why = TRANSFORMERS_FOR.get(version, (newest, (
        f"the newest transformers `pip install trl=={version}` resolves to today (trl {version} requires "
        f"transformers>={wanted}, no upper bound; translator/dialects/trl_tables.py NEWEST_TRANSFORMERS)")))
    tf_wheel = fetch_wheel(cache, "transformers", tf_version)
    trl, tf = Tree.from_wheel(trl_wheel), Tree.from_wheel(tf_wheel)
    resolver = Resolver([trl, tf])
    classes = [("trl.scripts.grpo", "GRPOScriptArguments"), ("trl.trainer.grpo_config", "GRPOConfig"),
               ("trl.trainer.model_config", "ModelConfig")]
    if trl.module_path("trl.scripts.utils") and "class DatasetMixtureConfig" in trl.files[trl.module_path("trl.scripts.utils")]:
        classes.append(("trl.scripts.utils", "DatasetMixtureConfig"))
    properties: dict[str, dict[str, Any]] = {}
    read = []
    for module, name in classes:
        found = class_in(resolver, trl, module, name)
        read.append(f"{module}.{name}")
        for key, prop in properties_of(dataclass_fields(resolver, *found)).items():
            properties.setdefault(key, prop)
    notes = [(f"Dataclasses of the parser: {', '.join(read)} (with their bases, down to transformers "
             f"{tf_version} TrainingArguments: {why}).")]
    sources = [wheel_source(trl_wheel, trl), {**wheel_source(tf_wheel, tf), "why": why}]
    properties.setdefault("env", {"type": "object", "x-from": "TrlParser",
                                  "description": "environment variables TrlParser sets, popped before parsing"})
    extras, open_r1_source = open_r1_extras(open_r1, properties)
    if open_r1_source:
        sources.append(open_r1_source)
    added = [k for k in extras if k not in properties]
    for key in added:
        properties[key] = extras[key]
    table = open_r1_table_keys()
    sources.append({"kind": "table", "file": "translator/dialects/trl_tables.py", "name": "OPEN_R1_KEYS",
                    "keys": table})
    if open_r1:
        notes.append("Open-R1's own arguments (src/open_r1/configs.py GRPOScriptArguments, ScriptArguments, "
                     f"GRPOConfig fields that TRL does not declare) are included with their types: {len(added)} "
                     "keys; names in OPEN_R1_KEYS that configs.py lacks are included untyped.")
    else:
        notes.append("Open-R1's own arguments come from the rlconf table OPEN_R1_KEYS "
                     "(translator/dialects/trl_tables.py), untyped; Open-R1 recipes run src/open_r1/grpo.py, "
                     "whose TrlParser adds them to TRL's.")
    rejects = tuple(int(p) for p in version.split(".")[:2]) >= (0, 19)
    return document("trl", version, f"TRL {version} GRPO recipe keys (Open-R1 grpo.py / trl grpo)", properties,
                    sources, "trl-rejects" if rejects else "trl-drops", "trl", notes)


def open_r1_extras(open_r1: tuple[Path, str | None] | None,
                   known: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    """Open-R1's own arguments that TRL does not declare, and the checkout they were read from."""
    extras: dict[str, dict[str, Any]] = {}
    source = None
    if open_r1:
        root, commit = open_r1
        tree = Tree.from_dir(root, ["src/open_r1"])
        resolver = Resolver([tree])
        path = "src/open_r1/configs.py"
        # GRPOScriptArguments → Open-R1's ScriptArguments → trl.ScriptArguments; GRPOConfig → trl.GRPOConfig.
        for name in ("GRPOScriptArguments", "ScriptArguments", "GRPOConfig"):
            found = resolver.find_defined(tree, path, name)
            if found:
                for key, prop in properties_of(dataclass_fields(resolver, *found, own_only=True)).items():
                    extras.setdefault(key, prop)
        extras = {k: {**v, "x-from": "open-r1"} for k, v in extras.items() if k not in known}
        source = checkout_source("huggingface/open-r1", commit, tree)
    for key in open_r1_table_keys():
        extras.setdefault(key, {"x-from": "open-r1"})
    return extras, source


def transformers_schema(version: str, cache: Path) -> dict[str, Any]:
    """transformers ``version``'s TrainingArguments fields: the part of a TRL recipe that depends on the
    transformers release TRL runs with (TRL's own fields are in the trl schemas)."""
    wheel = fetch_wheel(cache, "transformers", version)
    tree = Tree.from_wheel(wheel)
    resolver = Resolver([tree])
    found = class_in(resolver, tree, "transformers.training_args", "TrainingArguments")
    properties = properties_of(dataclass_fields(resolver, *found))
    notes = ["The fields of transformers.training_args.TrainingArguments, which TRL's GRPOConfig extends: a TRL "
             "recipe key that is not a TRL, Open-R1 or model argument must be one of these for the transformers "
             "release the run uses."]
    return document("transformers", version, f"transformers {version} TrainingArguments", properties,
                    [wheel_source(wheel, tree)], "transformers", "trl", notes)


# ---------------------------------------------------------------------------- verl
def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def compose(tree: Tree, config_dir: str, name: str, depth: int = 0) -> dict[str, Any]:
    """A Hydra primary config with its defaults list merged (group@package: option, _self_)."""
    if depth > 8:
        raise SystemExit(f"defaults nest too deep at {name}")
    path = f"{config_dir}/{name}.yaml"
    data = yaml.safe_load(tree.files[path]) or {}
    tree.read.append(path)
    defaults = data.pop("defaults", None) or []
    merged: dict[str, Any] = {}
    self_done = False
    for item in defaults:
        if item == "_self_":
            deep_merge(merged, data)
            self_done = True
            continue
        if isinstance(item, str):  # another primary config
            deep_merge(merged, compose(tree, config_dir, item.removesuffix(".yaml"), depth + 1))
            continue
        if not isinstance(item, dict) or len(item) != 1:
            continue
        (group, option), = item.items()
        group = str(group).removeprefix("override ")
        if option is None:
            continue
        folder, _, package = group.partition("@")
        option = re.sub(r"\$\{(\w+)\}", lambda m: _option_of(defaults, m.group(1)), str(option))
        sub = compose(tree, f"{config_dir}/{folder}", option, depth + 1)
        target = merged
        for part in (package or folder).split("."):
            if part == "_global_":
                break
            target = target.setdefault(part, {})
        deep_merge(target, sub)
    if not self_done:
        deep_merge(merged, data)
    merged.pop("hydra", None)
    return merged


def _option_of(defaults: list[Any], group: str) -> str:
    for item in defaults:
        if isinstance(item, dict) and group in item:
            return str(item[group])
    return group


def deep_merge(into: dict[str, Any], data: dict[str, Any]) -> None:
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            deep_merge(into[key], value)
        else:
            into[key] = value


def yaml_property(value: Any) -> dict[str, Any]:
    if isinstance(value, str) and "${" in value:
        return {"x-interpolation": value}
    if isinstance(value, str) and value == "???":
        return {"x-mandatory": True}
    kind = json_type_of(value)
    out: dict[str, Any] = {}
    if kind in ("integer", "number"):
        out["type"] = "number"  # YAML gives no type: 0 may be a float knob
    elif kind == "null":
        pass
    elif kind:
        out["type"] = kind
    add_default(out, list(value) if isinstance(value, tuple) else value)
    return out


def verl_schema(version: str, cache: Path) -> dict[str, Any]:
    wheel = fetch_wheel(cache, "verl", VERL_WHEELS.get(version, version))
    tree = Tree.from_wheel(wheel)
    config_dir = "verl/trainer/config"
    generated = sorted(p for p in tree.files if re.fullmatch(rf"{config_dir}/_generated_ppo\w*_trainer\.yaml", p))
    generated.sort(key=lambda p: (p != f"{config_dir}/_generated_ppo_trainer.yaml", p))
    merged: dict[str, Any] = {}
    if generated:
        for path in generated:
            tree.read.append(path)
            for key, value in flatten(yaml.safe_load(tree.files[path]) or {}).items():
                merged.setdefault(key, value)
        how = (f"the fully composed configs verl ships ({', '.join(p.rsplit('/', 1)[1] for p in generated)}), "
               "the first file's default where they differ")
    else:
        for name in ("ppo_trainer", "ppo_megatron_trainer"):
            if f"{config_dir}/{name}.yaml" in tree.files:
                for key, value in flatten(compose(tree, config_dir, name)).items():
                    merged.setdefault(key, value)
        how = "ppo_trainer.yaml and ppo_megatron_trainer.yaml composed through their Hydra defaults lists"
    properties = {}
    for key, value in merged.items():
        last = key.rsplit(".", 1)[-1]
        if last == "_target_" or key.startswith(("defaults", "hydra.")):
            continue
        properties[key] = yaml_property(value)
    notes = [(f"Keys from {how}; nested mappings flattened into dotted keys. The entry point "
             "'python3 -m verl.trainer.main_ppo' (and model_engine=..., --config-name) accepts them; recipe "
             "entries (recipe.dapo.main_dapo) add their own keys, absent here."),
             "'_target_' keys (the dataclass a section becomes) are left out; x-closed-sections lists those "
             "sections: verl builds each into its dataclass, which stops at a field it does not have, so a key "
             "appended there with '+' composes but the run does not start."]
    doc = document("verl", version, f"verl {version} Hydra config keys (verl.trainer.main_ppo)", properties,
                   [wheel_source(wheel, tree)], "verl", "verl", notes)
    doc["x-closed-sections"] = sorted({k.removesuffix("._target_") for k in merged if k.endswith("._target_")})
    return doc


# ---------------------------------------------------------------------------- OpenRLHF
class _Unknown(Exception):
    pass


def evaluate(node: ast.AST, env: dict[str, Any]) -> Any:
    """A small evaluator for add_argument arguments: literals, f-strings, names bound by loops, a ? b : c."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("int", "float", "str", "bool"):
            return node.id
        raise _Unknown(node.id)
    if isinstance(node, ast.JoinedStr):
        return "".join(str(evaluate(v.value if isinstance(v, ast.FormattedValue) else v, env)) for v in node.values)
    if isinstance(node, (ast.Tuple, ast.List)):
        return [evaluate(e, env) for e in node.elts]
    if isinstance(node, ast.IfExp):
        return evaluate(node.body if evaluate(node.test, env) else node.orelse, env)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = evaluate(node.left, env), evaluate(node.comparators[0], env)
        if isinstance(node.ops[0], ast.Eq):
            return left == right
        if isinstance(node.ops[0], ast.NotEq):
            return left != right
        if isinstance(node.ops[0], ast.In):
            return left in right
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -evaluate(node.operand, env)
    if isinstance(node, ast.Call) and _name(node.func) in ("float", "int") and len(node.args) == 1:
        value = evaluate(node.args[0], env)
        return float(value) if _name(node.func) == "float" else int(value)
    value = literal(node)
    if value is not _MISSING:
        return value
    raise _Unknown(ast.unparse(node))


_ARG_TYPES = {"int": "integer", "float": "number", "str": "string"}


def argparse_calls(body: list[ast.stmt], env: dict[str, Any]) -> Iterable[tuple[ast.Call, dict[str, Any]]]:
    for statement in body:
        if isinstance(statement, ast.For) and isinstance(statement.target, ast.Name):
            try:
                items = evaluate(statement.iter, env)
            except _Unknown:
                items = []
            for item in items:
                yield from argparse_calls(statement.body, {**env, statement.target.id: item})
            continue
        if isinstance(statement, (ast.If, ast.With, ast.Try)):
            yield from argparse_calls(statement.body, env)
            yield from argparse_calls(getattr(statement, "orelse", []), env)
            continue
        if isinstance(statement, (ast.FunctionDef,)):
            yield from argparse_calls(statement.body, env)
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                yield node, env


def argparse_property(call: ast.Call, env: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    names = [evaluate(a, env) for a in call.args]
    keywords = {k.arg: k.value for k in call.keywords if k.arg}

    def kw(name: str, default: Any = None) -> Any:
        if name not in keywords:
            return default
        try:
            return evaluate(keywords[name], env)
        except _Unknown:
            return _MISSING

    action = kw("action")
    prop: dict[str, Any] = {}
    if action in ("store_true", "store_false"):
        prop["type"] = "boolean"
        default = kw("default", action == "store_false")
    else:
        kind = keywords.get("type")
        json_type = _ARG_TYPES.get(_name(kind), None) if kind is not None else "string"
        item: dict[str, Any] = {"type": json_type} if json_type else {}
        choices = kw("choices")
        if isinstance(choices, list):
            item["enum"] = choices
        nargs = kw("nargs")
        if nargs not in (None, "?"):
            prop["type"] = "array"
            if item:
                prop["items"] = item
            if isinstance(nargs, int):
                prop["minItems"] = prop["maxItems"] = nargs
        else:
            prop.update(item)
        default = kw("default", None)
    if default is None and "type" in prop and action not in ("store_true", "store_false"):
        prop["type"] = [prop["type"], "null"]
        if "enum" in prop:
            prop["enum"] = [*prop["enum"], None]
    if default is _MISSING:
        try:
            prop["x-default"] = ast.unparse(keywords["default"])
        except KeyError:
            pass
    else:
        add_default(prop, default)
    flags = [n[2:] for n in names if isinstance(n, str) and n.startswith("--")]
    return flags, prop


def openrlhf_schema(version: str, cache: Path) -> dict[str, Any]:
    wheel = fetch_wheel(cache, "openrlhf", version)
    tree = Tree.from_wheel(wheel)
    path = "openrlhf/cli/train_ppo_ray.py"
    module = tree.module(path)
    properties: dict[str, dict[str, Any]] = {}
    for call, env in argparse_calls(module.body, {}):
        flags, prop = argparse_property(call, env)
        for flag in flags:
            properties.setdefault(flag, prop)
    scheme = "dotted" if any("." in k for k in properties) else "flat"
    notes = [(f"Flags of train_ppo_ray's argparse parser ({scheme} names), without the leading '--'. A value-taking "
             "flag's value is converted with its type; store_true flags take no value.")]
    return document("openrlhf", version, f"OpenRLHF {version} train_ppo_ray flags ({scheme})", properties,
                    [wheel_source(wheel, tree)], "openrlhf", "openrlhf", notes)


# ---------------------------------------------------------------------------- EasyR1
def nested_properties(resolver: Resolver, tree: Tree, path: str, node: ast.ClassDef, prefix: str,
                      out: dict[str, dict[str, Any]]) -> None:
    for name, item in dataclass_fields(resolver, tree, path, node).items():
        annotation = item.annotation
        target = None
        if annotation is not None and _name(annotation):
            found = resolver.find(item.ctx[1], item.ctx[2], _name(annotation))
            if found and any(_name(d.func if isinstance(d, ast.Call) else d) == "dataclass"
                             for d in found[2].decorator_list):
                target = found
        if target:
            nested_properties(resolver, target[0], target[1], target[2], f"{prefix}{name}.", out)
        else:
            out[f"{prefix}{name}"] = item.schema()


def easyr1_schema(root: Path, commit: str | None) -> dict[str, Any]:
    tree = Tree.from_dir(root, ["verl"])
    resolver = Resolver([tree])
    version_text = tree.files["verl/__init__.py"]
    version = re.search(r"__version__\s*=\s*[\"']([^\"']+)", version_text).group(1)  # type: ignore[union-attr]
    found = class_in(resolver, tree, "verl.trainer.config", "PPOConfig")
    properties: dict[str, dict[str, Any]] = {}
    nested_properties(resolver, *found, "", properties)
    notes = [("Dotted keys of the PPOConfig dataclass tree (verl/trainer/config.py and the worker configs): "
             "EasyR1's main merges dataclass defaults ← config= YAML ← key=value overrides with OmegaConf."),
             f"Version {version} is verl/__init__.py's __version__ at that commit."]
    return document("easyr1", version, f"EasyR1 {version} config keys (verl.trainer.main PPOConfig)", properties,
                    [checkout_source("hiyouga/EasyR1", commit, tree)], "easyr1", "easyr1", notes)


# ---------------------------------------------------------------------------- Open-Instruct
def open_instruct_schema(root: Path, commit: str | None, version: str) -> dict[str, Any]:
    tree = Tree.from_dir(root, ["open_instruct"])
    resolver = Resolver([tree])
    path = "open_instruct/grpo_fast.py"
    module = tree.module(path)
    classes: list[str] = []
    defaults: dict[str, Any] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and _name(node.func).endswith("ArgumentParserPlus") and node.args:
            arg = node.args[0]
            if isinstance(arg, (ast.Tuple, ast.List)):
                classes = [_name(e) for e in arg.elts]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "set_defaults":
            for keyword in node.keywords:
                value = literal(keyword.value)
                if keyword.arg and value is not _MISSING:
                    defaults[keyword.arg] = value
    if not classes:
        raise SystemExit("grpo_fast.py: no ArgumentParserPlus((...)) call found")
    properties: dict[str, dict[str, Any]] = {}
    for name in classes:
        found = resolver.find(tree, path, name)
        if found is None:
            raise SystemExit(f"grpo_fast.py: dataclass {name} not found")
        for key, item in dataclass_fields(resolver, *found).items():
            if key in defaults:
                item.default = defaults[key]
            properties.setdefault(key, item.schema())
    notes = [(f"Flags of grpo_fast.py's ArgumentParserPlus (HfArgumentParser) over {', '.join(classes)}, with "
             f"the script's parser.set_defaults ({', '.join(sorted(defaults))}). open_instruct/grpo.py (OLMo-core) "
             "parses the same dataclasses. A boolean flag defaulting to true also has a --no_<flag> form."),
             f"Version {version} is the date of the commit, as rlconf names Open-Instruct snapshots."]
    return document("open-instruct", version, f"Open-Instruct {version} grpo_fast.py flags", properties,
                    [checkout_source("allenai/open-instruct", commit, tree)], "open-instruct", "open-instruct",
                    notes)


# ---------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "schemas" / "native")
    parser.add_argument("--package-out", default=str(ROOT / "translator" / "schema_data"),
                        help="the copy shipped as package data (read at run time); '' to skip")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/wheels"), help="where wheels are downloaded")
    parser.add_argument("--easyr1-src", type=Path)
    parser.add_argument("--easyr1-commit")
    parser.add_argument("--open-instruct-src", type=Path)
    parser.add_argument("--open-instruct-commit")
    parser.add_argument("--open-instruct-version", help="YYYY.MM.DD of the commit (read from git when a work tree)")
    parser.add_argument("--open-r1-src", type=Path)
    parser.add_argument("--open-r1-commit")
    parser.add_argument("--only", action="append", help="framework names to generate (default: all)")
    args = parser.parse_args(argv)
    outs = [args.out] + ([Path(args.package_out)] if args.package_out else [])
    only = set(args.only or ["trl", "verl", "openrlhf", "easyr1", "open-instruct"])

    if "trl" in only:
        open_r1 = None
        if args.open_r1_src:
            open_r1 = (args.open_r1_src, args.open_r1_commit or git_commit(args.open_r1_src)[0])
        for version in TRL_VERSIONS:
            write(trl_schema(version, args.cache, open_r1), outs)
        for version in TRANSFORMERS_VERSIONS:
            write(transformers_schema(version, args.cache), outs)
    elif "transformers" in only:
        for version in TRANSFORMERS_VERSIONS:
            write(transformers_schema(version, args.cache), outs)
    if "verl" in only:
        for version in VERL_VERSIONS:
            write(verl_schema(version, args.cache), outs)
    if "openrlhf" in only:
        for version in OPENRLHF_VERSIONS:
            write(openrlhf_schema(version, args.cache), outs)
    if "easyr1" in only:
        if args.easyr1_src:
            write(easyr1_schema(args.easyr1_src, args.easyr1_commit or git_commit(args.easyr1_src)[0]), outs)
        else:
            print("easyr1: no --easyr1-src; its schema is left as it is", file=sys.stderr)
    if "open-instruct" in only:
        if args.open_instruct_src:
            commit, date = git_commit(args.open_instruct_src)
            version = args.open_instruct_version or date
            if not version:
                raise SystemExit("--open-instruct-version YYYY.MM.DD is needed when the source is not a git work tree")
            write(open_instruct_schema(args.open_instruct_src, args.open_instruct_commit or commit, version), outs)
        else:
            print("open-instruct: no --open-instruct-src; its schema is left as it is", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
