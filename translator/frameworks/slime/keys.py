"""slime's native keys as the core validates them (translator/native_schemas.py).

slime's schema holds slime's own flags only (translator/frameworks/slime/schema_gen.py): train.py's parser is
Megatron-LM's, and SGLang's and the sglang-router's flags come from the installed packages, whose releases are the
run image's. A flag outside the schema is therefore exempt from the unknown-flag check, unless it is one edit (a
letter added, dropped, changed, or two neighbours swapped) from one of slime's flags: a misspelling, which every
parser slime runs drops without a word (ignore_unknown_args=True). Measured against the flag names of Megatron-LM at
the commit slime v0.3.1's Docker image pins (1dcf0da), no Megatron flag is one edit from a slime flag, so a real
Megatron flag is not reported; a misspelt Megatron flag is not reported either (its name list is not shipped).
"""

from __future__ import annotations

from translator.dialects.base import Reading
from translator.framework import NativeKeys
from translator.native_schemas import schemas_for


def one_edit_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter added, dropped or changed, or two neighbouring letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    swapped = i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    return swapped or a[i + 1 :] == b[i + 1 :]


def prepare(reading: Reading, source_text: str) -> NativeKeys | None:
    native, version = reading.native, reading.spec.version
    assert native is not None
    found = schemas_for("slime", version)
    if not found:
        return None
    own = found[0].properties
    values = dict(native.values)
    exempt = frozenset(k for k in values if k not in own and not any(one_edit_apart(k, flag) for flag in own))
    return NativeKeys(values, dict(native.origins), exempt)
