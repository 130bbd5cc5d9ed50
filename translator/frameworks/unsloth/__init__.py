"""Unsloth on TRL: its registration. Its reader (dialect.py) is TRL's with Unsloth's defaults and rewrite
(tables.py); its rules checks.py and rules.py."""

from __future__ import annotations

from translator.framework import Detection, Framework

# A Python script that imports unsloth before trl (Unsloth patches TRL's GRPOConfig on import).
IMPORTS_FIRST = r"(?m)\A(?:(?!^[ \t]*(?:from|import)[ \t]+trl\b)[\s\S])*?^[ \t]*(?:from|import)[ \t]+unsloth\b"

FRAMEWORK = Framework(
    name="unsloth",
    label="Unsloth",
    dialect="translator.frameworks.unsloth.dialect:UnslothDialect",
    checks="translator.frameworks.unsloth.checks",
    rules="translator.frameworks.unsloth.rules:RULES",
    detection=Detection(script=IMPORTS_FIRST),
)
