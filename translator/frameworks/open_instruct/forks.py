"""Open-Instruct forks: the project's own copy of the program a launch runs, compared with upstream's code.

Most projects built on Open-Instruct are full forks: ``python open_instruct/grpo_fast.py`` runs the project's copy,
often modified. The copy (and its copies of the modules upstream moved batch forming into, ``MODULES``) is read with
``ast``, never imported. Every statement that forms the batch plan is reduced to a signature: the statement's own
text (a compound statement's head) with each dotted name cut to its last part and each string replaced by '…'
(``args.num_training_steps = args.total_episodes // (args.num_unique_prompts_rollout * ...)`` becomes
``num_training_steps = total_episodes // (num_unique_prompts_rollout * ...)``). A statement forms the plan when it
reads or sets one of ``LEAVES`` (the flags and derived sizes of the step, its mini-batches, packing, learners,
epochs, run length and group filtering, with the defaults of the flag dataclass) or repeats, joins, splits or
filters a batch (translator/sources/code.py ``batch_touches``); checks that only raise or log, assignments that
only record (metrics, logs, evaluation settings), another model's batch size (a reward model's, a judge's) and
functions that only evaluate are left out.

fork_signatures.txt (scripts/gen_oi_fork_signatures.py) holds, per upstream file and snapshot band (VERSIONS in
tables.py), a digest of every signature any upstream commit of that band has. A copy whose signatures are all in
the band of the version it is read as keeps its plan (``framework.fork-verified``); a signature no band has makes
the quantities it decides unknown (``framework.fork-batch-code``, with file:line); signatures found only in other
bands are named (``framework.fork-band``), and the reader makes that band's version a second candidate, so that
explain marks the quantities the two versions read differently assumed.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache

from translator.dialects.base import UNKNOWN, at_least
from translator.notes import NoteList
from translator.plan import PLAN_FIELDS, Derivation, RunSpec
from translator.sources.code import (
    ArgumentFields,
    Project,
    _touch,
    names_assigned,
    project_root,
    refuse_startup_failures,
    run_dirs,
    validation_function,
)
from translator.sources.files import Source

TABLE = os.path.join(os.path.dirname(__file__), "fork_signatures.txt")
# Upstream files (beside the launched program) that form batches: grpo_fast.py moved its data preparation into
# data_loader.py (2025-12) and the loss and accumulation helpers into grpo_utils.py (2026-01); grpo.py's learner is
# grpo_olmo_core_actor.py and olmo_core_train_modules.py.
MODULES = ("data_loader.py", "grpo_utils.py", "grpo_olmo_core_actor.py", "olmo_core_train_modules.py")

# What each kind of statement decides (Open-Instruct's arithmetic, docs/frameworks/open-instruct.md): a step is
# U prompts x S samples; num_mini_batches is a count of optimizer steps (so neither the group nor the step's size
# changes it); packed rows per device and the learners split each mini-batch; epochs repeat the updates; the run
# length divides total_episodes by the step; filtering drops rows of a formed step.
_STEP = ("samples_per_step", "samples_per_optimizer_step", "total_steps")
DECIDES: dict[str, tuple[str, ...]] = {
    "group": ("samples_per_prompt", *_STEP),
    "size": ("prompts_per_step", *_STEP),
    "rows": ("samples_per_optimizer_step", "micro_batch_per_device", "grad_accum_steps"),
    "update": ("samples_per_optimizer_step", "optimizer_steps_per_step", "micro_batch_per_device", "grad_accum_steps"),
    "epochs": ("epochs_per_step", "optimizer_steps_per_step"),
    "steps": ("total_steps",),
    "learners": ("data_parallel_size", "micro_batch_per_device", "grad_accum_steps"),
}
DECIDES["batches"] = tuple(dict.fromkeys(DECIDES["group"] + DECIDES["size"] + DECIDES["rows"]))
LEAVES: dict[str, str] = {
    **dict.fromkeys(("num_samples_per_prompt_rollout", "number_samples_per_prompt", "n"), "group"),
    **dict.fromkeys(
        (
            "num_unique_prompts_rollout",
            "rollout_batch_size",
            "local_rollout_batch_size",
        ),
        "size",
    ),
    **dict.fromkeys(
        (
            "num_mini_batches",
            "mini_batch_size",
            "local_mini_batch_size",
            "local_dataloader_batch_size",
            "per_device_train_batch_size",
            "gradient_accumulation_steps",
            "accumulation_steps",
            "pack_length",
        ),
        "update",
    ),
    "num_epochs": "epochs",
    **dict.fromkeys(("total_episodes", "num_training_steps", "num_total_batches"), "steps"),
    **dict.fromkeys(
        ("num_learners_per_node", "actor_num_gpus_per_node", "world_size", "sequence_parallel_size"), "learners"
    ),
    **dict.fromkeys(
        ("filter_zero_std_samples", "active_sampling", "non_zero_std_mask", "non_zero_gradient_index"), "rows"
    ),
}
# Assignments to metrics, logs, evaluation settings or timeouts: they read the sizes but form nothing; nor do Ray
# placement bundles (the CPUs a learner's GPU comes with: `bundles = [{"GPU": n, "CPU": n * 10} for n in ...]`),
# which place the learners that the launch's counts make.
_RECORDS = re.compile(r"metric|stats|log|eval|timeout|ratio|bundle", re.IGNORECASE)
_OTHER_MODEL = re.compile(r"(^|_|\.|\b)(rm|reward|judge|verifier|eval|tokeni[sz]e|embed)", re.IGNORECASE)
_LOGGING = frozenset(("print", "info", "warning", "warn", "debug", "error", "exception", "log", "write"))


@dataclass(frozen=True)
class Statement:
    """One plan-forming statement of a file: its line, signature and the kinds of quantity it decides."""

    line: int
    signature: str
    kinds: tuple[str, ...]


class _Cut(ast.NodeTransformer):
    """Dotted names to their last part (``self.args.x`` → ``x``), strings to '…': what a rename of the config
    object or a reworded message leaves alone. A local alias of an imported name (``aliases``) is that name, and
    ``Base.__init__(self, ...)`` is ``super().__init__(...)``: how a copy that imports lazily calls the same code."""

    def __init__(self, aliases: dict[str, str] | None = None) -> None:
        self.aliases = aliases or {}

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        return ast.Name(node.attr, ast.Load())

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(self.aliases[node.id], node.ctx) if node.id in self.aliases else node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func, args = node.func, node.args
        explicit_base = isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Name)
        if explicit_base and args and isinstance(args[0], ast.Name) and args[0].id == "self":
            node.args = args[1:]
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Constant("…") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return ast.Constant("…")


def _head(statement: ast.stmt) -> ast.AST | None:
    """A statement's own part: the test of an ``if``/``while``, ``for x in y`` without the body, the whole of a
    simple statement; None for the rest (a ``with``/``try`` holds statements of its own)."""
    if isinstance(statement, (ast.If, ast.While)):
        return statement.test
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return ast.Tuple([statement.target, statement.iter], ast.Load())  # shown as 'for target in iter'
    if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)):
        return statement
    return None


def _only_checks(body: list[ast.stmt]) -> bool:
    """A block that only raises, asserts or logs: the ``if`` guarding it forms nothing."""
    return all(
        isinstance(s, (ast.Raise, ast.Assert, ast.Pass))
        or (isinstance(s, ast.Expr) and isinstance(s.value, (ast.Call, ast.Constant)) and _logs(s.value))
        for s in body
    )


def _logs(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return True  # a docstring
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _LOGGING


def _records(statement: ast.stmt) -> bool:
    """An assignment whose targets all record something (``metrics = {...}``, ``eval_freq = ...``)."""
    if not isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return False
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    names = [ast.unparse(t) for t in targets]
    return all(_RECORDS.search(name) for name in names)


def _other_model(node: ast.AST) -> bool:
    """A batch size of another model or of evaluation (``rm_batch_size``, ``batch_size=args.judge_batch_size``):
    it sizes inference calls, not the training step."""
    if isinstance(node, ast.Call):
        sizes = [k for k in node.keywords if k.arg and "batch_size" in k.arg]
        return bool(sizes) and all(_OTHER_MODEL.search(f"{k.arg} {ast.unparse(k.value)}") for k in sizes)
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", node)]
    return all(_OTHER_MODEL.search(ast.unparse(t)) for t in targets if isinstance(t, ast.expr))


def _kinds(head: ast.AST) -> tuple[str, ...]:
    found: list[str] = []
    for node in ast.walk(head):
        leaf = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if isinstance(node, ast.keyword) and node.arg in LEAVES:
            found.append(LEAVES[node.arg])
        elif leaf in LEAVES and leaf != "n":  # a bare n is a loop count; n= or .n = is the group size
            found.append(LEAVES[leaf])
        elif isinstance(node, ast.Attribute) and node.attr == "n" and isinstance(node.ctx, ast.Store):
            found.append("group")
        touch = _touch(node)
        if touch is not None and not (touch[0] == "size" and _other_model(node)):
            found.append(touch[0])
    return tuple(dict.fromkeys(found))


def _lazy_import_aliases(tree: ast.Module) -> dict[str, str]:
    """Names bound to an attribute of a module imported at run time: ``m = __import__("pkg.mod")`` then ``f =
    getattr(m, "f")``, or ``f = __import__("pkg", fromlist=["f"]).f`` (a copy that keeps heavy imports local so Ray
    can pickle its actors): name → the attribute's own name."""
    modules = names_assigned(tree, _imports_at_run_time)
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        value = node.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "getattr"
            and len(value.args) == 2
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id in modules
            and isinstance(value.args[1], ast.Constant)
            and isinstance(value.args[1].value, str)
        ):
            aliases[node.targets[0].id] = value.args[1].value
        elif isinstance(value, ast.Attribute) and _imports_at_run_time(value.value):
            aliases[node.targets[0].id] = value.attr
    return aliases


def _imports_at_run_time(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"


def statements(tree: ast.Module) -> list[Statement]:
    """The plan-forming statements of a file (see module doc), in line order."""
    found: list[Statement] = []
    aliases = _lazy_import_aliases(tree)

    def visit(body: Iterable[ast.stmt]) -> None:
        for statement in body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not validation_function(statement.name):
                    visit(statement.body)
                continue
            if isinstance(statement, ast.Expr) and _logs(statement.value):
                continue
            head = _head(statement)
            checks = isinstance(statement, ast.If) and _only_checks(statement.body) and not statement.orelse
            if head is not None and not checks and not _records(statement):
                kinds = _kinds(head)
                if kinds:
                    cut = _Cut(aliases).visit(copy.deepcopy(head))
                    text = (
                        f"for {ast.unparse(cut.elts[0])} in {ast.unparse(cut.elts[1])}"
                        if isinstance(statement, (ast.For, ast.AsyncFor)) and isinstance(cut, ast.Tuple)
                        else ast.unparse(cut)
                    )
                    found.append(Statement(statement.lineno, " ".join(text.split()), kinds))
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list):
                    visit(s for s in inner if isinstance(s, ast.stmt))
                    visit(s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body)
            if isinstance(statement, ast.Match):
                visit(s for case in statement.cases for s in case.body)

    visit(tree.body)
    return found


def digest(signature: str) -> str:
    """The stored form of a signature: 10 hex digits of its SHA-1 (enough to tell a file history's apart)."""
    return hashlib.sha1(signature.encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True)
class Band:
    """One upstream file over one snapshot band: the first version of the band, the commits it spans and the
    digests of every signature those commits' copies of the file have."""

    version: str
    file: str
    commits: str
    digests: frozenset[str]


@cache
def bands() -> tuple[Band, ...]:
    """fork_signatures.txt: a header comment, then per band a line ``band VERSION FILE FIRST..LAST N`` followed by
    one line of digests (empty when the file has no plan-forming statement)."""
    out: list[Band] = []
    with open(TABLE, encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if line.startswith("band "):
                out.append(Band(words[1], words[2], words[3], frozenset()))
            elif out and not line.startswith("#"):
                out[-1] = replace(out[-1], digests=out[-1].digests | frozenset(words))
    return tuple(out)


def _unknown(spec: RunSpec, quantities: set[str], keys: list[str], why: str) -> None:
    """Mark plan quantities unknown (forkbatch's own helper leaves out the data-parallel size and the epochs, which
    a verl fork keeps; an Open-Instruct copy may set both)."""
    for name in (q for q in PLAN_FIELDS if q in quantities):
        setattr(spec.plan, name, None)
        spec.derivations[f"plan.{name}"] = Derivation(f"unknown: {why}", keys, UNKNOWN)


def _band_of(version: str, file: str) -> Band | None:
    """The band ``version`` falls in for ``file`` (the newest band starting at or before it)."""
    own = [b for b in bands() if b.file == file and at_least(version, b.version)]
    return own[-1] if own else None


def _files(project: Project, launched: str, program: str) -> Iterator[tuple[str, str]]:
    """(path, upstream file name) of the launched copy (upstream's ``program``) and of the copies of ``MODULES``
    beside it that it imports, directly or through one another (grpo.py → grpo_olmo_core_actor.py →
    olmo_core_train_modules.py)."""
    yield launched, program
    folder, queue, seen = os.path.dirname(launched), [launched], {launched}
    while queue:
        tree = project.tree(queue.pop(0))
        for name in sorted(_imported(tree) if tree is not None else set()):
            path = os.path.join(folder, name)
            if name in MODULES and path not in seen and os.path.isfile(path):
                seen.add(path)
                queue.append(path)
                yield path, name


def _imported(tree: ast.Module) -> set[str]:
    """The file names (``data_loader.py``) of every module a file imports, by its last dotted part."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.add(f"{(node.module or '').split('.')[-1]}.py")
            names.update(f"{alias.name}.py" for alias in node.names)  # from open_instruct import data_loader
        elif isinstance(node, ast.Import):
            names.update(f"{alias.name.split('.')[-1]}.py" for alias in node.names)
    return names


def locate(source: Source, cwd: str | None, script: str) -> tuple[Project, str] | None:
    """The project file a launch of ``script`` (``open_instruct/grpo_fast.py``) runs: from the launch's run
    directory (translator/sources/code.py ``run_dirs``), else from the launching script's folder or the nearest
    folder above it, inside its project, that holds that path (a script in scripts/train/ run from the repository's
    top). Unlike ``Project.script``, a same-named file elsewhere in the project (another fork's copy) is not taken."""
    near = str(source.base_dir) if source.base_dir is not None and not source.files else None
    for run_dir in run_dirs(source, cwd):
        project = Project(project_root(run_dir), run_dir)
        path = project.script(script)
        if path is not None:
            return project, path
        folder = os.path.realpath(near) if near is not None and not os.path.isabs(script) else None
        while folder is not None and project.inside(folder):
            candidate = os.path.join(folder, script)
            if candidate.endswith(".py") and os.path.isfile(candidate):
                return project, os.path.realpath(candidate)
            folder = None if folder == project.root else os.path.dirname(folder)
    return None


def launched_arguments(source: Source, cwd: str | None, script: str) -> ArgumentFields | None:
    """The flags the project's copy of the launched ``script`` accepts (the fields of the dataclasses its
    parser is given), or None when the project holds no copy or the copy builds no parser rlconf can read."""
    found = locate(source, cwd, script)
    return found[0].argument_fields(found[1]) if found is not None else None


def check(
    source: Source,
    cwd: str | None,
    script: str,
    program: str,
    version: str,
    assumed: bool,
    spec: RunSpec,
    notes: NoteList,
) -> tuple[str, ...]:
    """Compare the project's copy of the launched ``script`` (read as upstream's ``program``: a fork's renamed
    script is read as grpo_fast.py) with upstream's (see module doc); the bands the copy follows more closely than
    ``version``'s (several when they hold as many of its statements), if any. Nothing happens when the project
    holds no copy (upstream's installed program runs)."""
    found = locate(source, cwd, script)
    if found is None:
        return ()
    project, launched = found
    refuse_startup_failures(project, launched, None, source.name)
    extra: list[tuple[str, Statement]] = []
    elsewhere: dict[str, list[str]] = {}  # band version → places whose signature only that band has
    compared: list[str] = []
    with warnings.catch_warnings():  # a copy's invalid escape sequences are its own business, not the reader's
        warnings.simplefilter("ignore", (SyntaxWarning, DeprecationWarning))
        files = [(path, name, project.tree(path)) for path, name in _files(project, launched, program)]
    for path, name, tree in files:
        own = _band_of(version, name)
        if tree is None or own is None:
            continue
        compared.append(project.rel(path))
        others = [b for b in bands() if b.file == name]
        for statement in statements(tree):
            key = digest(statement.signature)
            if key in own.digests:
                continue
            holders = [b.version for b in others if key in b.digests]
            place = f"{project.rel(path)}:{statement.line}"
            if holders:
                for holder in holders:
                    elsewhere.setdefault(holder, []).append(place)
            else:
                extra.append((place, statement))
    if not compared:
        return ()
    shown = ", ".join(compared)
    if extra:
        decided = {q for _, s in extra for kind in s.kinds for q in DECIDES[kind]}
        where = "; ".join(f"{place} {s.signature[:80]}" for place, s in extra[:4])
        more = f" and {len(extra) - 4} more" if len(extra) > 4 else ""
        _unknown(
            spec,
            decided,
            [place for place, _ in extra],
            f"the project's copy of Open-Instruct forms batches with code no upstream snapshot has ({where})",
        )
        notes.warning(
            "framework.fork-batch-code",
            f"the launched copy ({shown}) forms batches with statements no upstream Open-Instruct snapshot "
            f"has: {where}{more}; the plan quantities they decide ({', '.join(sorted(decided))}) are unknown (read "
            "that code and state them by hand)",
            source_keys=[place for place, _ in extra[:4]],
        )
    best: tuple[str, ...] = ()
    if elsewhere:
        most = max(len(places) for places in elsewhere.values())
        best = tuple(v for v in sorted(elsewhere) if len(elsewhere[v]) == most)  # bands holding the most of them
        places = elsewhere[best[0]]
        how = "inferred from the flags" if assumed else "given"
        bands_named = " or ".join((", ".join(best[:-1]), best[-1])) if len(best) > 1 else best[0]
        notes.warning(
            "framework.fork-band",
            f"the launched copy ({shown}) has {len(places)} batch-forming statement(s) that open-instruct "
            f"{version} ({how}) does not have and the snapshot band from {bands_named} has "
            f"({', '.join(places[:4])}); the copy may follow {bands_named}: the quantities that version reads "
            "otherwise are assumed (pass --from open-instruct@VERSION with the snapshot it follows)",
            source_keys=places[:4],
        )
    if not extra and not elsewhere:
        band = _band_of(version, program)
        span = f" (commits {band.commits})" if band is not None else ""
        notes.info(
            "framework.fork-verified",
            f"the launched copy ({shown}) forms batches with upstream's statements only (verified against "
            f"open-instruct {version}'s band{span})",
            source_keys=compared[:1],
        )
    return best
