"""Version spellings in --from/--to: MAJOR.MINOR, unlisted patches, a leading v, latest, newer, older."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from translator.dialects import get, parse_framework
from translator.errors import ConfigError


def resolve(text: str) -> tuple[str | None, list[tuple[str, str, str]]]:
    dialect, version = parse_framework(text)
    return version, dialect.take_version_notes()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("trl@0.18", "0.18.0"),  # MAJOR.MINOR: the newest listed 0.18 release
        ("trl@0.16", "0.16.0"),
        ("trl@0.27", "0.27.0"),
        ("verl@v0.4.1", "0.4.1"),  # a leading v, as in git tags
        ("trl@latest", get("trl").versions[-1]),
        ("openrlhf@0.8", "0.8.11"),  # newest listed 0.8.x
        ("open-instruct@2025.03", "2025.03.13"),  # a month of dated versions: its newest listed date
    ],
)
def test_spellings_without_notes(text: str, expected: str) -> None:
    assert resolve(text) == (expected, [])


def test_unlisted_patch_maps_to_its_band_with_a_note() -> None:
    version, notes = resolve("trl@0.18.2")  # 0.18.2 behaves like 0.18.0 (no 0.18.x change listed after it)
    assert version == "0.18.0"
    assert [(level, code) for level, code, _ in notes] == [("info", "version.band")]
    version, notes = resolve("openrlhf@0.8.2")  # between listed 0.8.1 and 0.8.3: the older one
    assert version == "0.8.1" and notes[0][1] == "version.band"


def test_newer_than_known_is_the_newest_with_a_warning() -> None:
    # A later release of the newest series (trl 1.x, verl 0.x) may come out after rlconf's table.
    for text in ("trl@1.99.0", "verl@0.99"):
        version, notes = resolve(text)
        assert version == parse_framework(text.split("@")[0])[0].versions[-1]
        assert [(level, code) for level, code, _ in notes] == [("warning", "version.newer-than-known")]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("trl@9.0", "not a release rlconf knows"),  # a new major version of trl (newest 1.x): another program
        ("trl@99.0", "not a release rlconf knows"),
        ("easyr1@1.0", "not a release rlconf knows"),  # EasyR1 has released only 0.x
        ("trl@-1", "unknown trl version '-1'"),  # no release is spelled with a sign
        ("verl@-5", "unknown verl version '-5'"),
        ("trl@", "names no version after '@'"),
        ("verl@0.x", "unknown verl version '0.x'"),
    ],
)
def test_what_is_no_release_is_refused_with_the_nearest(text: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says) as error:
        parse_framework(text)
    name = text.split("@")[0]
    assert get(name).versions[-1] in str(error.value)  # the hint names the newest release


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("verl@0.8.0.dev", "0.7.1"),  # a development snapshot before 0.8.0: the release before it
        ("verl@0.2.0.dev", "0.1"),
        ("trl@0.19.0rc1", "0.18.0"),
    ],
)
def test_pre_releases_are_read_as_the_release_before(text: str, expected: str) -> None:
    version, notes = resolve(text)
    assert version == expected
    assert [(level, code) for level, code, _ in notes] == [("info", "version.pre-release")]


@pytest.mark.parametrize(
    ("text", "expected"), [("verl@0.3.0.post1", "0.3.0"), ("verl@0.2", "0.2.0.post2"), ("verl@0.4.1+cu124", "0.4.1")]
)
def test_post_releases_and_local_labels_are_the_release(text: str, expected: str) -> None:
    assert resolve(text) == (expected, [])


# ---------------------------------------------------------------- the version the project states
RECIPE = "per_device_train_batch_size: 1\nnum_generations: 4\ngradient_accumulation_steps: 4\n"


def test_an_exact_pin_in_the_projects_requirements_gives_the_version(tmp_path) -> None:
    """An R1-V-like project: src/requirements.txt pins trl==0.14.0; the recipe lives two folders below. In trl
    0.14 per_device_train_batch_size counts prompts (× num_generations 4 completions), so 4 processes × 1 prompt
    × 4 completions × GAS 4 = 64 completions per optimizer step (1.x would count completions: 16)."""
    from translator import api

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "requirements.txt").write_text("torch\ntrl==0.14.0\ntransformers>=4.49\n")
    recipe = tmp_path / "src" / "r1" / "recipe.yaml"
    recipe.parent.mkdir()
    recipe.write_text(RECIPE)
    explanation = api.explain(str(recipe), num_processes=4)
    assert explanation.spec.version == "0.14.0"
    assert explanation.plan["samples_per_optimizer_step"] == 64
    note = next(n for n in explanation.notes if n.code == "version.project")
    assert "trl 0.14.0 from" in note.message and "requirements.txt" in note.message
    assert api.explain(str(recipe), framework="trl@1.16.0", num_processes=4).spec.version == "1.16.0"  # --from wins


def test_a_pin_rlconf_does_not_read_is_a_warning_and_the_keys_decide(tmp_path) -> None:
    from translator import api

    (tmp_path / "setup.py").write_text('install_requires=["trl==0.8.6"]\n')
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(RECIPE)
    explanation = api.explain(str(recipe), num_processes=4)
    assert "version.project-unsupported" in {n.code for n in explanation.notes}
    assert explanation.spec.version != "0.8.6"


PACKAGE_INFO = (
    'MAJOR = 0\nMINOR = {minor}\nPATCH = 0\nPRE_RELEASE = "{pre}"\n\nVERSION = (MAJOR, MINOR, PATCH, PRE_RELEASE)\n'
)
PACKAGE_INFO += '__version__ = ".".join(map(str, VERSION[:3])) + "".join(VERSION[3:])\n'


@pytest.mark.parametrize(("minor", "pre", "read_as"), [(4, "", "0.4.0"), (6, "rc0", "0.5.0")])
def test_a_nemo_rl_checkouts_package_info_gives_the_version(tmp_path, minor: int, pre: str, read_as: str) -> None:
    """A NeMo-RL checkout states its version in nemo_rl/package_info.py as MAJOR, MINOR, PATCH and PRE_RELEASE
    (its __version__ is computed, not a literal: no version is taken from it). 0.4.0 is read as itself; 0.6.0rc0,
    main between 0.5.0 and 0.6.0, as 0.5.0, the release before it."""
    from translator import api

    (tmp_path / ".git").mkdir()
    (tmp_path / "nemo_rl").mkdir()
    (tmp_path / "nemo_rl" / "package_info.py").write_text(PACKAGE_INFO.format(minor=minor, pre=pre))
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("grpo:\n  num_prompts_per_step: 16\n  num_generations_per_prompt: 4\n")
    explanation = api.explain(str(recipe), framework="nemo-rl")
    assert explanation.spec.version == read_as
    assert "version.project" in {n.code for n in explanation.notes}
    # a pre-release lies between the release before it and its own: both are candidates (check runs both)
    assert explanation.candidates == (("0.5.0", "0.6.0") if pre else None)


def test_ranges_state_no_version_and_the_search_stops_at_the_repository_root(tmp_path) -> None:
    from translator import api

    (tmp_path / "requirements.txt").write_text("trl==0.14.0\n")  # outside the repository below: not read
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pyproject.toml").write_text('dependencies = ["trl>=0.14"]\n')
    recipe = repo / "recipe.yaml"
    recipe.write_text(RECIPE)
    codes = {n.code for n in api.explain(str(recipe), num_processes=4).notes}
    assert "version.project" not in codes and "version.project-unsupported" not in codes


def test_openrlhf_version_txt_beside_its_package_gives_the_version(tmp_path) -> None:
    """OpenRLHF's checkout (or a project vendoring it) keeps its version in version.txt, which its setup.py reads;
    a version.txt without an openrlhf/ package beside it says nothing about OpenRLHF."""
    from translator import api

    (tmp_path / "openrlhf").mkdir()
    (tmp_path / "version.txt").write_text("0.5.9\n")
    script = tmp_path / "examples" / "train.sh"
    script.parent.mkdir()
    script.write_text(
        "python3 -m openrlhf.cli.train_ppo_ray --actor_num_nodes 1 --actor_num_gpus_per_node 8 "
        "--pretrain m --micro_train_batch_size 4 --train_batch_size 128 --micro_rollout_batch_size 8 "
        "--rollout_batch_size 64 --n_samples_per_prompt 8 --prompt_data d --input_key prompt\n"
    )
    explanation = api.explain(str(script))
    assert explanation.spec.version == "0.5.9" and "version.project" in {n.code for n in explanation.notes}
    (tmp_path / "openrlhf").rmdir()
    assert "version.project" not in {n.code for n in api.explain(str(script)).notes}


def test_a_pin_with_extras_is_a_pin(tmp_path) -> None:
    from translator import api

    (tmp_path / "setup.py").write_text('_deps = ["trl[vllm]==0.18.0", "vllm==0.8.5.post1"]\n')
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(RECIPE)
    assert api.explain(str(recipe), num_processes=4).spec.version == "0.18.0"


# ---------------------------------------------------------------- project evidence beyond the script's folders
def test_lock_files_state_what_is_installed(tmp_path) -> None:
    """A lock file pins every package exactly (uv sync, poetry install, pipenv sync install just that); a package
    locked to a git commit gives the commit. Entries written by hand; sections of other tables are no package."""
    from translator.sources.project import evidence

    (tmp_path / ".git").mkdir()
    (tmp_path / "uv.lock").write_text(
        'version = 1\n\n[[package]]\nname = "trl"\nversion = "1.7.1"\n'
        'source = { registry = "https://pypi.org/simple" }\n'
        'dependencies = [\n    { name = "transformers" },\n]\n\n[package.metadata]\nrequires-dist = []\n\n'
        '[[package]]\nname = "verl"\nversion = "0.4.0.dev0"\n'
        'source = { git = "https://github.com/volcengine/verl?rev=main#0123abcd4567" }\n'
    )
    (tmp_path / "Pipfile.lock").write_text('{"default": {"openrlhf": {"hashes": ["sha256:x"], "version": "==0.5.9"}}}')
    found = {(e.package, e.version, e.kind) for e in evidence(str(tmp_path))}
    assert found == {
        ("trl", "1.7.1", "pin"),
        ("verl", "0.4.0.dev0", "pin"),
        ("verl", "0123abcd4567", "git-commit"),
        ("openrlhf", "0.5.9", "pin"),
    }


def test_install_lines_readme_blocks_and_git_pins_are_read(tmp_path) -> None:
    """Each statement is written by hand below; the expected (package, version, kind) follow from the text."""
    from translator.sources.project import evidence

    (tmp_path / ".git").mkdir()
    (tmp_path / "Dockerfile").write_text("FROM x\nRUN pip install \\\n    trl==0.15.2 vllm\n# pip install trl==9.9\n")
    (tmp_path / "README.md").write_text(
        "Use trl==1.0.0 in prose (not read)\n```bash\nuv pip install openrlhf==0.5.9\n```\n"
    )
    (tmp_path / "requirements.txt").write_text(
        "trl @ git+https://github.com/huggingface/trl.git@019fc6d\n"
        "verl@git+https://github.com/volcengine/verl.git@v0.4.1#egg=verl\n"
    )
    found = {(e.package, e.version, e.kind) for e in evidence(str(tmp_path))}
    assert found == {
        ("trl", "0.15.2", "pin"),
        ("openrlhf", "0.5.9", "pin"),
        ("trl", "019fc6d", "git-commit"),
        ("verl", "0.4.1", "git-tag"),
    }


def test_a_clone_fixed_to_a_ref_is_a_git_pin(tmp_path) -> None:
    """Clones written by hand; each (package, ref, kind) follows from the command that fixes it: a checkout after
    `cd` in the same RUN (inside a subshell too), `-b TAG` on the clone, a checkout on a later line of a script. A
    clone of the default branch, and `checkout -b` (a new branch), fix nothing."""
    from translator.sources.project import evidence

    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile.train").write_text(
        "FROM x\nRUN git clone https://github.com/volcengine/verl.git verl_pkg && \\\n"
        "    cd verl_pkg && (git checkout 4f630d4b || true)\n"
        "RUN git clone --depth 1 -b v0.8.5 https://github.com/OpenRLHF/OpenRLHF.git\n"
        "RUN git clone https://github.com/huggingface/trl.git && cd trl && git checkout -b mine\n"
    )
    (tmp_path / "setup.sh").write_text(
        "git clone https://github.com/hiyouga/EasyR1.git\ncd EasyR1\ngit checkout v0.3.2\npip install -e .\n"
    )
    found = {(e.package, e.version, e.kind) for e in evidence(str(tmp_path))}
    assert found == {
        ("verl", "4f630d4b", "git-commit"),
        ("openrlhf", "0.8.5", "git-tag"),
        ("easyr1", "0.3.2", "git-tag"),
    }


def test_a_commit_pin_names_no_release_and_the_keys_decide(tmp_path) -> None:
    from translator import api

    (tmp_path / ".git").mkdir()
    # abcdef0 is no commit of huggingface/trl's history (a fork's, say): it names no release rlconf can place.
    (tmp_path / "requirements.txt").write_text("trl @ git+https://github.com/huggingface/trl.git@abcdef0\n")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(RECIPE)
    explanation = api.explain(str(recipe), num_processes=4)
    codes = {n.code for n in explanation.notes}
    assert "version.project-commit" in codes and "version.project" not in codes
    assert explanation.candidates == ()  # check runs the rules for every release that fits the keys


def test_a_commit_of_the_framework_s_history_is_placed_between_its_releases(tmp_path) -> None:
    from translator import api

    (tmp_path / ".git").mkdir()
    # 019fc6d: 33 commits after v0.15.0 on huggingface/trl's main, first contained in v0.16.0 (git describe).
    (tmp_path / "requirements.txt").write_text("trl @ git+https://github.com/huggingface/trl.git@019fc6d\n")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(RECIPE)
    explanation = api.explain(str(recipe), num_processes=4)
    assert explanation.version == "0.15.2" and explanation.candidates == ("0.15.2", "0.16.0")
    assert any(n.code == "version.project" and "precedes 0.16.0" in n.message for n in explanation.notes)


def test_check_reports_a_verdict_that_differs_between_candidate_releases(tmp_path) -> None:
    """num_generations 3 with 4 processes × pdtbs 1: trl 0.14 counts prompts per device (no divisibility rule);
    from 0.15.2 the global batch 4 × 1 = 4 completions must divide by 3, which it does not. Two pins (0.14.0 nearer,
    0.16.0 in a Dockerfile) make the release uncertain, so the finding says where it applies."""
    from translator import api

    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("trl==0.14.0\n")
    (tmp_path / "Dockerfile").write_text("RUN pip install trl==0.16.0\n")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("per_device_train_batch_size: 1\nnum_generations: 3\ngradient_accumulation_steps: 4\n")
    report = api.check(str(recipe), num_processes=4)
    assert report.version == "0.14.0"
    messages = [f.message for f in report.errors + report.warnings if f.rule == "trl.num-generations-divisible"]
    assert any("fine in 0.14.0; error in 0.16.0" in m for m in messages), messages


def test_a_release_between_two_listed_ones_is_checked_against_both(tmp_path) -> None:
    from translator import api

    # trl 0.19.0 has no entry of its own (its GRPO code differs from 0.18.0's and from 0.19.1's: 0.19.1 fixed the
    # precedence of the generation_batch_size check): read as 0.18.0, with 0.19.1 as a second candidate.
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(RECIPE)
    explanation = api.explain(str(recipe), framework="trl@0.19.0", num_processes=4)
    assert explanation.version == "0.18.0" and explanation.candidates == ("0.18.0", "0.19.1")
    # 0.15.1's grpo_config.py and grpo_trainer.py are 0.15.2's (same blobs at both tags): that release, no doubt.
    same = api.explain(str(recipe), framework="trl@0.15.1", num_processes=4)
    assert same.version == "0.15.2" and same.candidates is None


def test_a_type_the_release_rejects_is_a_warning_when_the_project_runs_its_own_copy(tmp_path) -> None:
    from translator import api

    # A key the reader does not read, actor_rollout_ref.actor.shuffle, is a boolean in verl's schemas; a word there
    # is rejected by OmegaConf's merge of the release. A project that runs its own
    # copy of verl (verl_copy/, put on PYTHONPATH by the script) may have changed that field, so rlconf warns.
    project = tmp_path / "project"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "verl" / "copy_below_run_dir", project)
    (project / ".git").mkdir()
    script = project / "scripts" / "run.sh"
    script.write_text(
        script.read_text().replace(
            "trainer.total_epochs=1", "trainer.total_epochs=1 actor_rollout_ref.actor.shuffle=often"
        )
    )
    explanation = api.explain(str(script))
    assert any(
        n.code == "keys.invalid-type" and "actor_rollout_ref.actor.shuffle" in n.message for n in explanation.notes
    )
    # Without the copy the installed release runs, and it refuses the value: exit 2.
    shutil.rmtree(project / "verl_copy")
    with pytest.raises(ConfigError, match=r"actor_rollout_ref\.actor\.shuffle must be true or false"):
        api.explain(str(script))


def test_a_copy_without_a_version_file_is_the_projects_own_too(tmp_path) -> None:
    from translator import api

    # The same project with a copy that states no version (an EasyR1-style fork keeps verl/ without a version
    # file): verl/trainer/main_ppo.py in the project (the registration's copy marker) is the code the launch may
    # run, so the value is a warning naming that copy, not a refusal.
    project = tmp_path / "project"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "verl" / "copy_below_run_dir", project)
    (project / ".git").mkdir()
    shutil.rmtree(project / "verl_copy")
    (project / "verl" / "trainer").mkdir(parents=True)
    (project / "verl" / "trainer" / "main_ppo.py").write_text("# the project's copy\n")
    script = project / "scripts" / "run.sh"
    script.write_text(
        script.read_text().replace(
            "trainer.total_epochs=1", "trainer.total_epochs=1 actor_rollout_ref.actor.shuffle=often"
        )
    )
    warning = next(n for n in api.explain(str(script)).notes if n.code == "keys.invalid-type")
    assert "actor_rollout_ref.actor.shuffle" in warning.message and "the project's" in warning.message


def test_a_copy_in_a_src_layout_states_its_release(tmp_path) -> None:
    # A project installed with `pip install -e .` from a src layout imports src/verl wherever its script runs
    # (scripts/train here): the copy's verl/version/version names the release it is.
    from translator.sources.project import evidence

    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "verl" / "version").mkdir(parents=True)
    (tmp_path / "src" / "verl" / "version" / "version").write_text("0.4.1\n")
    (tmp_path / "scripts" / "train").mkdir(parents=True)
    copies = (("verl", "verl/version/version", None),)
    found = [(e.package, e.version, e.kind) for e in evidence(str(tmp_path / "scripts" / "train"), copies)]
    assert found == [("verl", "0.4.1", "copy")]


def test_a_reading_as_another_release_compares_with_no_release_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # A project whose statements leave several releases (candidates) is read again as each of them to compare
    # plans; that reading, even when the project leaves the same candidates, must not compare again (it recursed
    # without end, which bash users saw as "input nested too deeply", exit 2, on a valid launch)
    import translator

    dialect = get("verl")
    read = type(dialect).read

    def read_with_candidates(self, source, options):  # type: ignore[no-untyped-def]
        reading = read(self, source, options)
        reading.candidates = ("0.8.0", "0.9.1")
        return reading

    monkeypatch.setattr(type(dialect), "read", read_with_candidates)
    script = Path(__file__).resolve().parent.parent / "fixtures" / "verl" / "v07_run_parts.sh"
    explanation = translator.explain(str(script))
    assert explanation.certainty["prompts_per_step"].level in ("read", "assumed")
    assert explanation.reread is not None and explanation.reread("0.8.0").reread is None
