"""The text filters a launch script pipes a known value through (textfilter.run_filters). Each expected output is
what GNU sed 4.9 / coreutils 9 print for the same input, worked out by hand from POSIX's rules (leftmost-longest
matches, BRE vs ERE operators); each None is a construct rlconf does not imitate and so leaves unknown."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from translator.sources.textfilter import MAX_TEXT, run_filters


@pytest.mark.parametrize(
    ("command", "text", "expected"),
    [
        # ERE alternation anchored at the end: the wrapper's suffix cut (either alternative reaches the `$`)
        (["sed", "-E", "s/-tq_(simple|mooncake)$//"], "grpo-a-tq_mooncake", "grpo-a"),
        (["sed", "-E", "s/-tq_(simple|mooncake)$//"], "grpo-a-tq_simple-x", "grpo-a-tq_simple-x"),
        # BRE: `.*` runs to the last slash (the longest match), the escaped delimiter is a slash
        (["sed", "s/.*\\///"], "org/sub/model", "model"),
        # BRE groups are \( \); ( is a literal; \2 and \1 swap the groups
        (["sed", "s/\\(.*\\)-\\([0-9]*\\)B/\\2:\\1/"], "qwen-7B", "7:qwen"),
        (["sed", "s/(a)/b/"], "x(a)", "xb"),
        # & is the whole match; g replaces every one
        (["sed", "s/[0-9][0-9]*/<&>/g"], "a1b22", "a<1>b<22>"),
        # POSIX takes the longest match at the leftmost start: a*(ab)? covers all of "aab" (Python's would be "aa")
        (["sed", "-E", "s/a*(ab)?/X/"], "aab", "X"),
        # an empty match right after a replaced one is skipped, as GNU sed does: -a-b-d-
        (["sed", "s/x*/-/g"], "abxd", "-a-b-d-"),
        # the 2nd occurrence only; case-insensitive with I
        (["sed", "s/a/b/2"], "aaa", "aba"),
        (["sed", "s/QWEN/q/I"], "Qwen-7B", "q-7B"),
        # POSIX classes and the GNU BRE \+
        (["sed", "s/[[:digit:]]\\+//g"], "a12b3", "ab"),
        # several commands: with -e each, or ; between them, applied in order
        (["sed", "-e", "s/a/b/", "-e", "s/b/c/"], "a", "c"),
        (["sed", "s/a/b/;s/c/d/"], "ac", "bd"),
        (["sed", "s#a\\#b#x#"], "a#b", "x"),
        # cut: fields by a one-character delimiter; a line without it is printed whole
        (["cut", "-d/", "-f2"], "org/model", "model"),
        (["cut", "-d", "/", "-f", "2-"], "a/b/c", "b/c"),
        (["cut", "-d/", "-f2"], "model", "model"),
        # tr: upper to lower, one character to another, deletion
        (["tr", "[:upper:]", "[:lower:]"], "Qwen2.5-7B", "qwen2.5-7b"),
        (["tr", "/", "_"], "org/model", "org_model"),
        (["tr", "-d", "-"], "a-b-c", "abc"),
    ],
)
def test_a_filter_computes_what_gnu_prints(command: list[str], text: str, expected: str) -> None:
    assert run_filters([command], text) == expected


@pytest.mark.parametrize(
    "command",
    [
        ["sed", "-E", "s/(a*)*b/x/"],  # a repeated group that repeats: backtracking without bound
        ["sed", "s/\\(a\\)\\1/x/"],  # a back-reference in the pattern
        ["sed", "s/a/\\U&/"],  # GNU case conversion
        ["sed", "s/a/b/p"],  # p prints the line twice
        ["sed", "-n", "s/a/b/p"],
        ["sed", "-E", "s/a$|b/x/"],  # a `$` before the end
        ["sed", "-E", "s/b|a$/x/"],  # an alternative that need not reach the `$`
        ["sed", "y/ab/cd/"],
        ["sed", "s/a/\\2/"],  # no such group: sed refuses the script
        ["awk", "{print $1}"],
        ["tr", "-s", "a"],
    ],
)
def test_what_is_not_imitated_stays_unknown(command: list[str]) -> None:
    assert run_filters([command], "aab") is None


def test_filters_chain_and_input_is_bounded() -> None:
    # org/Qwen-7B: the name after the slash, lower-cased: qwen-7b
    assert run_filters([["sed", "s/.*\\///"], ["tr", "A-Z", "a-z"]], "org/Qwen-7B") == "qwen-7b"
    assert run_filters([["sed", "s/a/b/"]], "a" * (MAX_TEXT + 1)) is None


def _gnu_sed() -> bool:
    import shutil
    import subprocess

    if shutil.which("sed") is None:
        return False
    return "GNU sed" in subprocess.run(["sed", "--version"], capture_output=True, text=True).stdout


_ATOMS = ["a", "b", ".", "[ab]", "[^a]", "(a|ab)", "(b)", "-", "(", "|"]


def _spelled(atom: str, extended: bool) -> str:
    """An atom in ERE, or its BRE spelling: the operators ( ) | + ? backslashed, the plain ( and | literal."""
    if extended:
        return {"(": "\\(", "|": "\\|"}.get(atom, atom)
    return atom if atom in ("(", "|") else "".join("\\" + c if c in "()|+?" else c for c in atom)


@pytest.mark.skipif(not _gnu_sed(), reason="needs GNU sed to compare with")
@settings(max_examples=400, deadline=None)
@given(
    atoms=st.lists(st.tuples(st.sampled_from(_ATOMS), st.sampled_from(["", "*", "+", "?"])), min_size=1, max_size=4),
    anchors=st.tuples(st.booleans(), st.booleans()),
    extended=st.booleans(),
    flags=st.sampled_from(["", "g", "2"]),
    replacement=st.sampled_from(["X", "<&>", "[\\1]", ""]),
    text=st.text(alphabet="ab-(|", max_size=8),
)
def test_substitutions_print_what_gnu_sed_prints(
    atoms: list[tuple[str, str]], anchors: tuple[bool, bool], extended: bool, flags: str, replacement: str, text: str
) -> None:
    # the oracle is GNU sed itself, run on the same line: every output rlconf computes must be sed's
    import subprocess

    body = "".join(_spelled(a, extended) + _spelled(q, extended) for a, q in atoms)
    pattern = ("^" if anchors[0] else "") + body + ("$" if anchors[1] else "")
    command = ["sed", *(["-E"] if extended else []), f"s/{pattern}/{replacement}/{flags}"]
    ours = run_filters([command], text)
    if ours is None:
        return
    printed = subprocess.run(command, input=text + "\n", capture_output=True, text=True)
    assert printed.returncode == 0 and ours == printed.stdout.rstrip("\n")
