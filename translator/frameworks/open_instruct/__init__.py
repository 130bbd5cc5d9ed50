"""Open-Instruct (allenai/open-instruct): its registration. The reader and writer are dialect.py, the version
tables tables.py, the start-up rules checks.py, the native-key hooks keys.py and the schema generator
schema_gen.py."""

from __future__ import annotations

import os

from translator.framework import DataLoader, Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="open-instruct",
    label="Open-Instruct",
    dialect="translator.frameworks.open_instruct.dialect:OpenInstructDialect",
    aliases=("open_instruct", "allenai/open-instruct"),
    checks="translator.frameworks.open_instruct.checks",
    rules="translator.frameworks.open_instruct.rules:RULES",
    detection=Detection(
        script=(
            r"(grpo_fast|grpo_vllm_thread_ray_gtrl|ppo_vllm_thread_ray_gtrl|ppo_fast)\.py"
            r"|open_instruct/(grpo|ppo)\.py"
        ),
        # grpo_fast.py's dataclass fields (ArgumentParserPlus reads a YAML of them); asked before TRL, whose recipe
        # keys (model_name_or_path, beta, per_device_train_batch_size) such a file has too
        yaml=(
            r"^(dataset_mixer_list|num_learners_per_node|num_unique_prompts_rollout"
            r"|num_samples_per_prompt_rollout)\s*:"
        ),
        arguments=(
            r"^--(num_learners_per_node|dataset_mixer_list|num_unique_prompts_rollout"
            r"|num_samples_per_prompt_rollout)(=|$)"
        ),
        launch="python open_instruct/grpo_fast.py",
    ),
    native=NativeRules(
        flags=True,
        unknown_keys="HfArgumentParser rejects unknown flags",
        prepare="translator.frameworks.open_instruct.keys:prepare",
    ),
    renames="translator.frameworks.open_instruct.keys:renames",
    schema_generator="translator.frameworks.open_instruct.schema_gen",
    data_loader=DataLoader(
        "messages",
        "chat",
        "rlvr_tokenize_v1 (open_instruct/dataset_transformation.py@e6c3044aa)",
        (("answer", "ground_truth"), ("dataset", "dataset")),
        # prompt = messages if len(messages) == 1 else messages[:-1] (dataset_transformation.py@e6c3044aa:1616)
        last_message_is_answer=True,
    ),
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    copy_markers=("open_instruct/grpo_fast.py", "open_instruct/grpo.py"),
    packages=("open_instruct",),
)
