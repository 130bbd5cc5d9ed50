"""The data-and-reward contract of a translation: the columns the target's dataset loader reads must exist in the
user's data with the type that loader needs (docs/data-contract.md cites each loader).

What a column holds is known two ways. A local training file the source names (``.jsonl``, ``.json``,
``.parquet``, relative to the source file's folder or absolute, inside the source's folder tree or the working
directory) is sampled: its first rows only, read bounded
(:data:`SAMPLE_ROWS` rows, :data:`SAMPLE_BYTES` bytes of text). Otherwise the source framework's own loader states
it, for a source that runs: its registration's :class:`~translator.framework.DataLoader` (``data_loader``, or
``data_loader_for`` where the config decides it). What each target's loader needs is the same ``DataLoader``, for
the written config.

A column the target cannot use is a launch blocker: an error note (``data.column-type`` or ``data.column-missing``)
that names the conversion, so ``rlconf translate`` exits 1.

The reward file is the other half of the contract. A framework whose launch runs from its repository root and
resolves a relative reward path there (``Framework.reward_path_key``) finds nothing at a relative path that named
a file beside a source of another framework (which ran from its own folder): ``reward.unresolved``, an error
giving the absolute path.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from translator.dialects import registry
from translator.framework import DataLoader
from translator.notes import NoteList
from translator.plan import RunSpec
from translator.sources.files import below, read_regular

SAMPLE_ROWS = 5
SAMPLE_BYTES = 1 << 20  # text read from a JSON / JSON Lines file at most

TEXT, CHAT, ANY = "text", "chat", "any"
_SHOWN = {TEXT: "a string", CHAT: "a chat list ([{'role': ..., 'content': ...}, ...])", ANY: "a string or a chat list"}


loader = registry.data_loader
source_kind = registry.prompt_kind  # the prompt column's type as the source framework's loader needs it, or None


def fits(have: str, need: str) -> bool:
    return have == need or (need == ANY and have in (TEXT, CHAT))


def kind_of(value: Any) -> str | None:
    if isinstance(value, str):
        return TEXT
    if isinstance(value, list) and value and all(isinstance(m, dict) and "role" in m and "content" in m for m in value):
        return CHAT
    return type(value).__name__


def local_file(name: str, base: Path) -> Path | None:
    """A local data file the config names, when it is here and inside the project (the source's folder tree or the
    working directory: rlconf reads nothing outside it unasked); a Hub id or a variable the shell fills is not."""
    if "$" in name or not name.endswith((".jsonl", ".json", ".parquet")):
        return None
    path = Path(os.path.expanduser(name))
    path = path if path.is_absolute() else base / path
    real = os.path.realpath(path)
    if not any(below(real, str(folder)) for folder in (base, Path.cwd())):
        return None
    return path if path.is_file() else None


def sample(path: Path) -> list[dict[str, Any]]:
    """The file's first rows (at most SAMPLE_ROWS), read bounded and only from a regular file (a FIFO or device
    named like a data file is refused, as every file rlconf opens: docs/safety.md); [] when they cannot be read."""
    if path.suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:  # not a dependency of rlconf: without it parquet files are not sampled
            return []
        try:
            handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with open(handle, "rb") as stream:
                if not stat.S_ISREG(os.fstat(handle).st_mode):
                    return []
                # The footer, then the first batch of the first row group: never the whole file.
                batch = next(pq.ParquetFile(stream).iter_batches(batch_size=SAMPLE_ROWS), None)
        except (OSError, ValueError):  # pyarrow's ArrowInvalid is a ValueError, ArrowIOError an OSError
            return []
        return batch.to_pylist() if batch is not None else []
    try:
        text = read_regular(str(path), SAMPLE_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return []
    if path.suffix == ".jsonl":
        rows = []
        for line in text.splitlines()[: SAMPLE_ROWS + 1]:
            try:
                row = json.loads(line)
            except ValueError:  # the last line cut by the byte bound, or not JSON
                continue
            if isinstance(row, dict):
                rows.append(row)
        return rows[:SAMPLE_ROWS]
    try:
        data = json.loads(text)
    except ValueError:  # larger than the bound, or not JSON
        return []
    if isinstance(data, dict) and all(isinstance(v, list) for v in data.values()):  # columns → rows
        data = [dict(zip(data, values, strict=False)) for values in zip(*data.values(), strict=False)]
    return [row for row in data[:SAMPLE_ROWS] if isinstance(row, dict)] if isinstance(data, list) else []


def conversion(column: str, have: str, need: str) -> str:
    """The `datasets` line that turns the column into what the target needs."""
    if need == CHAT and have == TEXT:
        return f'dataset.map(lambda row: {{"{column}": [{{"role": "user", "content": row["{column}"]}}]}})'
    if need == TEXT and have == CHAT:
        return (
            f'dataset.map(lambda row: {{"{column}": next(m["content"] for m in reversed(row["{column}"]) '
            f'if m["role"] == "user")}})  (the system messages are dropped)'
        )
    return f"rewrite the {column!r} column as {_SHOWN[need]}"  # need ANY: neither a string nor a chat list


def check(source: RunSpec, target: RunSpec, framework: str, source_file: str, notes: NoteList) -> None:
    """Notes on the columns the written config makes ``framework``'s loader read and on its reward file (module
    docstring)."""
    check_reward_path(source, target, framework, Path(source_file).parent, notes)
    check_row_reward(source, Path(source_file).parent, notes)
    contract = loader(framework, target)
    if contract is None or not source.data.train_sources:
        return
    column = target.data.prompt_key or contract.prompt_default
    base = Path(source_file).parent
    files = [p for p in (local_file(name, base) for name in source.data.train_sources) if p is not None]
    rows = sample(files[0]) if files else []
    if rows and contract.instead and all(contract.instead in row for row in rows):
        return  # the loader reads that column instead (DataLoader.instead)
    if rows:
        where = f"{files[0]} (first {len(rows)} row(s))"
        missing = [
            name
            for name in (
                column,
                *(
                    (target.data.answer_key or default) if role == "answer" else default
                    for role, default in contract.required
                ),
            )
            if name and not all(name in row for row in rows)
        ]
        if missing:
            notes.error(
                "data.column-missing",
                f"{where} has no column {', '.join(map(repr, missing))}, which "
                f"{framework}'s loader reads for every row ({contract.cited}); add it or point the key at "
                "the column that holds it",
                source_keys=["data.train_sources"],
            )
        kinds = {kind_of(row[column]) for row in rows if column in row}
        have = kinds.pop() if len(kinds) == 1 else None
        stated = f"{where}: column {column!r} holds {_SHOWN.get(have or '', have)}"
        if have == CHAT and contract.last_message_is_answer:
            check_last_message(rows, column, where, framework, contract, notes)
    else:
        own = loader(source.framework, source)
        named = source.data.prompt_key or (own.prompt_default if own else None)
        have = source_kind(source) if named == column else None
        stated = (
            f"the source's {source.framework} loader needs its prompt column {column!r} as {_SHOWN.get(have or '')}"
        )
    if have is not None and not fits(have, contract.prompt_kind):
        notes.error(
            "data.column-type",
            f"{stated}; {framework}'s loader needs {_SHOWN[contract.prompt_kind]} there "
            f"({contract.cited}): convert it first, {conversion(column, have, contract.prompt_kind)}",
            source_keys=["data.prompt_key"],
            target_keys=["data.prompt_key"],
        )


def check_row_reward(source: RunSpec, base: Path, notes: NoteList) -> None:
    """A source whose loader lets each row pick its reward (``DataLoader.row_reward``): rows of the training file
    that pick another than the config's reward are scored by it in the source run, but a translation carries the
    config's reward only."""
    own = loader(source.framework, source)
    if own is None or not own.row_reward or not source.data.train_sources:
        return
    files = [p for p in (local_file(name, base) for name in source.data.train_sources) if p is not None]
    rows = sample(files[0]) if files else []
    configured = set(source.reward.builtin or [])
    chosen = sorted({str(row[own.row_reward]) for row in rows if row.get(own.row_reward) is not None})
    if not rows or set(chosen) <= configured:
        return
    default = ", ".join(sorted(configured)) or "none"
    notes.warning(
        "reward.per-row",
        f"{files[0]} (first {len(rows)} row(s)): rows pick their own reward in column {own.row_reward!r} "
        f"({', '.join(chosen)}); {source.framework} uses the config's ({default}) only for rows without one, and the "
        "translation carries the config's: score those rows as the source does (a reward of your own) or set the "
        "config to the rows' choice",
        source_keys=["reward.builtin"],
    )


def check_last_message(
    rows: list[dict[str, Any]], column: str, where: str, framework: str, contract: DataLoader, notes: NoteList
) -> None:
    """A loader that takes a chat list of several messages as a conversation ending in its answer drops the last
    message from the prompt: a prompt-only list (ending in the user's turn) loses the question."""
    if any(len(row[column]) > 1 and row[column][-1].get("role") == "user" for row in rows if column in row):
        notes.error(
            "data.column-shape",
            f"{where}: column {column!r} holds prompt-only chat lists of several messages ending in the user's "
            f"turn; {framework}'s loader takes the last message of such a list as the answer and prompts with the "
            f"rest ({contract.cited}), so the user's question is dropped: end each list with the answer, "
            f'dataset.map(lambda row: {{"{column}": row["{column}"] + [{{"role": "assistant", "content": ""}}]}})',
            source_keys=["data.prompt_key"],
            target_keys=["data.prompt_key"],
        )


def check_reward_path(source: RunSpec, target: RunSpec, framework: str, base: Path, notes: NoteList) -> None:
    path, entry = target.reward.function_path, registry.lookup(framework)
    if (
        entry is None
        or not entry.reward_path_key
        or source.framework == framework
        or not path
        or "$" in path
        or Path(path).is_absolute()
    ):
        return
    beside = base / path
    if beside.is_file():
        name = f":{target.reward.function_name}" if target.reward.function_name else ""
        notes.error(
            "reward.unresolved",
            f"reward function {path} is the file beside the source ({beside.resolve()}), "
            f"but {entry.label} resolves it from its repository root, where the written launch.sh runs, and "
            f"starts without it: write {entry.reward_path_key}={beside.resolve()}{name}",
            source_keys=["reward.function_path"],
            target_keys=[entry.reward_path_key],
        )
