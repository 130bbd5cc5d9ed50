"""How many training processes a launcher starts, read from its own words (nothing is run).

A launch line names its launcher before the training program: ``torchrun --nproc_per_node 4 train.py``,
``deepspeed --include localhost:0,1 --module pkg.train``, ``python train.py``. When the line gives no count, the
launcher's own default decides: torchrun starts one process per node (``--nproc-per-node`` default "1",
torch/distributed/run.py@v2.13.0), or one per visible GPU for ``gpu`` / ``auto``; deepspeed, with no hostfile (one
node), starts ``--num_gpus`` N, the slots ``--include localhost:SLOTS`` lists, or else one per visible GPU
(deepspeed/launcher/runner.py@v0.19.8 ``main``); a plain python one. The visible GPUs are known when the script
sets CUDA_VISIBLE_DEVICES or a Slurm batch job states its GPUs per node (``#SBATCH --gres=gpu:N``: Slurm sets
CUDA_VISIBLE_DEVICES to them). accelerate's count comes from a config file of the machine when its line gives none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from translator.errors import ConfigError
from translator.records import record
from translator.sources.shell import ShellCommand, symbolic_names

MAX_PROCESSES = 2**53  # past any real launch (and past what a float holds exactly)
# deepspeed launcher options that take a value (deepspeed/launcher/runner.py@v0.19.8 parse_args), torchrun's
# (torch/distributed/run.py@v2.13.0 get_args_parser) that rlconf reads or must step over, and accelerate's count
VALUE_OPTIONS = frozenset(
    {
        "--num_processes",
        "--num-processes",
        "--num_gpus",
        "--num_accelerators",
        "--num_nodes",
        "--include",
        "-i",
        "--exclude",
        "-e",
        "--hostfile",
        "-H",
        "--master_port",
        "--master_addr",
        "--launcher",
        "--launcher_args",
        "--ssh_port",
        "--nproc_per_node",
        "--nproc-per-node",
        "--nnodes",
        "--node_rank",
        "--node-rank",
        "--rdzv_endpoint",
        "--rdzv-endpoint",
        "--rdzv_id",
        "--rdzv-id",
        "--rdzv_backend",
        "--rdzv-backend",
        "--master-addr",
        "--master-port",
    }
)
_HOSTFILE = ("--hostfile", "-H")  # deepspeed: hosts beyond the local node


# modules that run the script they are given in their own process (a debugger, a profiler): still one process
_SAME_PROCESS_RUNNERS = ("pdb", "ipdb", "cProfile", "profile")


def launcher_of(words: list[str]) -> str | None:
    """Which launcher the words before the training program name: "accelerate", "torchrun" (also ``python -m
    torch.distributed.run`` / ``.launch``), "deepspeed", "python" (a plain interpreter, also under ``-m pdb`` /
    ``ipdb`` / ``cProfile``); None for another."""
    program = words[0].rsplit("/", 1)[-1] if words else ""
    module = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-m", "--module")), None)
    if program == "accelerate" or module == "accelerate.commands.launch":
        return "accelerate"
    if program == "torchrun" or module in ("torch.distributed.run", "torch.distributed.launch"):
        return "torchrun"
    if program == "deepspeed" or module == "deepspeed.launcher.runner":
        return "deepspeed"
    if program.startswith("python") and module in (None, *_SAME_PROCESS_RUNNERS):
        return "python"
    return None


def options_of(words: list[str], takes_value: frozenset[str] = VALUE_OPTIONS) -> dict[str, str]:
    """A launcher's options before the program: ``--opt value`` (an option ``takes_value`` lists), ``--opt=value``,
    a switch as "true"."""
    found: dict[str, str] = {}
    iterator = iter(words[1:])
    for word in iterator:
        if not word.startswith("-"):
            continue
        flag, eq, value = word.partition("=")
        found[flag] = value if eq else next(iterator, "") if flag in takes_value else "true"
    return found


def whole(value: Any, option: str, where: str | None) -> int | None:
    """A launcher's count; None when it depends on a variable the script never sets (the world size is then unknown:
    --num-processes gives it). Not a whole number, not above 0, or past any real launch: ConfigError."""
    if symbolic_names(str(value)):
        return None
    hint = f"set {option} to a positive integer"
    try:
        number = int(str(value))
    except ValueError:
        raise ConfigError(
            f"{option} must be a whole number, got {value!r}", file=where, key=option, hint=hint
        ) from None
    if number <= 0:
        raise ConfigError(f"{option} must be greater than 0, got {number}", file=where, key=option, hint=hint)
    if number > MAX_PROCESSES:
        raise ConfigError(
            f"{option} {number} is larger than any real launch",
            file=where,
            key=option,
            hint=f"set {option} to the number of processes (below {MAX_PROCESSES})",
        )
    return number


def visible_gpus(command: ShellCommand, where: str) -> tuple[int | None, str | None]:
    """The GPUs the command's processes see, when the script states them: its CUDA_VISIBLE_DEVICES, else a Slurm
    batch job's GPUs per node; (None, None) leaves the machine's count unknown."""
    devices = command.visible_devices
    if devices is not None and not symbolic_names(devices):
        count = len([d for d in devices.split(",") if d.strip()])
        return count, f"CUDA_VISIBLE_DEVICES={devices} for {where}"
    if command.allocated_gpus is not None:
        return command.allocated_gpus, f"the batch job's {command.allocated_gpus} GPUs per node (#SBATCH)"
    return None, None


def default_processes(
    launcher: str | None, options: Mapping[str, str], visible: int | None, visible_from: str | None, where: str
) -> tuple[int | None, str | None]:
    """The processes a launcher starts when its line gives no --nproc_per_node / --num_processes (module doc), with
    how that is known; (None, None) when it is not."""
    if launcher == "python":
        return 1, "a plain python launch (one process)"
    if launcher == "torchrun":
        return 1, "torchrun's default --nproc_per_node 1"
    if launcher != "deepspeed" or any(f in options for f in _HOSTFILE) or options.get("--num_nodes", "1") != "1":
        return None, None  # accelerate's config file, or deepspeed's hosts from a hostfile
    for flag in ("--num_gpus", "--num_accelerators"):
        if flag in options:
            count = whole(options[flag], flag, where)
            return (count, f"deepspeed {flag} {count} on one node") if count else (None, None)
    include = options.get("--include", options.get("-i"))
    if include is not None:
        host, _, slots = include.partition(":")
        if "@" in include or symbolic_names(include) or not slots:
            return None, None  # several hosts, or every slot of a host: the machine's count
        count = len([s for s in slots.split(",") if s.strip()])
        return count, f"deepspeed --include {include}: {count} slot(s) on {host}"
    if "--exclude" in options or "-e" in options or visible is None:
        return None, None
    return visible, f"deepspeed with no GPU count: one process per visible GPU, {visible_from}"


@record
class Processes:
    """The training processes a launch line starts: on each node and on how many nodes (None: not known from the
    line and the script), and how that is known (or why not)."""

    per_node: int | None
    nodes: int | None
    why: str

    @property
    def total(self) -> int | None:
        return self.per_node * self.nodes if self.per_node is not None and self.nodes is not None else None


def processes(words: list[str], command: ShellCommand, where: str) -> Processes:
    """The processes the launcher in ``words`` (those before the training program) starts: torchrun's
    --nproc_per_node (a number, or ``gpu`` / ``auto``: the visible GPUs) on --nnodes nodes, accelerate's
    --num_processes, else the launcher's default on one node (:func:`default_processes`)."""
    launcher = launcher_of(words)
    options = options_of(words)
    visible, visible_from = visible_gpus(command, where)
    unknown = Processes(None, None, f"the launcher {words[0] if words else ''} states no process count")
    for flag in ("--num_processes", "--num-processes", "--nproc_per_node", "--nproc-per-node"):
        if flag not in options:
            continue
        word = options[flag]
        if launcher == "torchrun" and word in ("gpu", "auto"):
            count, why = visible, f"{flag} {word}: one per visible GPU, {visible_from}"
        else:
            count, why = whole(word, flag, where), f"{flag} {word} on the launch line"
        nodes = options.get("--nnodes", "1") if launcher == "torchrun" else "1"
        if count is None or ":" in nodes:  # a variable never set; an elastic range MIN:MAX of nodes
            return unknown
        node_count = whole(nodes, "--nnodes", where)
        if node_count is None:
            return unknown
        return Processes(count, node_count, why + (f" × --nnodes {node_count}" if node_count > 1 else ""))
    count, because = default_processes(launcher, options, visible, visible_from, where)
    return Processes(count, 1, because) if count is not None and because is not None else unknown
