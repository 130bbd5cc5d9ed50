"""NeMo-RL (NVIDIA-NeMo/RL): its registration. The reader and writer are dialect.py, the base recipe's values per
release tables.py, the start-up checks checks.py (codes in rules.py)."""

from __future__ import annotations

import os

from translator.framework import Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="nemo-rl",
    label="NeMo-RL",
    dialect="translator.frameworks.nemo_rl.dialect:NemoRLDialect",
    aliases=("nemo_rl", "nemorl"),
    checks="translator.frameworks.nemo_rl.checks",
    rules="translator.frameworks.nemo_rl.rules:RULES",
    detection=Detection(
        # examples/run_grpo.py (run_grpo_math.py in older releases); TRL's pattern matches it too, so NeMo-RL is
        # asked first (translator/frameworks/__init__.py)
        script=r"(^|[\s/\"'=])run_grpo\w*\.py([\s\"']|$)",
        # NeMo-RL's load_config takes `defaults:` as a file path (a recipe inheriting another); Hydra's is a list
        yaml=r"^(grpo|loss_fn)\s*:\s*$|^defaults\s*:\s*['\"]?[^\s'\"]+\.ya?ml['\"]?\s*$",
    ),
    schema_generator="translator.frameworks.nemo_rl.schema_gen",
    native=NativeRules(
        unknown_keys="its TypedDict schema is not checked at load: an unknown key is kept and never read",
        checked_types=frozenset(),
    ),
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
)
