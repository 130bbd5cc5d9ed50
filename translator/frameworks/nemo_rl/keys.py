"""NeMo-RL's native keys as the core validates them (translator/native_schemas.py)."""

from __future__ import annotations

from translator.dialects.base import Reading
from translator.framework import NativeKeys

# 0.4.0 and 0.5.0: load_response_dataset passes these data keys to ResponseDataset when they are set
# (get_extra_kwargs: nemo_rl/data/datasets/response_datasets/__init__.py:102-111@v0.4.0, 114-123@v0.5.0); the
# DataConfig TypedDict the schema comes from does not declare them.
RESPONSE_DATASET_KEYS = frozenset({"data.val_data_path", "data.train_split", "data.val_split"})


def prepare(reading: Reading, source_text: str) -> NativeKeys:
    """The ResponseDataset keys of 0.4.0 and 0.5.0 are known when data.dataset_name is ResponseDataset."""
    native, spec = reading.native, reading.spec
    assert native is not None
    exempt: frozenset[str] = frozenset()
    if spec.version in ("0.4.0", "0.5.0") and native.values.get("data.dataset_name") == "ResponseDataset":
        exempt = RESPONSE_DATASET_KEYS
    return NativeKeys(dict(native.values), dict(native.origins), exempt)
