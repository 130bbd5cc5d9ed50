"""Hostile input: every outcome is a result or a ConfigError, never another exception (seeded, bounded)."""

from __future__ import annotations

import string

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import translator
from translator import dialects
from translator.sources.files import Source

FUZZ = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
FRAMEWORKS = [None, *dialects.names()]

KEYS = st.sampled_from(
    [
        "data.train_batch_size",
        "actor_rollout_ref.rollout.n",
        "actor_rollout_ref.actor.ppo_mini_batch_size",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
        "trainer.n_gpus_per_node",
        "per_device_train_batch_size",
        "num_generations",
        "gradient_accumulation_steps",
        "steps_per_generation",
        "num_iterations",
        "max_steps",
        "data.rollout_batch_size",
        "worker.actor.global_batch_size",
        "worker.rollout.n",
        "beta",
        "learning_rate",
        "algorithm.adv_estimator",
        "plan",
        "defaults",
        "hydra",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.just("1e-6"),
    st.just("${oc.env:HOME}"),
    st.just("???"),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def outcome(text: str, name: str, framework: str | None) -> None:
    try:
        explanation = translator.load(Source(text, name), framework=framework, num_processes=4)
    except translator.ConfigError as error:
        assert str(error)
        return
    explanation.to_dict()
    try:
        translator.translate(explanation, to="verl")
        translator.check(explanation)
    except translator.ConfigError:
        pass


@FUZZ
@given(st.dictionaries(KEYS, VALUES, max_size=8), st.sampled_from(FRAMEWORKS))
def test_random_yaml_documents(document: dict, framework: str | None) -> None:
    try:
        text = yaml.safe_dump(document)
    except (yaml.YAMLError, ValueError):
        return
    outcome(text, "config.yaml", framework)


LAUNCHERS = st.sampled_from(
    [
        "python3 -m verl.trainer.main_ppo",
        "python3 -m verl.trainer.main config=x.yaml",
        "accelerate launch --num_processes 4 src/open_r1/grpo.py",
        "python3 -m openrlhf.cli.train_ppo_ray",
        "python open_instruct/grpo_fast.py",
        "",
    ]
)
WORDS = st.one_of(
    st.builds(lambda k, v: f"{k}={v}", KEYS, st.text(string.printable, max_size=12)),
    st.builds(lambda k, v: f"--{k} {v}", KEYS, st.text(string.printable, max_size=12)),
    st.sampled_from(
        [
            "$X",
            "${X:-3}",
            "$((2*${N:-4}))",
            "$(rm -rf /)",
            "`id`",
            "'",
            '"',
            "\\",
            "${",
            "$((",
            "<<EOF",
            "| tee log",
            "&&",
            ";",
            "if",
            "fi",
            "for",
            "done",
            "case",
            "esac",
            "{",
            "}",
            "((",
            "#",
        ]
    ),
    st.text(max_size=15),
)


@FUZZ
@given(LAUNCHERS, st.lists(WORDS, max_size=12), st.sampled_from(FRAMEWORKS))
def test_random_shell_text(launcher: str, words: list[str], framework: str | None) -> None:
    outcome(launcher + " " + " \\\n  ".join(words) + "\n", "run.sh", framework)


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(["x.sh", "x.yaml", "x.toml", "x.json"]))
def test_random_bytes(data: bytes, name: str) -> None:
    outcome(data.decode("utf-8", errors="replace"), name, None)


@FUZZ
@given(st.text(max_size=400), st.sampled_from(["x.sh", "x.yaml", "x.toml", "x.json"]))
def test_random_unicode_text(text: str, name: str) -> None:
    outcome(text, name, None)


def test_deep_nesting() -> None:
    deep = "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 400)) + "  " * 400 + "v: 1\n"
    outcome(deep, "deep.yaml", "verl")
    outcome("[" * 5000 + "]" * 5000, "deep.yaml", None)
    outcome("python3 -m verl.trainer.main_ppo x=" + "[" * 3000 + "]" * 3000, "deep.sh", None)


def test_huge_numbers() -> None:
    outcome("python3 -m verl.trainer.main_ppo data.train_batch_size=" + "9" * 4000 + "\n", "run.sh", None)
    outcome("per_device_train_batch_size: 1e308\nnum_generations: 8\n", "recipe.yaml", "trl")
    outcome("python3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=$((" + "9" * 50 + "**9))\n", "run.sh", None)


def test_yaml_alias_bomb_is_refused() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 14):  # 13 levels × 9 aliases: 9**14 strings if expanded
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 9) + "]")
    bomb = "\n".join(lines) + "\nper_device_train_batch_size: 8\nnum_generations: 8\n"
    try:
        translator.load(Source(bomb, "bomb.yaml"), framework="trl", num_processes=8)
    except translator.ConfigError as error:
        assert "alias" in str(error) and error.line is not None
    else:
        raise AssertionError("an alias bomb must be refused")


def test_oversized_file_is_refused(tmp_path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("per_device_train_batch_size: 8\n" + "# padding\n" * 600_000)
    try:
        translator.load(big)
    except translator.ConfigError as error:
        assert "larger than" in str(error)
    else:
        raise AssertionError("an oversized file must be refused")


def test_command_substitution_is_never_run(tmp_path) -> None:
    marker = tmp_path / "ran"
    script = (
        f"EXP=$(touch {marker}; date +%s)\nSTAMP=`touch {marker}`\n"
        "python3 -m verl.trainer.main_ppo data.train_batch_size=64 trainer.experiment_name=run_$EXP "
        "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.actor.ppo_mini_batch_size=64 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1\n"
    )
    explanation = translator.load(Source(script, "run.sh"), framework="verl@0.9.1")
    assert not marker.exists()
    assert "shell.command-substitution" in {n.code for n in explanation.notes}
    assert explanation.spec.logging.run_name.startswith("run_$(touch")


def test_absurd_counts_found_by_the_mutation_run() -> None:
    """A 400-digit world size translated to EasyR1 (its rules took float() of it) and a 400-digit Open-Instruct
    save_freq (float infinity): a result or a ConfigError, never an internal error (scripts/mutate.py, seed 0)."""
    from translator.checks.findings import as_int

    assert as_int(10**400) == 10**400 and as_int("1e400") is None
    outcome(
        "python open_instruct/grpo_fast.py --num_unique_prompts_rollout 8 --num_samples_per_prompt_rollout 4 "
        f"--save_freq {'9' * 400}\n",
        "run.sh",
        None,
    )
    outcome(
        "accelerate launch --num_processes " + "9" * 400 + " src/open_r1/grpo.py --num_generations 2 "
        "--per_device_train_batch_size 2\n",
        "run.sh",
        None,
    )
    outcome(
        "python open_instruct/grpo_fast.py --num_unique_prompts_rollout 8 --num_samples_per_prompt_rollout 4 "
        "--checkpoint_state_dir /c --checkpoint_state_freq -inf\n",
        "run.sh",
        None,
    )
