"""What a command loads (start-up, README "Speed"): an explain of a verl script imports verl's modules and the
core's, never another framework's reader, the YAML parser or jsonschema; and the lazily compiled patterns
(translator/patterns.py) behave as compiled ones. Which modules load is behaviour; how long it takes is measured
by bench/bench.py, not here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from translator.dialects import registry
from translator.patterns import lazy
from translator.sources.project import _PATH_WORD

ROOT = Path(__file__).resolve().parent.parent
VERL_SCRIPT = ROOT / "fixtures" / "verl" / "v09_fetch_granularity_sp2.sh"

# The command run as `rlconf` runs it, in a fresh interpreter; the modules it loaded are printed on stderr.
_RUN = """
import json, sys
sys.argv = ["rlconf", *sys.argv[1:]]
from translator.cli import main
try:
    main(prog_name="rlconf")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _loaded(*args: str) -> set[str]:
    result = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(json.loads(result.stderr.strip().splitlines()[-1]))


def test_an_explain_of_a_verl_script_loads_verl_alone() -> None:
    loaded = _loaded("explain", str(VERL_SCRIPT))
    assert "translator.frameworks.verl.dialect" in loaded  # the command did read the script
    # Every registration is listed (data only), but no other framework's reader, tables, checks or rules.
    others = {f.name for f in registry.registered()} - {"verl", "rlconf"}
    package = {f.name: f.dialect.rpartition(".")[0] for f in registry.registered()}
    foreign = sorted(m for m in loaded for name in others if m.startswith(package[name] + "."))
    assert foreign == []
    # A launch script needs no YAML parser; jsonschema only words a rejected value; plan files, the writers'
    # read-back comparison and many-file runs are other commands'.
    for module in ("yaml", "jsonschema", "translator.dialects.rlconf", "translator.compare", "translator.many"):
        assert module not in loaded, module


def test_a_lazy_pattern_compiles_on_first_use_and_matches_as_re_does() -> None:
    text = r"(?P<word>[a-z]+)-(\d+)"
    pattern, compiled = lazy(text, re.IGNORECASE), re.compile(text, re.IGNORECASE)
    assert "search" not in vars(pattern)  # nothing compiled yet
    found = pattern.search("see AB-12 and cd-3")
    assert found is not None and found.group("word", 2) == ("AB", "12")  # ignoring case, as asked
    assert "search" in vars(pattern)  # the compiled pattern's own methods from now on
    assert pattern.findall("ab-1 cd-2") == compiled.findall("ab-1 cd-2") == [("ab", "1"), ("cd", "2")]
    assert pattern.sub(r"\2", "x-7 y-8") == "7 8" and pattern.fullmatch("ab-") is None
    assert (pattern.pattern, pattern.groups, pattern.groupindex) == (text, 2, {"word": 1})


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab_1é.-/ \n\"'$", max_size=40))
def test_the_anchored_path_pattern_finds_what_the_plain_one_finds(text: str) -> None:
    # The plain pattern rescans a word from each of its characters; anchored at a word's start it finds the same
    # paths: a match starting inside a word would have started at the word's first character instead.
    plain = re.compile(r"[\w.-]*(?:/[\w.-]+)+")
    assert _PATH_WORD.findall(text) == plain.findall(text)


def test_the_path_pattern_finds_a_scripts_paths() -> None:
    # '"' and '=' are no path characters: a path starts after them; 'a//b' holds no path from 'a' (a slash must be
    # followed by a path character), and '/b' starts after the second slash.
    text = 'cd src/r1-v && python -m x "<path>"/verl_copy /src/pkg/train.py data.dir=a/b. ./run.sh a//b'
    found = ["src/r1-v", "/verl_copy", "/src/pkg/train.py", "a/b.", "./run.sh", "/b"]
    assert _PATH_WORD.findall(text) == found
