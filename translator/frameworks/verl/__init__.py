"""verl (volcengine/verl): its registration. The reader and writer are dialect.py, the version tables tables.py,
the start-up rules checks.py, the native-key hooks keys.py and the schema generator schema_gen.py."""

from __future__ import annotations

import os

from translator.framework import DataLoader, Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="verl",
    label="verl",
    dialect="translator.frameworks.verl.dialect:VerlDialect",
    aliases=("volcengine/verl", "verl-project/verl"),
    checks="translator.frameworks.verl.checks",
    rules="translator.frameworks.verl.rules:RULES",
    detection=Detection(
        # verl's entry points, and forks' or recipes' own ones that take its overrides (recipe.prime.main_prime)
        script=(
            r"-m\s+(verl\.trainer\.main_ppo(_v0)?|(verl\.)?recipe\.\w+\.(src\.)?main_\w+|[\w.]+\.main_ppo(_\w+)?"
            r"|[\w.]+\.fully_async_main)\b|verl/trainer/main_ppo\.py|(^|[\s/])main_ppo\w*\.py"
        ),
        yaml=r"^(actor_rollout_ref|critic|algorithm)\s*:|^\s*-\s*ppo_trainer\b",
        arguments=(
            r"^\+{0,2}(actor_rollout_ref\.\w|critic\.\w+\.|data\.(train|max_prompt|max_response)_\w+="
            r"|trainer\.(n_gpus_per_node|nnodes|total_epochs)=|algorithm\.adv_estimator=)"
        ),
        # EasyR1's worker.* / config= namespace makes a command EasyR1's (it, too, keeps data.* and trainer.*)
        yields_to=("easyr1",),
        launch="python3 -m verl.trainer.main_ppo",
    ),
    native=NativeRules(
        unknown_keys="Hydra rejects an override of a key the config lacks",
        # verl's YAML is untyped: only number and boolean defaults say enough to call a value wrong
        checked_types=frozenset({"number", "integer", "boolean", "null"}),
        computes_with_defaults=True,
        own_key_hint="'+{key}=...' appends a key of your own",
        prepare="translator.frameworks.verl.keys:prepare",
    ),
    moved_sections="translator.frameworks.verl.keys:moved_sections",
    schema_generator="translator.frameworks.verl.schema_gen",
    data_loader=DataLoader(
        "prompt",
        "chat",
        "RLHFDataset._build_messages (verl/utils/dataset/rl_dataset.py@v0.9.1)",
        (("reward_model", "reward_model"),),
    ),
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    copy_markers=("verl/trainer/main_ppo.py",),
    packages=("verl",),
)
