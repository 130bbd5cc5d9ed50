"""Launcher task files (a SkyPilot task YAML, a Ray job YAML) read as the launch script they run.

Such a YAML holds no framework config of its own: its command (SkyPilot ``run:``, Ray ``entrypoint:``) is a
shell script, and its environment (``envs:``, ``runtime_env.env_vars``) are variables that script sees. The
task is turned into an equivalent bash script, with the command on the same lines as in the YAML so messages
point at the YAML's lines, and read like any launch script. Nothing is executed; ``setup:`` is ignored.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from translator.patterns import lazy
from translator.sources.yamlfile import load_yaml

SKYPILOT_HINT = lazy(r"^(run|envs|num_nodes|resources|setup|file_mounts|workdir)\s*:", re.M)
RAY_JOB_HINT = lazy(r"^entrypoint\s*:", re.M)


def launcher_kind(text: str) -> str | None:
    """'skypilot' | 'ray-job' | None, from the top-level keys alone (cheap: no YAML parse)."""
    if RAY_JOB_HINT.search(text):
        return "ray-job"
    keys = {m.group(1) for m in SKYPILOT_HINT.finditer(text)}
    return "skypilot" if "run" in keys and len(keys) > 1 else None


def launcher_script(text: str, name: str) -> str | None:
    """The bash script a launcher task YAML runs, or None when the YAML is not a launcher task."""
    kind = launcher_kind(text)
    if kind is None:
        return None
    data = load_yaml(text, name)
    if not isinstance(data, dict):
        return None
    if kind == "ray-job":
        command, key = data.get("entrypoint"), "entrypoint"
        runtime_env = found if isinstance(found := data.get("runtime_env"), dict) else {}
        env = found if isinstance(found := runtime_env.get("env_vars"), dict) else {}
        provided: dict[str, str] = {}
    else:
        command, key = data.get("run"), "run"
        env = found if isinstance(found := data.get("envs"), dict) else {}
        provided = _skypilot_provided(data)
    if not isinstance(command, str):
        return None
    lines = [""] * text.count("\n")
    # The environment first: a value passed with --env wins, as with `sky launch --env` / `ray job submit`.
    header = [
        f": ${{{k}={shlex.quote(_text(v))}}}"
        for k, v in {**provided, **env}.items()
        if v is not None and re.fullmatch(r"[A-Za-z_]\w*", str(k))
    ]
    start = _block_start(text, key)
    body = command.splitlines()
    if start < len(header) or start + len(body) > len(lines):  # cannot keep the lines: append in order
        return "\n".join(header + body) + "\n"
    lines[: len(header)] = header
    lines[start : start + len(body)] = body
    return "\n".join(lines) + "\n"


def _skypilot_provided(data: dict[str, Any]) -> dict[str, str]:
    """What SkyPilot itself tells the run script: SKYPILOT_NUM_NODES and SKYPILOT_NUM_GPUS_PER_NODE."""
    provided = {}
    nodes = data.get("num_nodes")
    if isinstance(nodes, int) and not isinstance(nodes, bool):
        provided["SKYPILOT_NUM_NODES"] = str(nodes)
    resources = found if isinstance(found := data.get("resources"), dict) else {}
    # `ordered:` / `any_of:` list candidate resources, one of which SkyPilot picks: a count they all share is known
    candidates = [c for key in ("ordered", "any_of") for c in resources.get(key) or [] if isinstance(c, dict)]
    counts = {_accelerator_count(c.get("accelerators", resources.get("accelerators"))) for c in candidates}
    count = (
        _accelerator_count(resources.get("accelerators"))
        if not candidates
        else counts.pop()
        if len(counts) == 1
        else None
    )
    if count is not None:
        provided["SKYPILOT_NUM_GPUS_PER_NODE"] = count
    return provided


def _accelerator_count(accelerators: Any) -> str | None:
    """The GPUs per node of a SkyPilot ``accelerators`` value (``H100:8``, ``{H100: 8}``); None when not one count."""
    if isinstance(accelerators, dict) and len(accelerators) == 1:
        accelerators = "{}:{}".format(*next(iter(accelerators.items())))
    if isinstance(accelerators, str) and ":" in accelerators:
        count = accelerators.rpartition(":")[2].strip()
        return count if count.isdigit() else None
    return None


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _block_start(text: str, key: str) -> int:
    """Index (0-based line) of the first line of the ``key:`` block's content."""
    for number, line in enumerate(text.splitlines()):
        m = re.match(rf"{key}\s*:\s*(\S.*)?$", line)
        if m:
            inline = m.group(1)
            return number if inline and not inline.startswith(("|", ">")) else number + 1
    return 0
