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
        # its run_grpo*.py is one Ray driver process: a command that starts it with accelerate, torchrun or deepspeed
        # runs a TRL-style script of the same name
        script=(
            r"(?m)^(?![^\n]*\b(?:accelerate\s+launch|torchrun|deepspeed)\b)[^\n]*?(?:^|[\s/\"'=])"
            r"run_grpo\w*\.py(?:[\s\"'}]|$)"  # (`}`: the default of ${ENTRY:-examples/run_grpo.py})
        ),
        # NeMo-RL's load_config takes `defaults:` as a file path (a recipe inheriting another); Hydra's is a list
        # (or a list of such paths: `defaults:` then `  - parent.yaml`; Hydra's entries are names, not files)
        yaml=(
            r"^(grpo|loss_fn)\s*:\s*$|^defaults\s*:\s*['\"]?[^\s'\"]+\.ya?ml['\"]?\s*$"
            r"|^defaults\s*:\s*\n\s*-\s*['\"]?[^\s'\":]+\.ya?ml['\"]?\s*$"
        ),
    ),
    schema_generator="translator.frameworks.nemo_rl.schema_gen",
    native=NativeRules(
        unknown_keys="its TypedDict schema is not checked at load: an unknown key is kept and never read",
        prepare="translator.frameworks.nemo_rl.keys:prepare",
        checked_types=frozenset(),
    ),
    # what ResponseDataset reads from a row, per release (translator/frameworks/nemo_rl/dialect.py data_loader)
    data_loader_for="translator.frameworks.nemo_rl.dialect:data_loader",
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    # a copy of the framework's code kept in the project: the launch may run it (translator/dialects/rejected_keys.py)
    copy_markers=("nemo_rl/algorithms/grpo.py",),
    packages=("nemo_rl",),
)
