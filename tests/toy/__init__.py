"""A toy framework, 'toyrl', added the way docs/adding-a-framework.md says: one folder (this one) holding its
dialect (dialect.py), rules (checks.py) and this registration; the test adds it with one call, as a built-in
framework is added with one line in translator/frameworks/__init__.py. No other framework's module is edited.
"""
from __future__ import annotations

from translator.framework import Detection, Framework

FRAMEWORK = Framework(
    name="toyrl",
    label="ToyRL",
    dialect="tests.toy.dialect:ToyDialect",
    aliases=("toy",),
    checks="tests.toy.checks",
    detection=Detection(script=r"-m\s+toyrl\.train"),
)
