"""EasyR1 (hiyouga/EasyR1): its registration. The reader and writer are dialect.py, the version tables tables.py,
the start-up rules checks.py and the native-key hooks keys.py; the schema generator is schema_gen.py."""

from __future__ import annotations

import os

from translator.framework import DataLoader, Detection, Framework, NativeRules

FRAMEWORK = Framework(
    name="easyr1",
    label="EasyR1",
    dialect="translator.frameworks.easyr1.dialect:EasyR1Dialect",
    aliases=("hiyouga/easyr1", "easy-r1"),
    checks="translator.frameworks.easyr1.checks",
    rules="translator.frameworks.easyr1.rules:RULES",
    detection=Detection(
        script=r"-m\s+verl\.trainer\.main(\s|$)|verl/trainer/main\.py(\s|$)",
        yaml=r"^worker\s*:",
        arguments=r"^(worker\.(actor|rollout|ref|reward)\.\w|config=\S+\.ya?ml$)",
    ),
    native=NativeRules(
        unknown_keys="its structured config rejects unknown keys",
        rejects_null=True,  # OmegaConf rejects null for a field that is not Optional
    ),
    renames="translator.frameworks.easyr1.keys:renames",
    schema_generator="translator.frameworks.easyr1.schema_gen",
    data_loader=DataLoader(
        "prompt", "text", "RLHFDataset._build_messages (verl/utils/dataset.py@b44b311)", (("answer", "answer"),)
    ),
    # run from its repository root, where get_abs_path resolves the reward file (verl/utils/py_functional.py@b44b311)
    reward_path_key="worker.reward.reward_function",
    concordance=os.path.join(os.path.dirname(__file__), "concordance.yaml"),
    copy_markers=("verl/trainer/main.py",),
    packages=("verl",),  # as verl's: an import of it tells neither
)
