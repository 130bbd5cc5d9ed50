"""slime (THUDM/slime): its registration. The reader and writer are dialect.py, the version table tables.py, the
start-up rules checks.py and their codes rules.py, the native schema's generator schema_gen.py and its validation
hook keys.py, the native keys' concordance concordance.yaml (docs/frameworks/slime.md)."""

from __future__ import annotations

import os

from translator.framework import Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="slime",
    label="slime",
    dialect="translator.frameworks.slime.dialect:SlimeDialect",
    data_loader_for="translator.frameworks.slime.dialect:data_loader",
    aliases=("thudm/slime",),
    checks="translator.frameworks.slime.checks",
    rules="translator.frameworks.slime.rules:RULES",
    detection=Detection(
        # `python3 train.py` / `train_async.py` (usually after `ray job submit ... --`) with slime's own flags
        script=r"python[\d.]*\s+(\S*/)?train(_async)?\.py\b[\s\S]*--(rollout-batch-size|n-samples-per-prompt)\b"
        # or a Python driver that builds the command and runs it through slime's launch helper (driver.py)
        r"|\bslime\.utils\.external_utils\b[\s\S]*\bexecute_train\w*\s*\(",
        arguments=r"^--(rollout-batch-size|n-samples-per-prompt|num-steps-per-rollout|actor-num-gpus-per-node)(=|$)",
        launch="python3 train.py",
    ),
    native=NativeRules(
        flags=True,
        unknown_keys="slime parses with Megatron's parser and ignore_unknown_args=True: an unknown flag is dropped",
        # Megatron's and SGLang's flags are not in the schema (schema_gen.py): keys.py exempts them
        prepare="translator.frameworks.slime.keys:prepare",
    ),
    schema_generator="translator.frameworks.slime.schema_gen",
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    # a copy of the framework's code kept in the project: the launch may run it (translator/dialects/rejected_keys.py)
    copy_markers=("slime/utils/arguments.py",),
    copy_entries=("train.py", "train_async.py"),
    packages=("slime",),
)
