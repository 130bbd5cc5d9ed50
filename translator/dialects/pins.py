"""Pin discovery: the release a project's own statements (pins, install lines, copies) say a config is read as."""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

from translator.dialects.versions import RELEASE_PATTERN, split_version, version_key
from translator.errors import ConfigError
from translator.records import record
from translator.sources.files import Source
from translator.sources.project import Evidence

if TYPE_CHECKING:
    from translator.dialects.base import Dialect, Reading


@record
class ProjectVersion:
    """What a read takes from the project's own statements (:meth:`Dialect.project_evidence`)."""

    read_as: str | None  # the version to read with; None: the project states no release rlconf reads
    used: Evidence | None  # the evidence read_as comes from
    others: list[Evidence]  # other releases the project states (conflicts), strongest first
    commits: list[Evidence]  # git pins to a commit or branch: no release
    why: str = ""  # how a pre-release copy was placed
    candidates: tuple[str, ...] | None = None  # uncertain: the releases to check against (() every fitting one)
    companion: Evidence | None = None  # the pin of the dialect's companion package (TRL: transformers)

    def report(self, dialect: Dialect, reading: Reading) -> None:
        """The notes saying where the version came from, what else the project states, and what is unknown."""
        name, notes = dialect.name, reading.notes
        if self.candidates is not None:
            reading.candidates = self.candidates
        if self.used is not None and self.used.kind == "copy":
            reading.own_copy = self.used.copy_dir or self.used.file
        used = self.used
        if used is not None:
            kind = (
                f"the {name} copy in this project"
                if used.kind == "copy"
                else "the release rlconf wrote the file for"
                if used.kind == "written"
                else f"a git pin to tag {used.version}"
                if used.kind == "git-tag"
                else "a git pin to a commit"
                if used.kind == "git-commit"
                else "a git pin to a branch"
                if used.kind == "git-ref"
                else "a pin"
            )
            if self.read_as:
                notes.info(
                    "version.project",
                    f"{name} {used.version} from {used.where} ({kind}){self.why}; pass "
                    f"--from {name}@VERSION to choose another",
                    source_keys=[used.where],
                )
            else:
                notes.warning(
                    "version.project-unsupported",
                    f"{name} {used.version} from {used.where} is not a "
                    f"version rlconf reads ({dialect.versions[0]} to {dialect.versions[-1]}); the version was "
                    "inferred from the keys instead",
                    source_keys=[used.where],
                )
        if self.others and used is not None:
            reason = (
                "a copy kept in the project is what the launch imports"
                if used.kind == "copy"
                else "it is the nearest to the script"
            )
            listed = "; ".join(f"{e.version} at {e.where}" for e in self.others)
            ranged = " (rules whose verdict differs between them are checked per release)" if self.candidates else ""
            notes.warning(
                "version.conflict",
                f"the project states other {name} releases: {listed}; "
                f"{used.version} from {used.where} is used because {reason}{ranged}",
                source_keys=[e.where for e in self.others],
            )
        for commit in self.commits:
            what = "commit" if commit.kind == "git-commit" else "git reference"
            instead = (
                f"{used.version} from {used.where} is used instead"
                if used is not None and self.read_as
                else "the version is inferred from the keys, and check reports rules whose verdict differs per release"
            )
            notes.warning(
                "version.project-commit",
                f"{commit.where} installs {name} from {what} {commit.version}, "
                f"not a release, so the release it matches is unknown; {instead}",
                source_keys=[commit.where],
            )


def project_version(dialect: Dialect, source: Source) -> ProjectVersion | None:
    """The project's statements about ``dialect``'s version, ranked (see docs/launch-scripts.md, "The version
    the project states"): a copy of the framework beats pins, nearer beats farther; commits state no release."""
    from translator.sources.project import normal

    found = dialect.project_evidence(source)
    own = [e for e in found if e.package == normal(dialect.pip_name or dialect.name)]
    # The companion pin counts beside the framework's own statement (one install list), not from any other file.
    own_files = [e.file for e in own]
    companion = min(
        (
            e
            for e in found
            if dialect.companion and e.package == normal(dialect.companion) and e.kind == "pin" and e.file in own_files
        ),
        key=lambda e: own_files.index(e.file),
        default=None,
    )
    if not own and companion is None:
        return None
    releases = [e for e in own if e.states_release]
    commits = list({e.version: e for e in reversed(own) if not e.states_release}.values())[::-1]
    used = releases[0] if releases else None
    read_as, why, candidates = _readable(dialect, used) if used else (None, "", None)
    others: list[Evidence] = []
    for evidence in releases[1:]:
        assert used is not None  # releases[0]
        if evidence.version != used.version and all(o.version != evidence.version for o in others):
            others.append(evidence)
    if used is not None and read_as and others and candidates is None:  # read_as is set only beside used
        resolved = {r for r in (_resolved(dialect, e.version) for e in [used, *others]) if r}
        if len(resolved) > 1:
            candidates = tuple(sorted(resolved, key=lambda v: version_key(split_version(v)) or ()))
    if commits and used is None:
        for commit in commits:
            placed = _commit_release(dialect, commit) or _dated_branch(dialect, commit, source)
            if placed is not None:
                read_as, why, candidates = placed
                used, commits = commit, [c for c in commits if c is not commit]
                break
        else:
            candidates = ()
    return ProjectVersion(read_as, used, others, commits, why, candidates, companion)


@functools.lru_cache(maxsize=8)
def _bands(path: str) -> dict[str, tuple[str, str]]:
    """Commit prefix (8 hex) → ("release" | "before" | "after", release) from a commit-bands file."""
    bands: dict[str, tuple[str, str]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            kind, release, *commits = line.split()
            for commit in commits:
                bands[commit] = (kind, release)
    return bands


def _commit_release(dialect: Dialect, commit: Evidence) -> tuple[str, str, tuple[str, ...]] | None:
    """(version to read with, how it was placed, the releases to check against) for a pin to a commit of the
    framework's own history (:attr:`Dialect.commit_bands`); None for a commit or branch it does not list."""
    if commit.kind != "git-commit" or not dialect.commit_bands or len(commit.version) < 7:
        return None
    prefix = commit.version.lower()[:8]
    found = {band for key, band in _bands(dialect.commit_bands).items() if key.startswith(prefix)}
    if len(found) != 1:  # unknown, or a short prefix that two commits share
        return None
    kind, release = found.pop()
    if kind == "release":
        read = _resolved(dialect, release)
        return (read, f"; commit {commit.version[:8]} is the {release} release itself", ()) if read else None
    listed = [v for v in dialect.versions if _resolved(dialect, v) == v]
    if kind == "before":
        before = _resolved(dialect, f"{release}.dev0")
        if before is None:
            return None
        later = release if release in listed else before
        return (
            before,
            f"; commit {commit.version[:8]} precedes {release} in {dialect.name}'s history and is in no earlier "
            f"release, so it may hold some of {release}'s changes: read as {before} (the release before "
            f"{release}), checked against both",
            tuple(dict.fromkeys((before, later))),
        )
    newer = [v for v in listed if (version_key(split_version(v)) or ()) > (version_key(split_version(release)) or ())]
    read = _resolved(dialect, release)
    if read is None:
        return None
    return (
        read,
        f"; commit {commit.version[:8]} comes after {release} in {dialect.name}'s history (the newest release "
        f"rlconf's table holds): read as {read}"
        + (f", checked against the releases after it ({', '.join(newer)})" if newer else ""),
        (read, *newer),
    )


@functools.lru_cache(maxsize=8)
def _release_dates(path: str) -> tuple[tuple[str, str], ...]:
    """(release, day published as YYYY-MM-DD), oldest first, from a dialect's release_dates file."""
    with open(path, encoding="utf-8") as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    return tuple((row[0], row[1]) for row in rows if len(row) == 2)


def _dated_branch(dialect: Dialect, pin: Evidence, source: Source) -> tuple[str, str, tuple[str, ...]] | None:
    """(version to read with, how it was placed, the releases to check against) for a pin to a branch
    (``git+…@main``) in a checkout whose own commit has a date D (:func:`translator.sources.gitdate.commit_date`):
    the branch held then the last release published by D and changes toward the next, so it is read as that
    release and checked against both. None without the project's commit date or the dialect's release dates."""
    from translator.sources.code import project_root
    from translator.sources.gitdate import commit_date

    if pin.kind != "git-ref" or not dialect.release_dates or source.base_dir is None:
        return None
    day = commit_date(project_root(os.fspath(source.base_dir)))
    if day is None:
        return None
    dates = _release_dates(dialect.release_dates)
    before = [(v, d) for v, d in dates if d <= day.isoformat()]
    after = [(v, d) for v, d in dates if d > day.isoformat()]
    if not before:
        return None
    (release, published), following = before[-1], after[0] if after else None
    read = _resolved(dialect, release)
    if read is None:
        return None
    later = _resolved(dialect, following[0]) if following else None
    why = (
        f"; {pin.version} is dated by the project's own commit ({day.isoformat()}): the branch then held {release} "
        f"(published {published})"
        + (f" and changes toward {following[0]} (published {following[1]})" if following else "")
        + f", read as {read}"
        + (f", checked against {later} too" if later and later != read else "")
        + f", and against {dialect.versions[-1]}, the newest (installed today, {pin.version} is the branch as it "
        "is now)"
    )
    return read, why, tuple(dict.fromkeys(v for v in (read, later, dialect.versions[-1]) if v))


def _resolved(dialect: Dialect, version: str) -> str | None:
    """The listed version ``version`` reads as (None: rlconf reads no such version), without keeping notes."""
    try:
        return dialect.resolve_version(version)
    except ConfigError:
        return None
    finally:
        dialect.take_version_notes()


def _readable(dialect: Dialect, used: Evidence) -> tuple[str | None, str, tuple[str, ...] | None]:
    """(version to read with, how it was placed, candidates when undecided) for the evidence used. A copy whose
    version file names a pre-release ('0.2.0.dev') holds the release before it plus some of the release's
    changes: its own config file (:attr:`Dialect.copy_config`) tells which of the two its keys are."""
    before = _resolved(dialect, used.version)
    if before is None:
        return None, "", None
    release = RELEASE_PATTERN.fullmatch(used.version)
    if used.kind != "copy" or not (release and release["pre"]):
        return used.version, "", None
    itself = _resolved(dialect, release["release"])
    if itself is None or itself == before:
        return used.version, "", None
    keys = _copy_keys(dialect, used)
    known_before, known_itself = dialect.keys_in(before), dialect.keys_in(itself)
    if keys is None or known_before is None or known_itself is None:
        return used.version, "", (before, itself)
    added, dropped = known_itself - known_before, known_before - known_itself
    score_itself = len(keys & added) + len(dropped - keys)
    score_before = len(keys & dropped) + len(added - keys)
    from translator.sources.project import shown

    config = shown(os.path.join(used.copy_dir or "", dialect.copy_config or dialect.copy_package or ""))
    if score_itself > score_before:
        sample = ", ".join(sorted(keys & added)[:2]) or ", ".join(sorted(dropped - keys)[:2])
        return (
            itself,
            (
                f"; a pre-release of {release['release']} whose own {config} has the keys of {itself} "
                f"(e.g. {sample}), so it is read as {itself}"
            ),
            None,
        )
    if score_before > score_itself:
        return (
            before,
            (
                f"; a pre-release of {release['release']} whose own {config} has the keys of {before}, "
                f"not those {itself} added, so it is read as {before}"
            ),
            None,
        )
    return used.version, "", (before, itself)


def _copy_keys(dialect: Dialect, used: Evidence) -> set[str] | None:
    """The dotted keys of a copy's own config file, or of its config classes where the dialect reads those
    (:meth:`Dialect.copy_keys`); None: the copy has none rlconf can read."""
    if not used.copy_dir:
        return None
    declared = dialect.copy_keys(used.copy_dir)
    if declared is not None or not dialect.copy_config:
        return declared
    from translator.sources.files import flatten, load_yaml, read_text
    from translator.sources.project import MAX_FILE_BYTES

    path = os.path.join(used.copy_dir, dialect.copy_config)
    text = read_text(path, MAX_FILE_BYTES)
    try:
        data = load_yaml(text, path) if text is not None else None  # bounded: an alias bomb is refused
    except ConfigError:
        return None
    return set(flatten(data)) if isinstance(data, dict) else None
