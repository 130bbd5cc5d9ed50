"""Version spellings in --from/--to: MAJOR.MINOR, unlisted patches, a leading v, latest, newer, older."""
from __future__ import annotations

import pytest

from translator.dialects import get, parse_framework
from translator.errors import ConfigError


def resolve(text: str) -> tuple[str | None, list[tuple[str, str, str]]]:
    dialect, version = parse_framework(text)
    return version, dialect.take_version_notes()


@pytest.mark.parametrize(("text", "expected"), [
    ("trl@0.18", "0.18.0"),        # MAJOR.MINOR: the newest listed 0.18 release
    ("trl@0.16", "0.16.0"),
    ("trl@0.27", "0.27.0"),
    ("verl@v0.4.1", "0.4.1"),      # a leading v, as in git tags
    ("trl@latest", get("trl").versions[-1]),
    ("openrlhf@0.8", "0.8.11"),    # newest listed 0.8.x
    ("open-instruct@2025.03", "2025.03.13"),  # a month of dated versions: its newest listed date
])
def test_spellings_without_notes(text: str, expected: str) -> None:
    assert resolve(text) == (expected, [])


def test_unlisted_patch_maps_to_its_band_with_a_note() -> None:
    version, notes = resolve("trl@0.18.2")  # 0.18.2 behaves like 0.18.0 (no 0.18.x change listed after it)
    assert version == "0.18.0"
    assert [(level, code) for level, code, _ in notes] == [("info", "version.band")]
    version, notes = resolve("openrlhf@0.8.2")  # between listed 0.8.1 and 0.8.3: the older one
    assert version == "0.8.1" and notes[0][1] == "version.band"


def test_newer_than_known_is_the_newest_with_a_warning() -> None:
    version, notes = resolve("trl@9.0")
    assert version == get("trl").versions[-1]
    assert [(level, code) for level, code, _ in notes] == [("warning", "version.newer-than-known")]


def test_older_than_supported_is_an_error_naming_the_oldest() -> None:
    with pytest.raises(ConfigError) as error:
        parse_framework("trl@0.10")
    assert "older than the oldest supported version, 0.14.0" in str(error.value)
    with pytest.raises(ConfigError, match="unknown trl version 'banana'"):
        parse_framework("trl@banana")


def test_version_notes_reach_the_reading(tmp_path) -> None:
    from translator import api

    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("per_device_train_batch_size: 4\nnum_generations: 8\ngradient_accumulation_steps: 2\n")
    explanation = api.explain(str(recipe), framework="trl@0.18.2", num_processes=8)
    assert explanation.spec.version == "0.18.0"
    assert "version.band" in [n.code for n in explanation.notes]


@pytest.mark.parametrize(("text", "expected"), [
    ("verl@0.8.0.dev", "0.7.1"),    # a development snapshot before 0.8.0: the release before it
    ("verl@0.2.0.dev", "0.1"),
    ("trl@0.19.0rc1", "0.18.0"),
])
def test_pre_releases_are_read_as_the_release_before(text: str, expected: str) -> None:
    version, notes = resolve(text)
    assert version == expected
    assert [(level, code) for level, code, _ in notes] == [("info", "version.pre-release")]


@pytest.mark.parametrize(("text", "expected"), [("verl@0.3.0.post1", "0.3.0"), ("verl@0.2", "0.2.0.post2"),
                                                 ("verl@0.4.1+cu124", "0.4.1")])
def test_post_releases_and_local_labels_are_the_release(text: str, expected: str) -> None:
    assert resolve(text) == (expected, [])
