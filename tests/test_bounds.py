"""Reading is bounded: hostile inputs (alias bombs, doubled shell values, huge counts, endless files) end in one
clear ConfigError (exit 2), and where a right answer exists it is still computed, by arithmetic instead of a search
over a count as large as the value. No timings here: bench/bench_reading.py measures the speed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.test_cli import assert_input_error
from translator import api
from translator.checks import findings
from translator.errors import ConfigError
from translator.frameworks.open_instruct.checks import multiples_dividing
from translator.notes import NoteList
from translator.sources import files, yamlfile
from translator.sources.files import load_yaml, refuse_alias_bomb
from translator.sources.shell import parse_shell

VERL = FIXTURES / "verl" / "grpo_fixed_micro_tp2.sh"
GTRL = FIXTURES / "open-instruct" / "olmo2_1b_grpo_gtrl.sh"


# ---------------------------------------------------------------- 6. YAML: expanded size, not alias count
def alias_bomb(levels: int, mapping: bool = False) -> str:
    """Level 0 is a list of ten scalars; each next level holds ten aliases of the one before: 10**(k+1) scalars."""
    lines = ["data:", "  train_batch_size: 128", "x0: &a0 [" + ", ".join(["v"] * 10) + "]"]
    for k in range(1, levels):
        items = [f"k{j}: *a{k - 1}" for j in range(10)] if mapping else [f"*a{k - 1}"] * 10
        lines.append(f"x{k}: &a{k} " + ("{" if mapping else "[") + ", ".join(items) + ("}" if mapping else "]"))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("mapping", [False, True])
def test_an_alias_bomb_is_refused_by_its_expanded_size(tmp_path: Path, mapping: bool) -> None:
    # 8 levels: 79 aliases, 10**8 scalars expanded. Level 5 (line 8, x5) is the first past 1,000,000: its ten
    # aliases of level 4 (each 10**5 scalars and 1 + 10 + ... list nodes) pass it at the tenth.
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(8, mapping))
    err = assert_input_error(["explain", path, "--from", "verl"], "alias bomb", "1,000,000")
    assert "bomb.yaml:8:" in err


def test_many_aliases_of_small_nodes_still_load() -> None:
    # 150 aliases (more than the old limit of 100) of a 3-item list: 150 × 4 nodes, far under the limit.
    text = "base: &b [1, 2, 3]\n" + "".join(f"k{i}: *b\n" for i in range(150))
    data = load_yaml(text, "many.yaml")
    assert len(data) == 151 and data["k149"] == [1, 2, 3]


def test_the_expanded_size_is_counted_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    # root mapping 1 + key a 1 + list 1 + 3 scalars = 6; key b 1 + the alias of the list (4 nodes) = 11.
    text = "a: &x [1, 2, 3]\nb: *x\n"
    monkeypatch.setattr(yamlfile, "MAX_YAML_NODES", 11)
    refuse_alias_bomb(text, "t.yaml")  # exactly at the limit: accepted
    monkeypatch.setattr(yamlfile, "MAX_YAML_NODES", 10)
    with pytest.raises(ConfigError) as caught:
        refuse_alias_bomb(text, "t.yaml")
    assert caught.value.line == 2  # the alias *x makes it 11


# ---------------------------------------------------------------- 7. shell values and arrays
def test_a_doubled_shell_value_is_refused_at_its_line() -> None:
    # X starts at 10 characters; line k+1 makes it 10 × 2**k. A value costs its characters plus its 2 pieces:
    # line 17 (k = 16) gives 655,362 ≤ 1,000,000, line 18 (k = 17) 1,310,722 > 1,000,000.
    script = "X=abcdefghij\n" + "X=$X$X\n" * 39 + "echo $X\n"
    with pytest.raises(ConfigError) as caught:
        parse_shell(script, source="double.sh")
    assert (caught.value.file, caught.value.line) == ("double.sh", 18)
    assert "1,000,000 characters" in str(caught.value)


def test_a_doubled_array_is_refused_at_its_line() -> None:
    # 8 elements; line k+1 makes 8 × 2**k: line 14 (k = 13) 65,536 ≤ 100,000, line 15 (k = 14) 131,072 > 100,000.
    script = "A=(a b c d e f g h)\n" + 'A=("${A[@]}" "${A[@]}")\n' * 39
    with pytest.raises(ConfigError) as caught:
        parse_shell(script, source="array.sh")
    assert caught.value.line == 15 and "array A grows past 100,000 elements" in str(caught.value)


def test_a_long_value_used_again_and_again_is_refused(tmp_path: Path) -> None:
    # X reaches 655,360 characters at line 17 (as above); line 18 uses it 100 times: about 74 uses pass the
    # 50,000,000-character budget of the whole script.
    path = tmp_path / "reuse.sh"
    path.write_text("X=abcdefghij\n" + "X=$X$X\n" * 16 + "echo" + " $X" * 100 + "\n")
    err = assert_input_error(["explain", path, "--from", "verl"], "50,000,000 characters")
    assert "reuse.sh:18:" in err


def test_values_under_the_limits_are_read_as_before() -> None:
    # 16 doublings: 10 × 2**16 = 655,360 characters; 12 array doublings: 8 × 2**12 = 32,768 elements.
    script = "X=abcdefghij\n" + "X=$X$X\n" * 16 + "A=(a b c d e f g h)\n" + 'A=("${A[@]}" "${A[@]}")\n' * 12
    variables = parse_shell(script).variables
    assert len(variables["X"]) == 655_360 and len(variables["A"].split()) == 32_768


# ---------------------------------------------------------------- 8. huge counts: arithmetic, not a search
def test_divisors_are_complete_up_to_ten_billion() -> None:
    # 10**9 = 2**9 × 5**9: (9 + 1) × (9 + 1) = 100 divisors, from 1 to 10**9.
    whole = findings.divisors(10**9)
    assert len(whole) == 100 and whole[:4] == [1, 2, 4, 5] and whole[-1] == 10**9
    assert findings.divisors(0) == []


def test_divisors_of_a_huge_number_are_bounded() -> None:
    # 2**53 is past 10**10: the divisors up to 100,000 (2**0 .. 2**16) and their cofactors (2**53 .. 2**37).
    assert findings.divisors(2**53) == [2**k for k in range(17)] + [2**k for k in range(37, 54)]


def test_largest_divisor_and_multiples() -> None:
    assert findings.largest_divisor(128, 100) == 64  # 128's divisors are powers of two
    assert findings.largest_divisor(128, 10**9) == 128
    # multiples of 3 dividing 48 = 3 × 16: 3 × (1, 2, 4, 8, 16); none of 5 (5 does not divide 48)
    assert multiples_dividing(3, 48) == [3, 6, 12, 24, 48]
    assert multiples_dividing(5, 48) == []


@pytest.mark.parametrize(("micro", "written"), [(10**9, 128), (100, 64)])
def test_verl_micro_batch_is_the_largest_divisor_not_a_count_down(micro: int, written: int) -> None:
    # The fixture: 128 prompts per mini-batch × n 8 = 1024 samples over 8 data-parallel ranks = 128 per rank. verl
    # needs a micro-batch dividing 128: the largest ≤ 10**9 is 128, the largest ≤ 100 is 64.
    text = VERL.read_text().replace("ppo_micro_batch_size_per_gpu=16", f"ppo_micro_batch_size_per_gpu={micro}")
    translation = api.translate(text, "verl", "verl@0.7.1", {"HOME": "/home/me"})
    assert f"ppo_micro_batch_size_per_gpu={written} " in translation.files["launch.sh"].replace("\\\n", " ")
    assert any(note.code == "batch.micro-changed" for note in translation.notes)


def test_gtrl_check_on_a_huge_rollout_suggests_by_divisors() -> None:
    # local_mini_batch_size 32 is not a multiple of micro 3. Fixes: the divisor of 32 nearest 3 (2 and 4 tie; the
    # larger first) = 4; or a multiple of 3 dividing 3×10**8 prompts × 16 = 3 × 2**12 × 5**8 samples nearest 32:
    # 3 × d for d dividing 2**12 × 5**8, and d = 10 gives 30 (11 and 12 are not such divisors).
    text = (
        GTRL.read_text()
        .replace("--local_rollout_batch_size 4", "--local_rollout_batch_size 300000000")
        .replace("--per_device_train_batch_size 1", "--per_device_train_batch_size 3")
    )
    report = api.check(text)
    finding = next(f for f in report.errors if f.rule == "open-instruct.gtrl-mini-batch-divisible")
    assert [s.changes for s in finding.suggestions] == [
        {"per_device_train_batch_size": 4},
        {"local_mini_batch_size": 30},
    ]


def test_a_cluster_beyond_any_real_one_is_refused(tmp_path: Path) -> None:
    # 10**9 nodes × 8 GPUs: writers would list one entry per node and device; refused at reading.
    path = tmp_path / "nodes.sh"
    path.write_text(VERL.read_text().replace("trainer.nnodes=1", "trainer.nnodes=1000000000"))
    assert_input_error(["translate", path, "--to", "open-instruct", *["--env", "HOME=/h"]], "beyond any real cluster")


# ---------------------------------------------------------------- 11. notes in constant time
def test_notes_are_deduplicated_by_code_and_message() -> None:
    notes = NoteList()
    notes.info("a", "one")
    notes.warning("a", "one")  # same code and message: not added again
    notes.info("a", "two")
    notes.append(notes[0])  # a plain list append is honoured by the next add
    notes.info("b", "one")
    notes.info("a", "two")
    assert [(n.code, n.message) for n in notes] == [("a", "one"), ("a", "two"), ("a", "one"), ("b", "one")]


def test_many_decided_conditions_are_read() -> None:
    # X=1 makes every condition true, so each branch is read and Y ends as the last one's value.
    script = "X=1\n" + "".join(f'if [ "$X" = 1 ]; then Y={i}; fi\n' for i in range(5000))
    assert parse_shell(script).variables["Y"] == "4999"


# ---------------------------------------------------------------- 12. huge integers in the checks
def test_a_huge_integer_in_yaml_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(
        (FIXTURES / "verl" / "grpo_hydra_config.yaml")
        .read_text()
        .replace("  train_batch_size: 128\n", "  train_batch_size: 128\n  gen_batch_size: 1" + "0" * 400 + "\n")
    )
    assert_input_error(["check", path], "data.gen_batch_size is larger than any real run")


def test_the_checks_read_huge_integers_exactly() -> None:
    from translator.frameworks.open_instruct import checks as open_instruct
    from translator.frameworks.openrlhf import checks as openrlhf
    from translator.frameworks.verl import checks as verl

    for number in (verl._number, openrlhf._number, open_instruct._number):
        assert number(10**400) == 10**400  # float() would raise OverflowError


# ---------------------------------------------------------------- regular files, read to the limit only
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.sh"
    os.mkfifo(fifo)  # nothing ever writes to it: reading it would block
    assert_input_error(["explain", fifo], "not a regular file")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_not_read() -> None:
    assert_input_error(["explain", "/dev/zero"], "not a regular file")


def test_a_file_past_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.sh"
    path.write_text("#" * (files.MAX_INPUT_BYTES + 1))
    assert_input_error(["explain", path], "larger than 5 MB")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_standard_input_is_read_only_to_the_limit() -> None:
    import subprocess

    with open("/dev/zero", "rb") as zero:
        result = subprocess.run(
            [sys.executable, "-m", "translator", "explain", "-"],
            stdin=zero,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": os.getcwd()},
            check=False,
        )
    assert result.returncode == 2 and "standard input is larger than 5 MB" in result.stderr


def test_a_fifo_among_a_projects_files_is_never_opened(tmp_path: Path) -> None:
    # The version evidence reads a project's requirements, setup.py, Dockerfiles...: a FIFO named like one would block
    # a plain open() forever; it is skipped (no evidence), and the script is read as if it were not there.
    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / "requirements.txt")
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main_ppo data.train_batch_size=8 actor_rollout_ref.rollout.n=2 \\\n"
        "  actor_rollout_ref.rollout.name=vllm\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "translator", "explain", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )  # a hang would fail here, not stall CI
    assert done.returncode == 0, done.stderr
    assert "8 prompts per step" in done.stdout
