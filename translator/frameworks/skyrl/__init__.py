"""SkyRL (NovaSky-AI/SkyRL): its registration. The reader and writer are dialect.py, the version tables tables.py,
the start-up rules checks.py and their codes rules.py, the native schema's generator schema_gen.py and its
validation hook keys.py, the native keys' concordance concordance.yaml."""

from __future__ import annotations

import os

from translator.framework import Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="skyrl",
    label="SkyRL",
    dialect="translator.frameworks.skyrl.dialect:SkyrlDialect",
    aliases=("NovaSky-AI/SkyRL", "skyrl-train", "skyrl_train"),
    checks="translator.frameworks.skyrl.checks",
    rules="translator.frameworks.skyrl.rules:RULES",
    detection=Detection(
        script=r"-m\s+(skyrl\.train\.entrypoints\.main_base|skyrl_train\.entrypoints\.main_base|[\w.]*main_\w*fully_async)\b",
        arguments=r"^(trainer\.(policy_mini_batch_size|placement\.\w+|micro_train_batch_size_per_gpu)|generator\.n_samples_per_prompt)=",
        launch="python -m skyrl.train.entrypoints.main_base",
    ),
    native=NativeRules(
        unknown_keys="from_cli_overrides (OmegaConf merged onto the dataclass config) rejects a key the config lacks",
        own_key_hint="subclass the config dataclass to add '{key}'",
        # build_nested_dataclass passes values to the dataclasses unconverted and unchecked (schema_gen.py)
        checked_types=frozenset(),
        prepare="translator.frameworks.skyrl.keys:prepare",
    ),
    schema_generator="translator.frameworks.skyrl.schema_gen",
    data_loader_for="translator.frameworks.skyrl.dialect:data_loader",
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    # a copy of the framework's code kept in the project: the launch may run it (translator/dialects/rejected_keys.py)
    copy_markers=("skyrl/train/entrypoints/main_base.py", "skyrl_train/entrypoints/main_base.py"),
    packages=("skyrl", "skyrl_train"),
)
