"""The machinery of the native schema generator (scripts/gen_schemas.py): the framework's released source read
without installing it (wheels from ``pip download --no-deps``, or a source checkout), Python annotations mapped to
JSON types, dataclass fields with their defaults, and the schema document. Each framework's section (the module its
registration names as ``schema_generator``) reads its own source with these.

Python annotations map to JSON types: int → integer, float → number, bool → boolean, str → string,
Optional[...] adds null, list/tuple → array, dict → object, Literal/Enum → enum, anything else → {} (any).
A property whose type is an object also admits its dotted sub-keys (``patternProperties``).
``additionalProperties`` is false where the framework rejects unknown keys; ``x-unknown-keys`` says how each
treats them, ``x-source`` what was read (wheel file name and sha256, or repository + commit, and the files).
"""

from __future__ import annotations

import ast
import contextlib
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

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


# ---------------------------------------------------------------------------- sources: wheels and checkouts
def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_wheel(cache: Path, name: str, version: str, python: str = "3.11") -> Path:
    """The wheel of ``name==version`` in ``cache``, downloaded with pip when it is not there yet (for ``python``:
    a release may require a newer one than the default)."""
    cache.mkdir(parents=True, exist_ok=True)

    def found() -> list[str]:
        stem = name.replace("-", "_")
        return sorted(
            glob.glob(str(cache / f"{stem}-{version}-*.whl")) + glob.glob(str(cache / f"{name}-{version}-*.whl"))
        )

    if not found():
        # One wheel whatever Python runs this script: OpenRLHF publishes per-interpreter wheels (the same source).
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-binary=:none:",
            "--only-binary=:all:",
            "--python-version",
            python,
            "--implementation",
            "cp",
            "--platform",
            "manylinux1_x86_64",
            "-d",
            str(cache),
            f"{name}=={version}",
        ]
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
    record: dict[str, Any] = {
        "kind": "repository",
        "repository": repository,
        "commit": commit or "unknown",
        "read": sorted(set(tree.read)),
        "files_sha256": tree.content_sha256(),
    }
    return record


def git(repo: Path | str, *argv: str) -> str:
    """What ``git -C repo ARGV`` prints (the generators read tags and files of a framework's checkout)."""
    return subprocess.run(["git", "-C", str(repo), *argv], check=True, capture_output=True, text=True).stdout


def git_commit(path: Path) -> tuple[str | None, str | None]:
    """(commit, commit date YYYY.MM.DD) of a git work tree, or (None, None)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "log", "-1", "--format=%H %cs"], check=True, capture_output=True, text=True
        ).stdout.split()
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
        for statement in module.body:
            if isinstance(statement, ast.ClassDef) and statement.name == name:
                return tree, path, statement
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
                            module_path = other.module_path(alias.name)
                            if module_path:
                                return self.find(other, module_path, rest)
        return None

    def _module_of(self, tree: Tree, path: str, node: ast.ImportFrom, submodule: str | None) -> tuple[Tree, str] | None:
        if node.level:
            parts = path.split("/")[:-1]
            parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
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
    return any(
        (b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "") in _ENUM_BASES
        for b in node.bases
    )


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
    name = dotted_name(node.value if isinstance(node, ast.Subscript) else node)
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
            inner = (
                annotation_types(args[0], ctx)
                if args and not (name in ("tuple", "Tuple") and len(args) > 1 and dotted_name(args[-1]) != "...")
                else None
            )
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


def dotted_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        prefix = dotted_name(node.value)
        if prefix in ("typing", "t", "dataclasses", "collections", "abc", "collections.abc", "builtins", "enum"):
            return node.attr
        return f"{prefix}.{node.attr}" if prefix else node.attr
    return ""


# ---------------------------------------------------------------------------- dataclass fields
MISSING = object()


class Field:
    def __init__(
        self,
        name: str,
        annotation: ast.AST | None,
        default: Any,
        ctx: tuple[Resolver, Tree, str],
        owner: str,
        choices: list[Any] | None = None,
        default_expr: str | None = None,
    ) -> None:
        self.name, self.annotation, self.default, self.ctx, self.owner = name, annotation, default, ctx, owner
        self.choices = choices
        self.default_expr = default_expr  # the source of a default that is not a plain literal

    def schema(self) -> dict[str, Any]:
        types = annotation_types(self.annotation, self.ctx)
        if self.choices is not None:
            types.enum, types.open_string = list(self.choices), False
        out = types.schema(nullable=self.default is None)
        add_default(out, self.default)
        if self.default is MISSING and self.default_expr:
            out["x-default"] = self.default_expr
        return out


def add_default(schema: dict[str, Any], default: Any) -> None:
    if default is MISSING:
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
    """The value of a default expression, or MISSING when it is not a plain literal."""
    if node is None:
        return MISSING
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Call):
        fn = dotted_name(node.func)
        if fn in ("list", "dict", "tuple", "set") and not node.args:
            return {"list": [], "dict": {}, "tuple": [], "set": []}[fn]
        if fn in ("float", "int") and len(node.args) == 1:
            inner = literal(node.args[0])
            if inner is not MISSING:
                try:
                    return float(inner) if fn == "float" else int(inner)
                except (TypeError, ValueError):
                    return MISSING
    if isinstance(node, ast.Lambda):
        return literal(node.body)
    return MISSING


def dataclass_fields(
    resolver: Resolver, tree: Tree, path: str, node: ast.ClassDef, seen: tuple[str, ...] = (), own_only: bool = False
) -> dict[str, Field]:
    """The init fields of a dataclass, base classes first (dataclasses' MRO order); ``own_only``: the fields
    the class itself declares (its bases live elsewhere)."""
    fields: dict[str, Field] = {}
    for base in [] if own_only else reversed(node.bases):
        base_name = dotted_name(base)
        if base_name in ("object", "ABC", "") or base_name in seen:  # ABC: a marker base with no fields
            continue
        found = resolver.find(tree, path, base_name)
        if found is None:
            raise SystemExit(f"{tree.label}: base class {base_name} of {node.name} not found")
        base_tree, base_path, base_node = found
        for name, inherited in dataclass_fields(resolver, base_tree, base_path, base_node, (*seen, node.name)).items():
            fields[name] = inherited
    ctx = (resolver, tree, path)
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        name = item.target.id
        if dotted_name(item.annotation.value if isinstance(item.annotation, ast.Subscript) else item.annotation) in (
            "ClassVar",
            "KW_ONLY",
            "InitVar",
        ):
            continue
        default: Any = MISSING
        choices = None
        expression = None
        if isinstance(item.value, ast.Call) and dotted_name(item.value.func) == "field":
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
                for key, value in zip(metadata.keys, metadata.values, strict=False):
                    if isinstance(key, ast.Constant) and key.value == "choices":
                        choices = literal(value)
                        choices = list(choices) if isinstance(choices, (list, tuple)) else None
        elif item.value is not None:
            default = literal(item.value)
            expression = ast.unparse(item.value)
        fields[name] = Field(name, item.annotation, default, ctx, node.name, choices, expression)
    return fields


def nested_properties(
    resolver: Resolver,
    tree: Tree,
    path: str,
    node: ast.ClassDef,
    prefix: str,
    out: dict[str, dict[str, Any]],
    optional: bool = False,
) -> None:
    """The fields of a dataclass tree as dotted keys: a field whose type is a dataclass becomes its fields;
    ``optional``: an ``Optional[dataclass]`` field too (a loader that builds the dataclass from a mapping given
    for it)."""
    for name, item in dataclass_fields(resolver, tree, path, node).items():
        annotation = item.annotation
        if optional and isinstance(annotation, ast.Subscript) and dotted_name(annotation.value) == "Optional":
            annotation = annotation.slice
        target = None
        if annotation is not None and dotted_name(annotation):
            found = resolver.find(item.ctx[1], item.ctx[2], dotted_name(annotation))
            if found and any(
                dotted_name(d.func if isinstance(d, ast.Call) else d) == "dataclass" for d in found[2].decorator_list
            ):
                target = found
        if target:
            nested_properties(resolver, target[0], target[1], target[2], f"{prefix}{name}.", out, optional)
        else:
            out[f"{prefix}{name}"] = item.schema()


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


# ---------------------------------------------------------------------------- TypedDict keys
_WRAPPERS = {"NotRequired", "Required", "ReadOnly", "Annotated", "Final"}
_RECORD_BASES = {"TypedDict", "BaseModel"}  # a config class whose annotated names are its keys


def union_members(node: ast.AST) -> list[ast.AST]:
    """The members of an annotation's union (``X | Y``, ``Optional``, ``Union``), with ``NotRequired`` and the
    like taken off; None stands for the null member."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a string annotation
        try:
            return union_members(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return [node]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return union_members(node.left) + union_members(node.right)
    if isinstance(node, ast.Subscript):
        name = dotted_name(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name in _WRAPPERS:
            return union_members(args[0])
        if name == "Optional":
            return [*union_members(args[0]), ast.Constant(None)]
        if name == "Union":
            return [member for arg in args for member in union_members(arg)]
    return [node]


def record_fields(
    resolver: Resolver, tree: Tree, path: str, node: ast.ClassDef, seen: tuple[str, ...] = ()
) -> dict[str, tuple[ast.AST, tuple[Resolver, Tree, str]]] | None:
    """The keys of a TypedDict (or pydantic model) class, its bases' first: name → (annotation, where it is
    read); None when ``node`` is no such class."""
    fields: dict[str, tuple[ast.AST, tuple[Resolver, Tree, str]]] = {}
    record = False
    for base in node.bases:
        name = dotted_name(base.value if isinstance(base, ast.Subscript) else base)
        if name in _RECORD_BASES:
            record = True
            continue
        found = resolver.find(tree, path, name) if name and name not in seen else None
        inherited = record_fields(resolver, *found, (*seen, node.name)) if found else None
        if inherited is not None:
            record = True
            fields.update(inherited)
    if not record:
        return None
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        annotation = item.annotation
        if dotted_name(annotation.value if isinstance(annotation, ast.Subscript) else annotation) != "ClassVar":
            fields[item.target.id] = (annotation, (resolver, tree, path))
    return fields


def subclasses(resolver: Resolver, found: tuple[Tree, str, ast.ClassDef]) -> list[tuple[Tree, str, ast.ClassDef]]:
    """The classes of the trees that derive directly from the class ``found`` (a config a backend widens)."""
    name = found[2].name
    pattern = re.compile(rf"^class \w+\([^)]*\b{re.escape(name)}\b", re.MULTILINE)
    out = []
    for tree in resolver.trees:
        for path in sorted(p for p in tree.files if p.endswith(".py") and pattern.search(tree.files[p])):
            for node in tree.module(path).body:
                if isinstance(node, ast.ClassDef) and any(
                    resolver.find(tree, path, dotted_name(b)) == found for b in node.bases if dotted_name(b)
                ):
                    out.append((tree, path, node))
    return out


def merge_schemas(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """A schema admitting what either admits (a key two members of a union declare)."""
    if not first or not second or "type" not in first or "type" not in second:
        return {}
    types = [first["type"]] if isinstance(first["type"], str) else list(first["type"])
    for kind in [second["type"]] if isinstance(second["type"], str) else second["type"]:
        if kind not in types:
            types.append(kind)
    if "integer" in types and "number" in types:
        types.remove("integer")
    out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
    if "enum" in first and "enum" in second:
        out["enum"] = first["enum"] + [v for v in second["enum"] if v not in first["enum"]]
    if "items" in first and first.get("items") == second.get("items"):
        out["items"] = first["items"]
    return out


def record_properties(
    resolver: Resolver,
    tree: Tree,
    path: str,
    node: ast.ClassDef,
    prefix: str,
    out: dict[str, dict[str, Any]],
    widen: bool = False,
    seen: tuple[str, ...] = (),
) -> None:
    """The keys of a TypedDict tree as dotted keys with their JSON types: a key whose annotation names a
    TypedDict (alone, in a union, under ``NotRequired``) becomes that class's keys, every member's; a key two
    members declare admits the types of both. ``widen``: a TypedDict also brings the keys of the classes that
    derive from it (a config section whose backend reads a subclass)."""
    for name, (annotation, ctx) in (record_fields(resolver, tree, path, node) or {}).items():
        key = prefix + name
        plain = Types()
        records = False
        for member in union_members(annotation):
            target = dotted_name(member)
            found = resolver.find(ctx[1], ctx[2], target) if target and not isinstance(member, ast.Subscript) else None
            if found and found[2].name not in seen and record_fields(resolver, *found) is not None:
                records = True
                for record in [found] + (subclasses(resolver, found) if widen else []):
                    record_properties(resolver, *record, f"{key}.", out, widen, (*seen, found[2].name))
            else:
                member_types = annotation_types(member, ctx)
                if member_types.any:
                    plain.any = True
                for kind in member_types.types:
                    plain.add(kind)
                if member_types.enum is not None and not member_types.open_string:
                    plain.enum = (plain.enum or []) + [v for v in member_types.enum if v not in (plain.enum or [])]
                elif member_types.types:
                    plain.open_string = True  # a member with no set of values: the key takes any of its type
                plain.items = member_types.items if plain.items is None else plain.items
        if records and not plain.any and set(plain.types) <= {"null"}:
            continue  # a section (null there drops it): its keys are the properties
        schema = plain.schema(False)
        out[key] = merge_schemas(out[key], schema) if key in out else schema


# ---------------------------------------------------------------------------- argparse flags
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
    if isinstance(node, ast.Call) and dotted_name(node.func) in ("float", "int") and len(node.args) == 1:
        value = evaluate(node.args[0], env)
        return float(value) if dotted_name(node.func) == "float" else int(value)
    value = literal(node)
    if value is not MISSING:
        return value
    raise _Unknown(ast.unparse(node))


_ARG_TYPES = {"int": "integer", "float": "number", "str": "string"}


def argparse_calls(
    body: list[ast.stmt], env: dict[str, Any], helpers: tuple[str, ...] = ()
) -> Iterable[tuple[ast.Call, dict[str, Any]]]:
    """The ``add_argument`` calls in ``body`` (loops unrolled), and calls of the ``helpers``: functions a framework
    defines that take the parser first and add a flag like add_argument."""
    for statement in body:
        if isinstance(statement, ast.For) and isinstance(statement.target, ast.Name):
            try:
                items = evaluate(statement.iter, env)
            except _Unknown:
                items = []
            for item in items:
                yield from argparse_calls(statement.body, {**env, statement.target.id: item}, helpers)
            continue
        if isinstance(statement, (ast.If, ast.With, ast.Try)):
            yield from argparse_calls(statement.body, env, helpers)
            yield from argparse_calls(getattr(statement, "orelse", []), env, helpers)
            continue
        if isinstance(statement, (ast.FunctionDef,)):
            yield from argparse_calls(statement.body, env, helpers)
            continue
        for node in ast.walk(statement):
            if not isinstance(node, ast.Call):
                continue
            if (isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument") or (
                isinstance(node.func, ast.Name) and node.func.id in helpers
            ):
                yield node, env


def argparse_property(call: ast.Call, env: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    # a helper's first argument is the parser (argparse_calls)
    arguments = call.args[1:] if isinstance(call.func, ast.Name) else call.args
    names = [evaluate(a, env) for a in arguments]
    keywords = {k.arg: k.value for k in call.keywords if k.arg}

    def kw(name: str, default: Any = None) -> Any:
        if name not in keywords:
            return default
        try:
            return evaluate(keywords[name], env)
        except _Unknown:
            return MISSING

    action = kw("action")
    if isinstance(keywords.get("action"), ast.Attribute) and dotted_name(keywords["action"]).endswith(
        "BooleanOptionalAction"
    ):
        action = "BooleanOptionalAction"  # --x and --no-x, no value; default None unless given
    prop: dict[str, Any] = {}
    if action in ("store_true", "store_false"):
        prop["type"] = "boolean"
        default = kw("default", action == "store_false")
    elif action == "BooleanOptionalAction":
        prop["type"] = "boolean"
        default = kw("default", None)
    else:
        kind = keywords.get("type")
        json_type = _ARG_TYPES.get(dotted_name(kind)) if kind is not None else "string"
        item: dict[str, Any] = {"type": json_type} if json_type else {}
        choices = kw("choices")
        if isinstance(choices, list):
            item["enum"] = choices
        nargs = kw("nargs")
        if nargs not in (None, "?") or action == "append":  # append: each use adds one value
            prop["type"] = "array"
            if item:
                prop["items"] = item
            if isinstance(nargs, int):
                prop["minItems"] = prop["maxItems"] = nargs
        else:
            prop.update(item)
        default = kw("default", None)
    if default is None and "type" in prop and action not in ("store_true", "store_false"):
        # BooleanOptionalAction's None default: the flag was not given (the code decides)
        prop["type"] = [prop["type"], "null"]
        if "enum" in prop:
            prop["enum"] = [*prop["enum"], None]
    if default is MISSING:
        with contextlib.suppress(KeyError):
            prop["x-default"] = ast.unparse(keywords["default"])
    else:
        add_default(prop, default)
    flags = [n[2:] for n in names if isinstance(n, str) and n.startswith("--")]
    if action == "BooleanOptionalAction":
        flags += [f"no-{flag}" for flag in flags]
    return flags, prop


# ---------------------------------------------------------------------------- the schema document
def document(
    framework: str,
    version: str,
    title: str,
    properties: dict[str, dict[str, Any]],
    sources: list[dict[str, Any]],
    unknown: tuple[str, str],
    type_check: tuple[str, str],
    notes: list[str],
) -> dict[str, Any]:
    """The schema document; ``unknown`` is (what the parser does with an unknown key: rejected | dropped, why),
    ``type_check`` (how it checks values, why)."""
    treatment, why = unknown
    check, check_why = type_check
    patterns: dict[str, dict[str, Any]] = {
        "^" + re.escape(key) + r"\..+$": {} for key, prop in properties.items() if _is_object(prop)
    }
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
