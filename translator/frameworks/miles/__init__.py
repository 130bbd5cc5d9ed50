"""Miles (radixark/miles, slime's fork): its registration. The reader and writer are dialect.py (slime's, through
its hooks), the version table tables.py, the start-up rules checks.py and their codes rules.py
(docs/frameworks/miles.md)."""

from __future__ import annotations

from translator.framework import Detection, Framework, NativeRules

# slime's launch (translator/frameworks/slime/__init__.py) in a script that names Miles: its package or checkout
# (`/root/miles`, `miles.rollout...`), its environment variables (MILES_*), or a flag slime 0.3.1 lacks.
# (--train-backend fsdp is not one: slime 0.2.0 – 0.2.2 had it too)
MILES_ONLY_FLAGS = (
    r"--(?:megatron-to-hf-mode|qkv-format|update-weight-transfer-mode|use-dynamic-global-batch-size)(?![\w-])"
)
MARK = rf"(?:\bmiles\b|\bMILES_|{MILES_ONLY_FLAGS})"
# slime's flags anywhere in the script (bash arrays usually hold them, defined before the launch line)
FLAGS = r"--(?:rollout-batch-size|n-samples-per-prompt)\b"
LAUNCH = r"python[\d.]*\s+(?:\S*/)?train(?:_async)?\.py\b"
# a Python driver that builds the command and runs it through Miles' launch helper (translator/frameworks/miles/
# driver.py)
DRIVER = r"\bmiles\.utils\.external_utils\b[\s\S]*\bexecute_train\w*\s*\("

FRAMEWORK = Framework(
    name="miles",
    label="Miles",
    dialect="translator.frameworks.miles.dialect:MilesDialect",
    aliases=("radixark/miles",),
    checks="translator.frameworks.miles.checks",
    rules="translator.frameworks.miles.rules:RULES",
    detection=Detection(script=rf"^(?=[\s\S]*{MARK})(?=[\s\S]*{FLAGS})[\s\S]*?{LAUNCH}|{DRIVER}"),
    native=NativeRules(
        flags=True,
        unknown_keys="Miles refuses an unknown flag (argparse: 'unrecognized arguments'); rlconf has no Miles schema",
    ),
    # a copy of the framework's code kept in the project: the launch may run it (translator/dialects/rejected_keys.py)
    copy_markers=("miles/utils/arguments.py",),
    copy_entries=("train.py", "train_async.py"),
    packages=("miles",),
)
