"""TRL (huggingface/trl) and Open-R1's recipes for it: its registration. The reader and writer are dialect.py, the
version tables tables.py, the start-up rules checks.py, the native-key hooks keys.py, the schema generator
schema_gen.py, and the reward-function bridges its writer adds reward_bridge.py."""

from __future__ import annotations

import os

from translator.framework import Detection, Framework, NativeRules

# A TRL / Open-R1 recipe's keys, and an accelerate config's (which a TRL run is launched with).
RECIPE_KEYS = (
    r"^(per_device_train_batch_size|num_generations|model_name_or_path|"
    r"gradient_accumulation_steps|reward_funcs|use_vllm|beta)\s*:"
)
ACCELERATE_KEYS = r"^(distributed_type|compute_environment)\s*:"

FRAMEWORK = Framework(
    name="trl",
    label="TRL",
    dialect="translator.frameworks.trl.dialect:TrlDialect",
    data_loader_for="translator.frameworks.trl.dialect:data_loader",
    aliases=("open-r1", "openr1", "open_r1", "huggingface/trl"),
    checks="translator.frameworks.trl.checks",
    rules="translator.frameworks.trl.rules:RULES",
    detection=Detection(
        # Open-R1's grpo.py, TRL's scripts, and forks' own GRPO scripts (VLM-R1's grpo_rec.py, grpo_jsonl.py)
        # and a Python script that builds a GRPOConfig itself
        script=r"accelerate\s+launch|trl\s+(grpo|vllm-serve)|grpo\w*\.py|GRPOConfig\s*\(",
        yaml=f"{RECIPE_KEYS}|{ACCELERATE_KEYS}",
        # GRPOConfig's own fields (no other framework has them): a fork's GRPO script under another file name
        arguments=r"^--(num_generations|max_completion_length|reward_funcs)(=|$)",
    ),
    native=NativeRules(
        unknown_keys="TrlParser rejects unknown recipe keys since 0.19, and drops them silently before",
        unknown_keys_since=(
            ("0", "TrlParser ≤ 0.18 drops unknown recipe keys silently"),
            ("0.19", "TrlParser rejects unknown recipe keys since 0.19"),
        ),
        prepare="translator.frameworks.trl.keys:prepare",
    ),
    renames="translator.frameworks.trl.keys:renames",
    schema_generator="translator.frameworks.trl.schema_gen",
    schema_companions=("transformers",),  # TrainingArguments of the transformers release a run uses
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    copy_markers=("trl/trainer/grpo_trainer.py",),
    packages=("trl",),
)
