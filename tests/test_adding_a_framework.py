"""docs/adding-a-framework.md followed end to end: a toy framework (tests/toy/: one folder, one registration)
reads, explains, checks and translates both ways, and no built-in framework's module is touched; and the core
names no framework, so that a framework is added (or removed) without editing it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.toy
import translator
from translator import dialects
from translator.dialects import registry
from translator.frameworks import FRAMEWORKS

SCRIPT = "#!/usr/bin/env bash\npython -m toyrl.train --prompts 64 --group 8 --update_batch 128 --gpus 4 --micro 2\n"
PACKAGE = Path(translator.__file__).parent
# Shared modules that still hold one framework lineage's knowledge, and why:
SHARED = {
    # the catalogue of the shared note codes (data; docs/rules.md is generated from it): a note's description
    # quotes the framework message it mirrors
    "rule_table.py",
    # verl-lineage fork trainers (verl's and EasyR1's readers use them): upstream verl's batch-forming statements
    "dialects/forkbatch.py",
    "dialects/fork_tables.py",
}


@pytest.fixture
def toyrl() -> Iterator[None]:
    # The registry's tables are restored after the test, so the toy never leaks into other tests.
    saved = [(t, dict(t)) for t in (registry._FRAMEWORKS, registry._ALIASES, registry._cache)]
    dialects.register(tests.toy.FRAMEWORK)  # the one registration line
    yield
    for table, content in saved:
        table.clear()
        table.update(content)  # type: ignore[attr-defined]


def test_a_registered_framework_is_detected_explained_checked_and_translated(toyrl: None, tmp_path: Path) -> None:
    source = tmp_path / "run.sh"
    source.write_text(SCRIPT)
    explanation = translator.explain(source)  # detected from its launcher line, no --from
    assert explanation.framework == "toyrl" and explanation.version == "1.1.0"
    # 64 prompts × 8 = 512 samples per step; 128 per update → 4 updates; 128 / 4 GPUs / micro 2 = 16 accumulation
    assert explanation.plan["samples_per_step"] == 512
    assert explanation.plan["optimizer_steps_per_step"] == 4
    assert explanation.plan["grad_accum_steps"] == 16
    assert not translator.check(source).errors
    bad = tmp_path / "bad.sh"
    bad.write_text(SCRIPT.replace("--update_batch 128", "--update_batch 96"))
    assert [f.rule for f in translator.check(bad).errors] == ["toyrl.divisible"]
    # Out to a built-in framework and back: the plan is kept.
    to_verl = translator.translate(source, to="verl")
    assert to_verl.plan["samples_per_optimizer_step"] == 128 and to_verl.plan["samples_per_step"] == 512
    back = translator.translate(
        translator.load(translator.api.Source(to_verl.files["launch.sh"], "launch.sh", None, to_verl.files)),
        to="toy@1.0.0",
    )
    assert back.framework == "toyrl" and back.version == "1.0.0"
    assert {
        k: back.plan[k]
        for k in ("prompts_per_step", "samples_per_prompt", "samples_per_optimizer_step", "data_parallel_size")
    } == {"prompts_per_step": 64, "samples_per_prompt": 8, "samples_per_optimizer_step": 128, "data_parallel_size": 4}
    assert "toyrl" in [entry["name"] for entry in dialects.listing()]


def test_the_toy_is_gone_after_its_test() -> None:
    assert "toyrl" not in dialects.names()


def test_each_framework_is_one_folder_with_one_registration() -> None:
    folders = sorted(p.name for p in (PACKAGE / "frameworks").iterdir() if (p / "__init__.py").exists())
    registered = sorted(f.dialect.split(".")[2] for f in FRAMEWORKS)  # translator.frameworks.<folder>.dialect:…
    assert folders == registered
    for entry in FRAMEWORKS:  # every code reference points into the framework's own folder
        folder = f"translator.frameworks.{entry.dialect.split('.')[2]}."
        references = [
            entry.dialect,
            entry.checks,
            entry.rules,
            entry.native.prepare,
            entry.renames,
            entry.moved_sections,
            entry.schema_generator,
        ]
        assert all(r.startswith(folder) for r in references if r), entry.name


def _names_pattern() -> re.Pattern[str]:
    words = {w.lower() for f in FRAMEWORKS for w in (f.name, f.label, *f.aliases)}
    words |= {w.replace("-", "_") for w in words} | {w.split("/")[-1] for w in words}
    alternatives = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9])({alternatives})(?![a-z0-9])", re.IGNORECASE)


def _core_modules() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if not relative.startswith("frameworks/") and relative not in SHARED:
            yield path


def _mentions(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every identifier, attribute, imported module and string constant (docstrings too) with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.alias):
            yield getattr(node, "lineno", 0), f"{node.name} {node.asname or ''}"
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or ""


def test_the_pattern_finds_a_framework_name() -> None:
    # The checker itself: each spelling below names a framework; 'ctrl' and 'rlconf' do not.
    pattern = _names_pattern()
    found = [
        bool(pattern.search(text))
        for text in (
            "VERL_KEYS",
            "import translator.frameworks.trl",
            "Open-R1 recipe",
            "open_instruct",
            "hiyouga/EasyR1",
            "ctrl",
            "rlconf plan",
        )
    ]
    assert found == [True, True, True, True, True, False, False]


def test_the_core_names_no_framework() -> None:
    pattern = _names_pattern()
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {match.group(0)!r}"
        for path in _core_modules()
        for line, text in _mentions(ast.parse(path.read_text(encoding="utf-8")))
        for match in [pattern.search(text)]
        if match
    ]
    assert not found, "core modules naming a framework (move it to its registration):\n" + "\n".join(found)
