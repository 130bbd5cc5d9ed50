"""A config schema declared as Python dataclasses, read from a project's files (never imported).

Several frameworks build their config by merging the launch's keys into a tree of dataclasses and refuse a key no
dataclass of the tree declares (an OmegaConf structured config's ConfigKeyError, a ``build_nested_dataclass`` that
validates each level's keys). A project that keeps its own copy of those classes, or subclasses them in its entry
(``class MyConfig(TrainConfig): my_section: MySection``), is judged by its own classes: this module reads them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping

from translator.records import record

# Optional[X], "X", X | None, Annotated[X, ...]: the class a field holds
_WRAPPED = re.compile(r"^(?:Optional\[(.+)\]|Annotated\[([^,]+),.*\]|(.+?)\s*\|\s*None|None\s*\|\s*(.+))$")
MAX_BASES = 8  # a class hierarchy deeper than any real config's
_PLAIN_BASES = ("object", "ABC", "Generic")  # bases that hold no dataclass fields


@record
class DataClass:
    """One ``@dataclass`` of the project: its own fields (name → annotation as written) and its bases' names."""

    fields: dict[str, str]
    bases: tuple[str, ...]


def held_class(annotation: str) -> str:
    """The class name an annotation holds, its Optional / Annotated / ``| None`` wrappers and quotes taken off."""
    text = annotation.strip().strip("'\"")
    for _ in range(3):  # Optional[Annotated[X, ...]]
        match = _WRAPPED.match(text)
        if not match:
            break
        text = next(g for g in match.groups() if g).strip().strip("'\"")
    return text.rsplit(".", 1)[-1]


def dataclasses_in(trees: Iterable[ast.Module]) -> dict[str, DataClass | None]:
    """Class name → its dataclass, over every class of the trees (a plain one with no fields); None for a name two
    classes share with different fields (which one a field means is not known)."""
    found: dict[str, DataClass | None] = dict.fromkeys(_PLAIN_BASES, DataClass({}, ()))
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            fields = {
                item.target.id: ast.unparse(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
            if not any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                fields = {}  # a plain class's annotations are no fields of a dataclass deriving from it
            bases = (b.value if isinstance(b, ast.Subscript) else b for b in node.bases)  # Generic[T]: Generic
            own = DataClass(fields, tuple(ast.unparse(b).rsplit(".", 1)[-1] for b in bases))
            if node.name in found and found[node.name] != own:
                found[node.name] = None
            else:
                found.setdefault(node.name, own)
    return found


def all_fields(classes: Mapping[str, DataClass | None], name: str) -> dict[str, str] | None:
    """A dataclass's fields with those of its bases (a subclass's own annotation wins); None when the class or one
    of its bases is not a dataclass read here (its fields are then not all known)."""
    chain: list[DataClass] = []
    pending = [name]
    while pending and len(chain) < MAX_BASES:
        found = classes.get(pending.pop(0))
        if found is None:
            return None
        chain.append(found)
        pending += list(found.bases)
    fields: dict[str, str] = {}
    for one in reversed(chain):
        fields.update(one.fields)
    return fields


def missing_part(classes: Mapping[str, DataClass | None], root: str, key: str, opened: int = 0) -> str | None:
    """The first part of dotted ``key`` that the tree from ``root`` certainly lacks ('data.chat_template'); None
    when every part is declared, when the walk reaches a field whose type is not a dataclass read here (a dict, a
    scalar, a class not found: not judged), or when the part is at a depth below ``opened`` (a node the code opened
    to new keys)."""
    current = root
    parts = key.split(".")
    for i, part in enumerate(parts):
        fields = all_fields(classes, current)
        if fields is None:
            return None
        if part not in fields:
            return None if i < opened else ".".join(parts[: i + 1])
        current = held_class(fields[part])
    return None
