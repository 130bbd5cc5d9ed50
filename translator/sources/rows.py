"""How many rows a local dataset file holds, read without loading it: the prompts a run's training set gives.

JSON Lines: the non-blank lines (each a row to ``datasets.load_dataset("json")``). JSON: the length of a top-level
list. Parquet: ``num_rows`` of the footer's ``FileMetaData`` (Thrift compact protocol; field 3), so only the
footer is read. Anything else (CSV, a folder, a Hub id) is not counted. Reading is bounded: at most
``MAX_SCANNED_BYTES`` of a JSON Lines file, ``MAX_JSON_BYTES`` of a JSON file and ``MAX_FOOTER_BYTES`` of a
Parquet footer; past a bound, or on anything malformed, the count is None (not known), never a guess.
"""

from __future__ import annotations

import json
import os
import struct

MAX_SCANNED_BYTES = 512 * 1024 * 1024
MAX_JSON_BYTES = 64 * 1024 * 1024
MAX_FOOTER_BYTES = 16 * 1024 * 1024


def counted_rows(path: str) -> int | None:
    """The rows of the dataset file at ``path`` (see the module doc), or None where they are not counted."""
    try:
        if not os.path.isfile(path):
            return None
        if path.endswith(".jsonl"):
            return _json_lines(path)
        if path.endswith(".json"):
            return _json_list(path)
        if path.endswith(".parquet"):
            return _parquet_rows(path)
    except (OSError, ValueError, IndexError, struct.error, RecursionError):
        return None
    return None


def _json_lines(path: str) -> int | None:
    if os.path.getsize(path) > MAX_SCANNED_BYTES:
        return None
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())


def _json_list(path: str) -> int | None:
    if os.path.getsize(path) > MAX_JSON_BYTES:
        return None
    with open(path, "rb") as f:
        data = json.load(f)
    return len(data) if isinstance(data, list) else None


def _parquet_rows(path: str) -> int | None:
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if size < 12:
            return None
        f.seek(size - 8)
        tail = f.read(8)
        if tail[4:] != b"PAR1":
            return None
        (length,) = struct.unpack("<I", tail[:4])
        if length > MAX_FOOTER_BYTES or length > size - 12:
            return None
        f.seek(size - 8 - length)
        footer = f.read(length)
    reader = _Compact(footer)
    last = 0
    while True:  # FileMetaData: 1 version i32, 2 schema list, 3 num_rows i64, ...
        kind, last = reader.field_header(last)
        if kind == 0:
            return None
        if last == 3 and kind == 6:
            rows = reader.varint_signed()
            return rows if rows >= 0 else None
        reader.skip(kind)


class _Compact:
    """Just enough of Thrift's compact protocol to walk a struct's fields and skip the ones not wanted."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        value = self.data[self.at]
        self.at += 1
        return value

    def varint(self) -> int:
        shift = value = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7
            if shift > 70:
                raise ValueError("varint too long")

    def varint_signed(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)  # zigzag

    def field_header(self, last: int) -> tuple[int, int]:
        """(the field's type, its id); type 0 is the end of the struct."""
        header = self.byte()
        kind, delta = header & 0x0F, header >> 4
        if kind == 0:
            return 0, last
        return kind, last + delta if delta else self.varint_signed()

    def skip(self, kind: int, depth: int = 0) -> None:
        if depth > 32:
            raise ValueError("nested too deep")
        if kind in (1, 2):  # a boolean field holds its value in the type
            return
        if kind == 3:
            self.at += 1
        elif kind in (4, 5, 6):
            self.varint()
        elif kind == 7:
            self.at += 8
        elif kind == 8:
            length = self.varint()  # read first: `self.at += self.varint()` would add to the position before it
            self.at += length
        elif kind in (9, 10):
            header = self.byte()
            count, element = header >> 4, header & 0x0F
            if count == 15:
                count = self.varint()
            for _ in range(count):
                self.skip_element(element, depth + 1)
        elif kind == 11:
            count = self.varint()
            if count:
                types = self.byte()
                for _ in range(count):
                    self.skip_element(types >> 4, depth + 1)
                    self.skip_element(types & 0x0F, depth + 1)
        elif kind == 12:
            last = 0
            while True:
                inner, last = self.field_header(last)
                if inner == 0:
                    return
                self.skip(inner, depth + 1)
        else:
            raise ValueError(f"unknown compact type {kind}")
        if self.at > len(self.data):
            raise ValueError("past the footer")

    def skip_element(self, kind: int, depth: int) -> None:
        if kind in (1, 2):  # a boolean inside a list or map is one byte
            self.at += 1
        else:
            self.skip(kind, depth)
