"""Python drivers of slime and Miles (``scripts/run_*.py``, ``examples/**/run*.py``, a project's ``configs/*.py``):
the command they build, read statically.

A driver keeps its options in ``@dataclass class ScriptArgs(U.ExecuteTrainConfig)``, builds the training flags as
a string in a function and passes it to ``U.execute_train(train_args=..., megatron_model_type=...,
train_script=...)`` (slime/utils/external_utils/command_utils.py from slime v0.2.0 on, and Miles' copy of it at
miles/utils/external_utils/command_utils.py@v0.1.0), which runs ``ray job submit -- python3 <train_script> <model
args> <train_args>``: the model args are the architecture's (slime: ``scripts/models/<megatron_model_type>.sh``'s
``MODEL_ARGS``; Miles: ``scripts/models/<megatron_model_type>.py``'s ``model_args()``; no batch flag; not read, as
a shell launch's ``MODEL_ARGS`` is not), the rest is what the driver built. The string is evaluated with the
dataclass defaults (what ``python run_x.py`` with no options runs) by translator/sources/pydriver.py; a piece it
cannot compute leaves only the flags it holds unknown.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from translator.errors import ConfigError
from translator.frameworks.slime.tables import SWITCHES
from translator.notes import NoteList
from translator.sources.files import Source
from translator.sources.pyconfig import parse
from translator.sources.pydriver import (
    Evaluator,
    Text,
    Unknown,
    dataclass_fields,
    distinct,
    module_scope,
    run_function,
)

CALL = "execute_train"
CONFIG_BASE = "ExecuteTrainConfig"
LAUNCH = r"python[\d.]*\s+(?:\S*/)?train(?:_async)?\.py\b"  # the command execute_train submits


@dataclass(frozen=True)
class Helper:
    """A framework's launch helper module (``<package>/utils/external_utils/command_utils.py`` at ``tag``): the
    fields of its ExecuteTrainConfig besides num_nodes (which it takes from SLURM_JOB_NUM_NODES), and the tables
    drivers index by their ``hardware`` field."""

    label: str
    tag: str
    code: str  # the framework's name, its note codes' prefix (slime.driver-defaults, miles.driver-defaults)
    base_fields: dict[str, Any]
    num_gpus_of_hardware: dict[str, int]
    generation_hardware: dict[str, str]


# slime's at v0.3.1 (unchanged in these fields since v0.2.0, where command_utils.py first appears)
SLIME_HELPER = Helper(
    "slime",
    "v0.3.1",
    "slime",
    {"cuda_core_dump": False, "extra_env_vars": ""},
    {"H100": 8, "GB200": 4, "GB300": 4},
    {"H100": "Hopper", "GB200": "Blackwell", "GB300": "Blackwell"},
)
# The valued flags the batch plan reads (translator/frameworks/slime/dialect.py SlimeReader): a loose unknown piece
# of train_args may set any of them.
PLAN_FLAGS = (
    "rollout-batch-size",
    "n-samples-per-prompt",
    "global-batch-size",
    "num-steps-per-rollout",
    "micro-batch-size",
    "actor-num-nodes",
    "actor-num-gpus-per-node",
    "tensor-model-parallel-size",
    "pipeline-model-parallel-size",
    "context-parallel-size",
    "num-rollout",
)


@dataclass
class DriverLaunch:
    """The launch a driver builds: the words after ``python3 <entry>``, the line of each flag, the entry."""

    words: list[str]
    origins: dict[str, str]  # flag name → "file:line"
    entry: str
    line: int  # the execute_train call's line


def is_driver(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Call) and ast.unparse(n.func).rpartition(".")[2] == CALL for n in ast.walk(tree))


def _typer_command(
    tree: ast.Module, source: Source, env: Mapping[str, str], launching: set[str]
) -> ast.FunctionDef | None:
    """Where the driver's ``__main__`` runs a typer app that is a group (a ``@app.callback()``, or several
    ``@app.command()`` functions), ``python FILE`` alone stops: click's group takes a command first ("Missing
    command.", exit 2). The command is the script's first argument (``--env 1=NAME``); one that never reaches the
    function calling execute_train (``launching``) trains nothing. An app with one command and no callback runs it.
    Returns the chosen command's function (None: no group)."""
    apps = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value.func).rpartition(".")[2] == "Typer"
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    main = [
        n
        for n in tree.body
        if isinstance(n, ast.If) and "__name__" in ast.unparse(n.test) and "__main__" in ast.unparse(n.test)
    ]
    runs_app = any(
        isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in apps
        for m in main
        for c in ast.walk(m)
    )
    if not runs_app:
        return None
    commands: dict[str, ast.FunctionDef] = {}
    callback = False
    for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        for decorator in function.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = ast.unparse(call.func if call else decorator)
            app, _, kind = target.rpartition(".")
            if app not in apps:
                continue
            if kind == "callback":
                callback = True
            elif kind == "command":
                named = [a.value for a in (call.args if call else []) if isinstance(a, ast.Constant)]
                named += [
                    k.value.value
                    for k in (call.keywords if call else [])
                    if k.arg == "name" and isinstance(k.value, ast.Constant)
                ]
                commands[str(named[0]) if named else function.name.replace("_", "-")] = function
    if not callback and len(commands) <= 1:
        return None
    chosen = env.get("1")
    listed = ", ".join(commands)
    if chosen is None:
        raise ConfigError(
            f"`python {os.path.basename(source.name)}` with no command stops: its typer app is a group "
            f"(commands: {listed}), which takes a command first (Missing command.)",
            file=source.name,
            hint="pass the command the run uses as the script's first argument: --env 1=COMMAND",
        )
    picked = commands.get(chosen)
    if picked is None:
        raise ConfigError(
            f"{chosen} is not a command of the driver's typer app (commands: {listed})",
            file=source.name,
            key="1",
            hint="pass one of its commands with --env 1=COMMAND",
        )
    if not _reaches(tree, picked, launching):
        raise ConfigError(
            f"the driver's command {chosen} never reaches {CALL}: it trains nothing",
            file=source.name,
            line=picked.lineno,
            hint="pass the command that trains with --env 1=COMMAND",
        )
    return picked


def _reaches(tree: ast.Module, function: ast.FunctionDef, targets: set[str], depth: int = 0) -> bool:
    """Whether ``function`` calls one of ``targets`` (module functions, by name), directly or through the module's
    other functions it calls or hands on (``partial(f, ...)``), at most 6 calls deep."""
    if function.name in targets:
        return True
    named = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    if named & targets:
        return True
    module_functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    return depth < 6 and any(
        _reaches(tree, module_functions[name], targets, depth + 1)
        for name in sorted(named & set(module_functions) - {function.name})
    )


def _refuse_other_launchers(tree: ast.Module, source: Source, helper: Helper) -> None:
    """A driver calling a launch helper other than execute_train (an ``execute_train_npu`` that the framework's
    command_utils.py does not define: it has execute_train only) is not read: what it runs is not known."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func).rpartition(".")[2]
            if name.startswith(CALL) and name != CALL:
                raise ConfigError(
                    f"the driver launches through {name}, which {helper.label}'s command_utils does not define "
                    f"({helper.tag} has {CALL} only): its import fails, and what it would run is not known",
                    file=source.name,
                    line=node.lineno,
                    hint=f"launch through U.{CALL}, or pass the command the driver runs (a train.py launch script)",
                )


def _wandb(node: ast.Call, evaluator: Evaluator) -> Any:
    # get_default_wandb_args returns the --use-wandb/--wandb-* logging flags, or "" without WANDB_API_KEY
    # (command_utils.py get_default_wandb_args, slime and Miles alike): no plan flag either way.
    return ""


def read_driver(source: Source, env: Mapping[str, str], notes: NoteList, helper: Helper) -> DriverLaunch:
    """The flags the driver passes ``execute_train`` with its dataclass defaults (``--env FIELD=VALUE`` sets a
    field, as ``--field VALUE`` on the driver's command line would), through ``helper``'s command_utils."""
    tree = parse(source)
    evaluator = Evaluator(
        source.name,
        {**helper.base_fields, "num_nodes": int(env.get("SLURM_JOB_NUM_NODES", "1"))},
        names={
            "U.NUM_GPUS_OF_HARDWARE": helper.num_gpus_of_hardware,
            "U.GENERATION_HARDWARE": helper.generation_hardware,
        },
        helpers={"get_default_wandb_args": _wandb},
        env=env,
        watched=frozenset({CALL}),
        lines=source.text.splitlines(),
    )
    evaluator.functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    evaluator.classes = {
        c.name: c
        for c in tree.body
        if isinstance(c, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in c.decorator_list)
    }
    scope = module_scope(tree, evaluator)
    evaluator.module = scope
    evaluator.calls.clear()
    config, annotations = dataclass_fields(tree, evaluator, CONFIG_BASE, scope)
    for key, text in env.items():
        if key in annotations:
            evaluator.fields[key] = _typed(text, annotations[key])
    given = [key for key in env if key in annotations]
    if config is not None:
        notes.info(
            f"{helper.code}.driver-defaults",
            f"{source.name}: the driver's options are {config.name}'s defaults (line {config.lineno}), what "
            "`python "
            + os.path.basename(source.name)
            + "` with no options runs"
            + (f"; set by --env: {', '.join(given)}" if given else "; --env FIELD=VALUE sets one")
            + "; __post_init__ and the building function are evaluated statically",
        )
        evaluator.properties = {
            f.name: f
            for f in config.body
            if isinstance(f, ast.FunctionDef) and any(ast.unparse(d) == "property" for d in f.decorator_list)
        }
        post = next((f for f in config.body if isinstance(f, ast.FunctionDef) and f.name == "__post_init__"), None)
        if post is not None:
            stopped = run_function(evaluator, post, scope, config.name)
            _stopped(stopped, source)
    _refuse_other_launchers(tree, source, helper)
    if not is_driver(tree):
        return _self_run(tree, source, scope, evaluator, env, notes, helper)
    functions = [
        f
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef)
        and any(isinstance(n, ast.Call) and ast.unparse(n.func).rpartition(".")[2] == CALL for n in ast.walk(f))
    ]
    chosen = _typer_command(tree, source, env, {f.name for f in functions})
    if chosen is not None:  # the launching functions the chosen command reaches
        functions = [f for f in functions if _reaches(tree, chosen, {f.name})]
    if not functions:
        raise ConfigError(
            f"the call to {CALL} is not inside a function",
            file=source.name,
            hint=f"rlconf reads a {helper.label} driver whose function builds train_args and calls U.execute_train",
        )
    stopped = run_function(evaluator, functions[0], scope, config.name if config else None)
    _stopped(stopped, source)
    calls = evaluator.calls.get(CALL, [])
    if not calls:
        raise ConfigError(
            f"with its defaults, {functions[0].name}() never reaches {CALL}",
            file=source.name,
            line=functions[0].lineno,
            hint="set the options that choose the branch with --env FIELD=VALUE",
        )
    call, keywords = calls[-1]
    return _launch(source, call, keywords, env, notes, evaluator.flag_lines, helper)


# What runs a command a script built itself (subprocess.run(["bash", "-c", cmd]), os.system(cmd), …)
RUNNERS = frozenset(
    f"{module}.{name}" for module in ("subprocess", "os") for name in ("run", "call", "check_call", "Popen", "system")
)
LAUNCH_LINE = re.compile(LAUNCH)  # python3 [path/]train.py or train_async.py
# Miles' model-argument helpers (miles/utils/external_utils/model_args_utils.py@v0.1.0): the architecture's flags,
# no batch flag; not read, as execute_train's model args are not
MODEL_ARGS_HELPERS = ("shell_safe_model_args", "model_args")


def _self_run(
    tree: ast.Module,
    source: Source,
    scope: dict[str, Any],
    evaluator: Evaluator,
    env: Mapping[str, str],
    notes: NoteList,
    helper: Helper,
) -> DriverLaunch:
    """A script that builds its ``… python3 train.py <flags>`` command at module level and runs it itself: the
    flags are the words after train.py in the text the runner is given (the last element of a list: bash -c)."""
    at_top = [n.value for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    for call in at_top:
        if ast.unparse(call.func) not in RUNNERS or not call.args:
            continue
        command = evaluator.value(call.args[0], scope)
        if isinstance(command, (list, tuple)) and command:
            command = command[-1]
        text = command if isinstance(command, Text) else Text((command,)) if isinstance(command, str) else None
        if text is None:
            continue
        for i, piece in enumerate(text.pieces):
            found = LAUNCH_LINE.search(piece) if isinstance(piece, str) else None
            if found is None or not isinstance(piece, str):
                continue
            rest = Text((piece[found.end() :], *text.pieces[i + 1 :]))
            model = [u for u in rest.unknowns if u.why.startswith(tuple(f"'{h}(" for h in MODEL_ARGS_HELPERS))]
            if model:  # the architecture's flags: dropped, as execute_train's model args are
                rest = Text(tuple(p for p in rest.pieces if p not in model))
            script = os.path.basename(found.group(0).split()[-1])
            notes.info(
                f"{helper.code}.driver-defaults",
                f"{source.name}:{call.lineno}: the script builds its launch command itself and runs it with "
                f"{ast.unparse(call.func)}; the flags after {script} are read"
                + (" (the model's flags, from a model-argument helper, are not: the architecture)" if model else ""),
            )
            keywords = {"train_args": rest, "train_script": script}
            return _launch(source, call, keywords, env, notes, evaluator.flag_lines, helper)
    raise ConfigError(
        f"the script calls no {CALL}, and runs no command it builds with python3 train.py at its top level",
        file=source.name,
        hint=f"rlconf reads a {helper.label} driver whose function builds train_args and calls U.execute_train; "
        "pass the train.py command it runs as a launch script",
    )


def _stopped(where: str | None, source: Source) -> None:
    if where is not None:
        raise ConfigError(
            f"with its defaults, the driver stops at a raise ({where})",
            file=source.name,
            hint="set the options that avoid it with --env FIELD=VALUE",
        )


def _typed(text: str, annotation: str) -> Any:
    """A --env value as the field's type (typer converts a command-line option the same way)."""
    kind = annotation.replace(" ", "").split("|")[0]
    if kind == "bool":
        return text.lower() in ("1", "true", "yes", "y", "on")
    for convert in (int, float) if kind in ("int", "float") else ():
        try:
            return convert(text)
        except ValueError:
            continue
    return text


def _separated(text: Text) -> str:
    """The text with each unknown piece as ``${NAME}``; a piece that starts a word and is followed by another piece
    or by a flag (``f"{a}{b}--x 1"``: drivers join whole chunks of flags) ends its word there too."""
    out = ""
    pieces = text.pieces
    for i, piece in enumerate(pieces):
        if isinstance(piece, str):
            out += piece
            continue
        out += "${" + piece.name + "}"
        following = pieces[i + 1] if i + 1 < len(pieces) else ""
        starts_word = not out[: -len(piece.name) - 3] or out[: -len(piece.name) - 3][-1].isspace()
        if starts_word and (isinstance(following, Unknown) or following.startswith("--")):
            out += " "
    return out


def _launch(
    source: Source,
    call: ast.Call,
    keywords: dict[str, Any],
    env: Mapping[str, str],
    notes: NoteList,
    flag_lines: Mapping[str, int],
    helper: Helper,
) -> DriverLaunch:
    """The words after ``python3 <entry>``; each flag's origin is the line of the literal that writes it (the
    call's line for one an unknown piece may hold)."""
    where = f"{source.name}:{call.lineno}"
    if "train_args" not in keywords:
        raise ConfigError(
            f"{CALL}() is called without train_args=...",
            file=source.name,
            line=call.lineno,
            hint="pass the training flags as U.execute_train(train_args=...)",
        )
    args = keywords["train_args"]
    text = args if isinstance(args, Text) else Text((args,)) if isinstance(args, (str, Unknown)) else None
    if text is None:
        raise ConfigError(
            f"train_args is not a string ({type(args).__name__})", file=source.name, line=call.lineno, hint=""
        )
    # the text of a piece rlconf cannot compute, given as --env unknown_L<line>=TEXT (the hint the plan shows)
    text = distinct(text)
    pieces: list[str | Unknown] = []
    for piece in text.pieces:
        if isinstance(piece, Unknown) and piece.name in env:
            before = "".join(p for p in pieces if isinstance(p, str))
            # a piece that starts a word is words of its own (or a whole value): kept apart from what follows
            piece = env[piece.name] + (" " if not before or before[-1].isspace() else "")
        pieces.append(piece)
    text = Text(tuple(pieces))
    for unknown in dict.fromkeys(text.unknowns):
        notes.warning(
            f"{helper.code}.driver-unread",
            f"{unknown.origin}: {unknown.why}; the words of train_args it is part of (flags or their values) are "
            "unknown",
        )
    entry = keywords.get("train_script", "train.py")
    if not isinstance(entry, str):
        raise ConfigError("train_script is computed when the driver runs", file=source.name, line=call.lineno, hint="")
    model = keywords.get("megatron_model_type")
    if model is not None:
        shown = model if isinstance(model, str) else "(computed)"
        notes.info(
            f"{helper.code}.model-args",
            f"{where}: execute_train puts the model's flags first (scripts/models/{shown}: the architecture, no "
            "batch flag); they are not read",
        )
    rendered = _separated(text)
    try:
        words = shlex.split(rendered)
    except ValueError as error:
        raise ConfigError(
            f"train_args does not split into words: {error}", file=source.name, line=call.lineno, hint=""
        ) from None
    placeholders = {"${" + u.name + "}" for u in text.unknowns}
    several = {"${" + u.name + "}" for u in text.unknowns if u.several}
    # what an undecided `if` adds on each way, where no way adds a plan flag: no plan flag can be in it
    no_plan_flag = {
        "${" + u.name + "}"
        for u in text.unknowns
        if u.alternatives is not None
        and not {w[2:].partition("=")[0] for a in u.alternatives for w in a.split() if w.startswith("--")}
        & set(PLAN_FLAGS)
    }
    kept: list[str] = []
    loose: list[str] = []  # unknown pieces standing as words of their own: they may hold any flags
    for word in words:
        after_flag = bool(kept) and kept[-1].startswith("--") and kept[-1][2:] not in SWITCHES
        if word in no_plan_flag and not after_flag:
            continue  # words of no plan flag (each way's flags are read as unknown where they reach a value)
        # such a piece after a flag's value or a switch is not a value of that flag
        if word in placeholders and not after_flag:
            loose.append(word)
            continue
        if word in several and word not in no_plan_flag:  # a flag's value, and maybe more words after it
            loose.append(word)
        kept.append(word)
    given = {w[2:].partition("=")[0] for w in kept if w.startswith("--")}
    if loose:
        # a plan flag the known words lack may be in such a piece: unknown, not its default (nor refused as unset)
        open_flags = [f for f in PLAN_FLAGS if f not in given]
        for flag in open_flags:
            kept += [f"--{flag}", loose[0]]
        if open_flags:
            notes.info(
                f"{helper.code}.driver-open-flags",
                f"{where}: train_args holds pieces rlconf cannot compute ({', '.join(loose)}); the plan flags the "
                f"rest lacks may be among them, so they are unknown: {', '.join('--' + f for f in open_flags)}",
            )
    origins = {
        **dict.fromkeys(PLAN_FLAGS, where),
        **{f: f"{source.name}:{flag_lines.get(f, call.lineno)}" for f in given},
    }
    return DriverLaunch(kept, origins, entry, call.lineno)
