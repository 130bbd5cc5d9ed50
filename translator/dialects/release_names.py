"""The names each module of a framework's package defines at each release (a data file written by
scripts/gen_release_names.py from the released wheels): whether a script's ``from pkg.mod import name`` can work
on the release a project installs, and which releases a script's imports allow."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence

from translator.dialects.versions import version_key
from translator.errors import ConfigError
from translator.records import record
from translator.sources.code import PackageImport


@record
class ReleaseNames:
    """Per module: the release indexes it exists at, each name's, and those where it may supply any name."""

    releases: tuple[str, ...]
    modules: dict[str, frozenset[int]]
    names: dict[tuple[str, str], frozenset[int]]
    anything: dict[str, frozenset[int]]

    def missing(self, module: str, name: str | None, release: str) -> str | None:
        """What ``from module import name`` (``import module`` when name is None) lacks at ``release``: the
        module or ``module.name``; None when it works there, or when the release or module is not in the table
        (nothing to tell by); a module of the package that no release has is missing at every one."""
        if release not in self.releases or module.split(".")[0] not in self.modules:
            return None
        index = self.releases.index(release)
        if index not in self.modules.get(module, frozenset()):
            return module
        if name is None or index in self.anything.get(module, frozenset()):
            return None
        if index in self.names.get((module, name), frozenset()):
            return None
        return f"{module}.{name}"

    def releases_with(self, module: str, name: str | None) -> tuple[str, ...]:
        """The releases at which the import works."""
        return tuple(r for r in self.releases if self.missing(module, name, r) is None)


def _indexes(spans: str) -> frozenset[int]:
    out: set[int] = set()
    for span in spans.split(","):
        first, _, last = span.partition("-")
        out.update(range(int(first), int(last or first) + 1))
    return frozenset(out)


@functools.lru_cache(maxsize=4)
def load(path: str) -> ReleaseNames:
    releases: tuple[str, ...] = ()
    modules: dict[str, frozenset[int]] = {}
    names: dict[tuple[str, str], frozenset[int]] = {}
    anything: dict[str, frozenset[int]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith("releases "):
                releases = tuple(sorted(line.split()[1:], key=lambda v: version_key(v) or ()))
                continue
            module, spans, *entries = line.split()
            modules[module] = _indexes(spans)
            for entry in entries:
                name, _, where = entry.rpartition(":")
                if name == "*":
                    anything[module] = _indexes(where)
                else:
                    names[(module, name)] = _indexes(where)
    return ReleaseNames(releases, modules, names, anything)


@record
class Installed:
    """The release of a framework that a project installs and its launched code imports (no copy of its own)."""

    package: str  # the import name
    table: str  # the names file (scripts/gen_release_names.py)
    releases: tuple[str, ...]  # the release, or the candidates a pin between releases leaves
    stated: str  # where the project states it ("from requirements.txt:3")

    def refuse_unavailable(self, imports: Sequence[PackageImport]) -> None:
        """Stop (ConfigError) when one of the launched code's ``imports`` of the package fails at every release."""
        refuse_unavailable(load(self.table), imports, self.releases, self.package, self.stated)


def releases_allowing(
    table: ReleaseNames, imports: Sequence[PackageImport]
) -> tuple[tuple[str, ...], PackageImport | None]:
    """The releases at which every import works, and the last import that narrows them (None: none does)."""
    allowed, narrowest = set(table.releases), None
    for found in imports:
        for name in found.names or (None,):
            works = set(table.releases_with(found.module, name))
            if not allowed <= works:
                narrowest = found
                allowed &= works
    return tuple(r for r in table.releases if r in allowed), narrowest


def refuse_unavailable(
    table: ReleaseNames, imports: Sequence[PackageImport], releases: Sequence[str], package: str, stated: str
) -> None:
    """Stop (ConfigError) when an import of ``package`` the launched code makes at start-up fails at every one of
    ``releases`` (the release the project installs, or the candidates its pin leaves; ``stated``: where it says
    so): Python stops with ImportError before training. Releases the table does not hold are not judged."""
    if not releases or any(r not in table.releases for r in releases):
        return
    for found in imports:
        for name in found.names or (None,):
            lacks = [table.missing(found.module, name, r) for r in releases]
            if None in lacks:
                continue
            works = table.releases_with(found.module, name)
            span = f"{works[0]}–{works[-1]}" if works else ""
            what = f"{name} from {found.module}" if name else found.module
            raise ConfigError(
                f"{os.path.basename(found.path)} imports {what} at start-up, which {package} "
                f"{' and '.join(releases)} ({stated}) does not have ({lacks[0]} is in "
                f"{f'{package} {span}' if works else f'no {package} release'}): Python stops with ImportError before "
                "training",
                file=found.path,
                line=found.line,
                hint=(f"install a release of {package} that has it ({span})" if works else "correct the import")
                + f", or pass --from {package}@VERSION if the project runs another release",
            )
