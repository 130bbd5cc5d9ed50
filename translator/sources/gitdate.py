"""The date of the commit a git checkout is at, read from its ``.git`` files without running git.

HEAD (a ref, or a detached commit id) is followed through loose refs and ``packed-refs``; the commit object is read
loose (``objects/ab/cdef…``, zlib) or from a pack (``objects/pack/*.idx`` version 2, then the ``.pack`` entry, when
it is stored whole, not as a delta). A ``.git`` file (``gitdir: …``, a worktree) and a ``commondir`` are followed.
Anything else, or anything malformed, gives None: the date is then not known, never guessed. Reading is bounded:
at most ``MAX_OBJECT_BYTES`` of one object, ``MAX_PACKS`` packs.
"""

from __future__ import annotations

import datetime
import os
import re
import struct
import zlib

MAX_OBJECT_BYTES = 1_000_000
MAX_PACKS = 64
_COMMIT_ID = re.compile(r"[0-9a-f]{40}")


def commit_date(root: str) -> datetime.date | None:
    """The committer date (UTC) of the commit the checkout at ``root`` is at, or None."""
    try:
        git = _git_dir(root)
        if git is None:
            return None
        common = _common_dir(git)
        commit = _head(git, common)
        text = _object(common, commit) if commit is not None else None
    except (OSError, ValueError, zlib.error, struct.error, IndexError):
        return None
    found = re.search(rb"^committer .* (\d+) [+-]\d{4}$", text or b"", re.MULTILINE)
    if found is None:
        return None
    return datetime.datetime.fromtimestamp(int(found[1]), datetime.timezone.utc).date()


def _git_dir(root: str) -> str | None:
    path = os.path.join(root, ".git")
    if os.path.isdir(path):
        return path
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            first = f.read(4096).strip()
        if first.startswith("gitdir:"):
            target = first.removeprefix("gitdir:").strip()
            return target if os.path.isabs(target) else os.path.normpath(os.path.join(root, target))
    return None


def _common_dir(git: str) -> str:
    path = os.path.join(git, "commondir")
    if not os.path.isfile(path):
        return git
    with open(path, encoding="utf-8", errors="replace") as f:
        target = f.read(4096).strip()
    return target if os.path.isabs(target) else os.path.normpath(os.path.join(git, target))


def _head(git: str, common: str) -> str | None:
    with open(os.path.join(git, "HEAD"), encoding="utf-8", errors="replace") as f:
        head = f.read(4096).strip()
    for _ in range(5):  # a symbolic ref may point at another
        if _COMMIT_ID.fullmatch(head):
            return head
        if not head.startswith("ref:"):
            return None
        ref = head.removeprefix("ref:").strip()
        head = _ref(git, common, ref) or ""
    return None


def _ref(git: str, common: str, ref: str) -> str | None:
    for folder in dict.fromkeys((git, common)):
        path = os.path.join(folder, *ref.split("/"))
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read(4096).strip()
    packed = os.path.join(common, "packed-refs")
    if os.path.isfile(packed):
        with open(packed, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref:
                    return parts[0]
    return None


def _object(common: str, commit: str) -> bytes | None:
    loose = os.path.join(common, "objects", commit[:2], commit[2:])
    if os.path.isfile(loose):
        with open(loose, "rb") as f:
            data = zlib.decompressobj().decompress(f.read(MAX_OBJECT_BYTES), MAX_OBJECT_BYTES)
        header, _, body = data.partition(b"\0")
        return body if header.startswith(b"commit ") else None
    folder = os.path.join(common, "objects", "pack")
    if not os.path.isdir(folder):
        return None
    wanted = bytes.fromhex(commit)
    for name in sorted(os.listdir(folder))[: MAX_PACKS * 3]:
        if name.endswith(".idx"):
            offset = _pack_offset(os.path.join(folder, name), wanted)
            if offset is not None:
                return _pack_entry(os.path.join(folder, name[: -len(".idx")] + ".pack"), offset)
    return None


def _pack_offset(idx: str, wanted: bytes) -> int | None:
    """The offset of object ``wanted`` in the pack a version 2 index describes, or None."""
    with open(idx, "rb") as f:
        if f.read(8) != b"\xfftOc\x00\x00\x00\x02":
            return None
        fanout = struct.unpack(">256I", f.read(1024))
        count = fanout[255]
        low = fanout[wanted[0] - 1] if wanted[0] else 0
        high = fanout[wanted[0]]
        f.seek(8 + 1024 + low * 20)
        names = f.read((high - low) * 20)
        for i in range(high - low):
            if names[i * 20 : i * 20 + 20] == wanted:
                position = low + i
                break
        else:
            return None
        f.seek(8 + 1024 + count * 20 + count * 4 + position * 4)
        (offset,) = struct.unpack(">I", f.read(4))
        if offset & 0x80000000:  # a large pack: the offset is in the 8-byte table
            f.seek(8 + 1024 + count * 28 + count * 4 + (offset & 0x7FFFFFFF) * 8)
            (offset,) = struct.unpack(">Q", f.read(8))
        return int(offset)


def _pack_entry(pack: str, offset: int) -> bytes | None:
    """The commit stored whole at ``offset`` of ``pack``; None for another type or a delta."""
    with open(pack, "rb") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        kind, size, shift = (byte >> 4) & 7, byte & 0x0F, 4
        while byte & 0x80:
            byte = f.read(1)[0]
            size |= (byte & 0x7F) << shift
            shift += 7
        if kind != 1 or size > MAX_OBJECT_BYTES:  # 1: a commit, stored whole
            return None
        return zlib.decompressobj().decompress(f.read(size + 1024), size)
