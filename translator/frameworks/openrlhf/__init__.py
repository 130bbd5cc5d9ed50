"""OpenRLHF: its registration. The reader and writer are dialect.py, the version tables tables.py, the start-up
rules checks.py, the native-key hooks keys.py and the schema generator schema_gen.py."""

from __future__ import annotations

import os

from translator.framework import Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="openrlhf",
    label="OpenRLHF",
    dialect="translator.frameworks.openrlhf.dialect:OpenRlhfDialect",
    aliases=("openrlhf/openrlhf",),
    checks="translator.frameworks.openrlhf.checks",
    rules="translator.frameworks.openrlhf.rules:RULES",
    detection=Detection(
        script=r"openrlhf\.cli\.train_ppo_ray|openrlhf/cli/train_ppo_ray\.py",
        arguments=(
            r"^--(actor_num_gpus_per_node|actor_num_nodes|micro_train_batch_size|n_samples_per_prompt"
            r"|micro_rollout_batch_size|(actor|rollout|train|ref|critic)\.\w+)(=|$)"
        ),
        launch="python3 -m openrlhf.cli.train_ppo_ray",
    ),
    native=NativeRules(
        flags=True,
        unknown_keys="train_ppo_ray's argparse stops with 'unrecognized arguments'",
        prepare="translator.frameworks.openrlhf.keys:prepare",
    ),
    renames="translator.frameworks.openrlhf.keys:renames",
    schema_generator="translator.frameworks.openrlhf.schema_gen",
    # DeepSpeed's FusedAdam / DeepSpeedCPUAdam (DeepspeedStrategy.create_optimizer), adapted from apex, whose
    # constructors check nothing: a negative rate runs (the others build torch.optim.AdamW, which refuses it)
    optimizer_checks_lr=False,
    data_loader_for="translator.frameworks.openrlhf.dialect:data_loader",
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    copy_markers=("openrlhf/cli/train_ppo_ray.py",),
    packages=("openrlhf",),
)
