"""A written folder names the release it was written for, and rlconf reads it back as that release with no --from.

Every writer's header line states the release ('# verl 0.5.0 launch script written by rlconf ...'); the targets
released on PyPI also get a requirements.txt pinning it (TRL with the transformers its parser uses), which the
user installs from and rlconf's pin reader takes as the project's release (docs/launch-scripts.md, "The version
the project states").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from tests.conftest import CASES, case_id, differing, read_back, translatable
from translator import dialects
from translator.cli import main

# Unsloth's output is a TRL recipe whose values go into a Python script: read alone it is TRL (test_notes_complete).
TARGETS = [name for name in dialects.names() if name not in ("rlconf", "unsloth")]
TRANSLATABLE = [c for c in CASES if translatable(c)]


@pytest.mark.parametrize("target", TARGETS)
def test_every_fixture_reads_back_as_the_written_release(target: str) -> None:
    """Every translatable fixture written for the target's newest release, read back with no flags: the same
    framework and release, and the plan the translation read at that release (a source the target cannot express
    is refused before anything is written)."""
    read = 0
    for case in TRANSLATABLE:
        source = translator.load(case.path, **case.load_kwargs())
        try:
            translation = translator.translate(source, to=target)
        except translator.ConfigError:
            continue
        back = translator.load(read_back(translation))
        assert (back.spec.framework, back.version) == (translation.framework, translation.version), case_id(case)
        assert not differing(translation.plan, back.plan), case_id(case)
        read += 1
    assert read >= len(TRANSLATABLE) // 2  # most fixtures are written for every target


@pytest.mark.parametrize("target", TARGETS)
def test_every_written_release_reads_back_as_itself(target: str) -> None:
    """One source written for each release the target writes: read back with no flags, that release. The keys
    alone name the newest release that has them: before the header was read, 27 came back as a newer one (e.g.
    slime 0.2.0 → 0.3.1, nemo-rl 0.4.0 → 0.7.0)."""
    source = translator.load(next(c.path for c in CASES if case_id(c) == "verl/v09_fetch_granularity_sp2"))
    dialect = dialects.get(target)
    for version in (v for v in dialect.versions if dialect.writable(v) == v):
        translation = translator.translate(source, to=f"{target}@{version}")
        back = translator.load(read_back(translation))
        assert back.version == translation.version == dialect.resolve_version(version), version


# What pip installs for each target released on PyPI (docs/frameworks/<fw>.md name the PyPI packages: verl,
# openrlhf, skyrl for the skyrl package; trl with transformers 5.24.0, the newest `pip install trl==1.16.0`
# resolves to, docs/frameworks/trl.md "transformers"). The others install from their repositories: no pin.
REQUIREMENTS = {
    "verl@0.5.0": ["verl==0.5.0"],
    "openrlhf@0.9.3": ["openrlhf==0.9.3"],
    "skyrl@0.3.0": ["skyrl==0.3.0"],
    "trl@1.16.0": ["trl==1.16.0", "transformers==5.24.0"],
    "trl@0.18.0+transformers4.52.4": ["trl==0.18.0", "transformers==4.52.4"],
    "skyrl@skyrl_train-0.2.0": None,  # the Hydra package's launch module names it
    "easyr1": None,
    "open-instruct": None,
    "slime": None,
    "nemo-rl": None,
}


@pytest.mark.parametrize("target", REQUIREMENTS)
def test_requirements_pin_the_written_release(target: str) -> None:
    source = translator.load(next(c.path for c in CASES if case_id(c) == "verl/v09_fetch_granularity_sp2"))
    files = translator.translate(source, to=target).files
    pins = REQUIREMENTS[target]
    if pins is None:
        assert "requirements.txt" not in files
        return
    lines = [line for line in files["requirements.txt"].splitlines() if not line.startswith("#")]
    assert lines == pins


def test_a_written_folder_on_disk_is_read_as_its_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`translate -o DIR` then `explain DIR/launch.sh` from another folder, no --from: TRL 0.17.0 (its keys alone
    would be read as the newest release that has them) and the transformers it was written for."""
    source = next(c.path for c in CASES if case_id(c) == "verl/v09_fetch_granularity_sp2")
    out = tmp_path / "out"
    runner = CliRunner()
    written = runner.invoke(main, ["translate", str(source), "--to", "trl@0.17.0+transformers4.51.3", "-o", str(out)])
    assert written.exit_code in (0, 1), written.output
    assert (out / "requirements.txt").read_text().splitlines()[1:] == ["trl==0.17.0", "transformers==4.51.3"]
    monkeypatch.chdir(tmp_path)
    back = translator.load(out / "launch.sh")
    assert back.version == "0.17.0"
    assert any(n.code == "version.project" and "launch.sh:2" in n.message for n in back.notes)
    assert any(n.code == "version.transformers-project" and "4.51.3" in n.message for n in back.notes)
