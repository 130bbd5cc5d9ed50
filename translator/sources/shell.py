"""Static reading of bash launch scripts: commands, variables and notes, without executing anything.

The script is read top to bottom once. Variables are tracked as bash would on the straight-line path;
control flow is not evaluated (every branch is read in order) and command substitutions are never run.
"""

from __future__ import annotations

import ast
import bisect
import fnmatch
import itertools
import operator
import posixpath
import re
import shlex
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import field, replace
from typing import Any, Protocol

from translator.errors import ConfigError
from translator.records import record
from translator.sources.textfilter import run_filters

# A comment asking the user to supply a value left empty: "Provide your wandb key here", "fill in", "set this", "TODO"
_FILL_IN = re.compile(
    r"\b(?:your|provide|fill(?:ed)?\s+in|replace|insert|paste|enter|todo|set\s+(?:it|this|them)|set\s+\S+\s+here)\b",
    re.IGNORECASE,
)
_SECRET_NAME = re.compile(r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD)$", re.IGNORECASE)
SYMBOLIC = re.compile(r"\$\{([A-Za-z_]\w*|\d+)\}|\$\(\((.*?)\)\)|\$\((?!\()[^)]*\)|`[^`]*`")


def symbol(name: str) -> str:
    """How a variable with no value known statically appears inside a word: ``${NAME}``, literally."""
    return "${" + name + "}"


_BARE_REFERENCE = re.compile(r"\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\})")
_QUOTED_REFERENCE = re.compile(r'"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"')
# What every login shell has set (bash(1), login(1)): a reference to one never vanishes, its value is only unknown
_ALWAYS_SET = frozenset(("HOME", "USER", "LOGNAME", "PATH", "PWD", "SHELL", "HOSTNAME"))
# What Slurm sets in every batch job (sbatch(1) and srun(1), "OUTPUT ENVIRONMENT VARIABLES"), in a script with
# #SBATCH directives: the batch step is task 0 on the first node, so SLURM_PROCID and SLURMD_NODENAME are set there too
_SLURM_JOB_SET = frozenset(
    (
        *("SLURM_JOB_ID", "SLURM_JOBID", "SLURM_JOB_NAME", "SLURM_JOB_NODELIST", "SLURM_NODELIST"),
        *("SLURM_SUBMIT_DIR", "SLURM_SUBMIT_HOST", "SLURM_CPUS_ON_NODE", "SLURM_NODEID", "SLURM_PROCID"),
        *("SLURM_LOCALID", "SLURMD_NODENAME", "SLURM_CLUSTER_NAME", "SLURM_JOB_PARTITION", "SLURM_TASK_PID"),
    )
)


def symbolic_names(text: str) -> list[str]:
    """The unknowns a word depends on: ``NAME`` for each ``${NAME}`` and the text of each ``$(...)``/backtick
    substitution (never run). Empty for a fully known word. A word from the shell reader is symbolic exactly
    when this is non-empty."""
    names: list[str] = []
    for m in SYMBOLIC.finditer(text):
        if m.group(2) is not None:  # arithmetic kept as text: it names variables with no value
            names += re.findall(r"[A-Za-z_]\w*", m.group(2)) or [m.group(0)]
        else:
            names.append(m.group(1) or m.group(0))
    return list(dict.fromkeys(names))


@record
class ShellCommand:
    """One simple command after expansion and quote removal."""

    argv: list[str]
    line: int
    assignments: dict[str, str] = field(default_factory=dict)
    unresolved: list[str] = field(default_factory=list)  # unset variables its words keep as ${NAME}
    background: bool = False
    cwd: str | None = None  # the directory earlier `cd` commands moved to (relative to where the script runs)
    # argv positions of words that are an unquoted reference to an unset variable alone ($NAME, ${NAME}): bash drops
    # such a word entirely when the variable is unset or empty, shifting the words after it
    vanishing: list[int] = field(default_factory=list)
    # CUDA_VISIBLE_DEVICES as the command sees it, when the script (or --env) fixes it: None when unset (the
    # machine's GPUs), built from unknowns, or only a default the environment may override (X=${X:-d})
    visible_devices: str | None = None
    # the GPUs a Slurm batch job's allocation gives each node (#SBATCH --gres=gpu:N), when the script states it
    allocated_gpus: int | None = None


@record
class ShellNote:
    """Something the static reading could not do exactly as bash would."""

    line: int
    code: str
    message: str


@record
class _Case:
    """An open ``case``: its word's value when known (the patterns then decide the branch read), the variables the
    word reads and its line (what an undecided one's outcome depends on), whether a pattern comes next, and whether
    a branch was opened (the first pattern opens the chain like an ``if``, the others like ``elif``)."""

    subject: str | None
    names: list[str]
    line: int
    expects_pattern: bool = True
    opened: bool = False


@record
class _Rounds:
    """A loop read once per item: ``for X in a b c``, or ``while read -r X; do ... done < FILE`` once per line of a
    project file. Bash leaves what the rounds set in the variables; of the commands, the first round's are read (a
    loop launching one run per item launches the first as rlconf reads it)."""

    start: int  # the token index its body starts at
    name: str
    items: list[str]
    index: int = 0  # the item the round being read has
    first_commands: int = -1  # len(commands) after the first round: later rounds' commands are dropped


@record
class _Capture:
    """A function run for its output (``$(NAME ARGS)``): the lines it has printed so far; whether it has
    returned; whether something it did leaves its output unknown (another command, an undecided branch, a loop)."""

    branches: int  # the if-chains open when it was called: those it opens itself must be decided
    loops: int
    printed: list[str] = field(default_factory=list)
    returned: bool = False
    unknown: bool = False


@record
class _Branch:
    """An open if-chain: whether the branch being read is read, whether an earlier one was taken, and whether the
    chain's conditions could all be decided so far."""

    reading: bool
    taken: bool
    decidable: bool
    # An undecidable chain: the value before it of each variable a branch changes (None: unset; the frame keeps
    # only those, not a copy of every variable), the variables the branch being read changed, each finished
    # branch's values of the ones it changed, whether it has an else, its line and the variables its condition
    # reads (which of the outcomes holds depends on them).
    before: dict[str, str | None] | None = None
    changed: set[str] = field(default_factory=set)
    ends: list[dict[str, str | None]] = field(default_factory=list)
    has_else: bool = False
    line: int = 0
    kind: str = "if"  # the chain's statement: if, or case
    names: list[str] = field(default_factory=list)
    exits: bool = False  # the branch being read ends the script (`exit`): no way continues through it
    start: int = 0  # the line of the chain's `if` (or `case`)
    index: int = 0  # the branch being read: 0 for the `if`, 1 for the first `elif` or `else`, ...
    not_exiting: list[int] = field(default_factory=list)  # an undecidable chain: its branches that do not exit


class _Variables(dict[str, str]):
    """The script's variables, telling the open undecided if-chains which ones a branch changes."""

    def __init__(self, values: Mapping[str, str], frames: list[_Branch]) -> None:
        super().__init__(values)
        self.frames = frames

    def _changing(self, name: str) -> None:
        for frame in self.frames:
            if frame.before is not None:
                frame.before.setdefault(name, self.get(name))
                frame.changed.add(name)

    def __setitem__(self, name: str, value: str) -> None:
        self._changing(name)
        super().__setitem__(name, value)

    def pop(self, name: str, *default: Any) -> Any:
        if name in self:
            self._changing(name)
        return super().pop(name, *default)

    def restore(self, values: Mapping[str, str | None]) -> None:
        """Set the variables back, unseen by the chains (a branch starts from the values before its chain)."""
        for name, value in values.items():
            if value is None:
                super().pop(name, None)
            else:
                super().__setitem__(name, value)


@record
class ShellScript:
    """The result of reading a script."""

    commands: list[ShellCommand]
    variables: dict[str, str]
    notes: list[ShellNote]
    # the undecided chains that leave a variable unknown: the line of each → its ways (branch numbers, see BRANCH)
    chains: dict[int, list[int]] = field(default_factory=dict)
    # the marker an undecided chain leaves in a variable's value ("$(X set by the if at line 3)") → the value each
    # way through it gives (a marker of another chain inside one stands for that chain's ways)
    ways: dict[str, list[str]] = field(default_factory=dict)
    # names read as an array (``${NAME[@]}``, ``${NAME[*]}``) here or in a file it reads: bash cannot export an
    # array, so one of these the script (and every file it reads) never sets is empty, not the environment's
    array_references: set[str] = field(default_factory=set)
    not_followed: list[str] = field(default_factory=list)  # the scripts it sources or runs that were not read

    @property
    def followed_all(self) -> bool:
        """Every script it sources or runs was found and read."""
        return not self.not_followed


# An env key that chooses a way through an undecided chain: `@branch:12` = "1" reads only the first `elif` of the
# chain at line 12 (0: its `if`; one past its last branch: none runs). Not a shell name, so never a variable.
BRANCH = "@branch:"


@record
class _Tok:
    kind: str  # "word", "op" or "nl"
    text: str
    line: int
    # a here-document's delimiter word: its body (tabs stripped for <<-) and whether the delimiter was quoted
    heredoc: tuple[str, bool] | None = None


class _Unclosed(Exception):
    """A quote or $-construct that never closes; ``pos`` is where it opened."""

    def __init__(self, pos: int, kind: str) -> None:
        super().__init__(kind)
        self.pos, self.kind = pos, kind


_UNCLOSED = {
    "'": ("unterminated single quote", "close the quote opened on line {line}"),
    '"': ("unterminated double quote", "close the quote opened on line {line}"),
    "`": ("unterminated backtick command substitution", "add the closing ` for the one on line {line}"),
    "${": ("unterminated ${...} expansion", "add the missing '}' for the '${' on line {line}"),
    "$(": ("unterminated $(...) command substitution", "add the missing ')' for the '$(' on line {line}"),
    "$((": ("unterminated $((...)) arithmetic", "add the missing '))' for the '$((' on line {line}"),
    "(": ("unbalanced parenthesis", "add the missing ')' for the '(' on line {line}"),
}
_OPS = (
    ";;&",
    "&>>",
    "<<<",
    "<<-",
    ";;",
    ";&",
    "&&",
    "||",
    "|&",
    "&>",
    ">>",
    ">&",
    ">|",
    "<<",
    "<&",
    "<>",
    ";",
    "&",
    "|",
    "<",
    ">",
    "(",
    ")",
)
_OP_STARTS = frozenset(op[0] for op in _OPS)
_BLANKS = re.compile(r"[ \t\n]+")
_WORD_TEXT = re.compile(r"[^\\()'\"`$ \t\n;&|<>]+")  # characters of a word that need no look (see _Lexer._word)
_WORD_TEXT_TEST = re.compile(r"[^\\('\"`$ \t\n;]+")  # the same inside [[ ... ]]
_BARE = re.compile(r"[^\\$`'\"]+")  # a run of text no quote, backslash or expansion starts in
# <your_model_path>: a value left for the user to fill in, its '>' ending the line's words (bash would read two
# redirections, the second without a target, and stop)
_PLACEHOLDER = re.compile(r"(<[A-Za-z_][\w./:-]*>)(?=[ \t]*(?:\\\n|\n|;|#|$))")
_BARE_QUOTED = re.compile(r"[^\\$`]+")  # the same inside "..."
_MAX_NODE_GPUS = 1024  # GPUs of one node past any real machine: their device list is not written out
_ASSIGN = re.compile(r"([A-Za-z_]\w*)(\[[^\]]*\])?(\+?)=")
_NAME = re.compile(r"[A-Za-z_]\w*|[0-9@*#?$!-]")
_PARAM = re.compile(r"([A-Za-z_]\w*|\d+|[@*#?$!-])(\[[^\]]*\])?")
_PARAM_OP = re.compile(r":[-=+?]|[-=+?]|##|#|%%|%|//|/|\^\^|,,|:")
_DEFAULTED = re.compile(r'"?\$\{([A-Za-z_]\w*):?[-=]')  # X=${X:-d}: one pattern, not one compiled per name
_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([\w.-]+)\2")
_ARITH_OPS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
    ast.Div: operator.floordiv,
    ast.Mod: operator.mod,
}  # / and % are special-cased to bash's rounding
_DECLARE = {"export", "local", "declare", "typeset", "readonly"}
_OPENERS = {"if", "while", "until"}
_MAX_ARGUMENT_ROUNDS = 256  # rounds of an argument loop read (one per option, at most)
_MAX_LOOP_ROUNDS = 512  # rounds of for and while-read loops read in one script, all loops together
_READ_LINE = re.compile(r"(?:(IFS=) )?read( -r)? ([A-Za-z_]\w*)")  # while [IFS=] read [-r] NAME
_INT_TESTS: dict[str, Callable[[int, int], bool]] = {
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
}

_CLOSERS = {"then", "else", "elif", "do", "{", "}", "fi", "done", "!"}
_ANSI = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "e": "\x1b", "a": "\a", "0": "\0"}


def _end_of(s: str, i: int) -> int:
    """Index just past the quote, backtick or ``$(``/``${``/``$((``/``(`` group starting at ``s[i]``."""
    c, n = s[i], len(s)
    if c == "'":
        j = s.find("'", i + 1)
        if j < 0:
            raise _Unclosed(i, "'")
        return j + 1
    if c in '"`' or s.startswith("$'", i):
        j, close = (i + 2, "'") if c == "$" else (i + 1, c)
        while j < n:
            d = s[j]
            if d == "\\":
                j += 2
            elif d == close:
                return j + 1
            elif close == '"' and (d == "`" or (d == "$" and s[j + 1 : j + 2] in ("(", "{"))):
                j = _end_of(s, j)
            else:
                j += 1
        raise _Unclosed(i, "'" if c == "$" else c)
    start = i + 1 if c == "$" else i
    kind = "$((" if s.startswith("$((", i) else (c + s[start] if c == "$" else "(")
    opener = s[start]
    closer = "}" if opener == "{" else ")"
    depth, j = 0, start
    heredocs: list[tuple[str, bool]] = []  # a heredoc inside $(...) may hold unbalanced quotes
    while j < n:
        d = s[j]
        if d == "\\":
            j += 2
            continue
        if d == "<" and opener == "(" and (m := _HEREDOC.match(s, j)):
            heredocs.append((m.group(3), m.group(1) == "-"))
            j = m.end()
            continue
        if d == "\n" and heredocs:
            for delim, strip_tabs in heredocs:
                j, _ = _heredoc_end(s, j + 1, delim, strip_tabs)
            heredocs, j = [], j - 1
            continue
        if d == "#" and opener == "(" and kind != "$((" and (j == start + 1 or s[j - 1] in " \t\n;(|&"):
            j = s.find("\n", j)  # a comment inside ( ... ) (an array's lines, a subshell): quotes in it are text
            if j < 0:
                break
            continue
        if d in "'\"`" or (d == "$" and s[j + 1 : j + 2] in ("(", "{", "'")):
            j = _end_of(s, j)
            continue
        if d == opener:
            depth += 1
        elif d == closer:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise _Unclosed(i, kind)


def _heredoc_end(s: str, i: int, delim: str, strip_tabs: bool) -> tuple[int, bool]:
    """Skip a here-document body starting at ``s[i]``: (index past its delimiter line, whether found)."""
    while i < len(s):
        j = s.find("\n", i)
        j = len(s) if j < 0 else j
        line, i = s[i:j], j + 1
        if (line.lstrip("\t") if strip_tabs else line) == delim:
            return i, True
    return len(s), False


class _Lexer:
    """Splits script text into words (raw, quotes kept), operators and newlines; skips heredoc bodies."""

    def __init__(self, text: str, source: str, notes: list[ShellNote]) -> None:
        self.s, self.source, self.notes = text, source, notes
        self.nl_pos = []
        k = text.find("\n")
        while k >= 0:
            self.nl_pos.append(k)
            k = text.find("\n", k + 1)

    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self.nl_pos, pos) + 1

    def end(self, i: int) -> int:
        try:
            return _end_of(self.s, i)
        except _Unclosed as e:
            line = self.line_at(e.pos)
            message, hint = _UNCLOSED[e.kind]
            raise ConfigError(
                f"{message} (opened on line {line}, still open at end of file)",
                file=self.source,
                line=line,
                hint=hint.replace("{line}", str(line)),
            ) from None

    def tokens(self) -> list[_Tok]:
        s, n, i = self.s, len(self.s), 0
        toks: list[_Tok] = []
        pending: list[tuple[str, bool, int]] = []  # heredocs whose bodies start after the next newline (delimiter
        # word, <<-, its token's index)
        want_delim: str | None = None
        dbracket = False  # inside [[ ... ]], && || < > ( ) are test operands, not operators
        while i < n:
            c = s[i]
            if c in " \t" or s.startswith("\\\n", i):
                i += 1 if c in " \t" else 2
                continue
            if c == "#":
                i = n if s.find("\n", i) < 0 else s.find("\n", i)
                continue
            line = self.line_at(i)  # for the token that starts here (not for each blank)
            if c == "\n":
                toks.append(_Tok("nl", "\n", line))
                i = self._skip_heredocs(i + 1, pending, toks)
                pending, dbracket = [], False  # an unclosed [[ must not swallow later lines
            elif not dbracket and s.startswith("((", i):  # arithmetic command / C-style for
                j = self.end(i)
                toks.append(_Tok("word", s[i:j], line))
                i = j
            elif not dbracket and c == "<" and _PLACEHOLDER.match(s, i):  # a word of its own: see _word
                raw, i = self._word(i, dbracket)
                toks.append(_Tok("word", raw, line))
            elif not dbracket and c in "<>" and s[i + 1 : i + 2] == "(":  # process substitution
                j = self.end(i + 1)
                toks.append(_Tok("word", s[i:j], line))
                i = j
            elif (
                (not dbracket or c == ";")
                and c in _OP_STARTS
                and (op := next((o for o in _OPS if s.startswith(o, i)), None))
            ):
                toks.append(_Tok("op", op, line))
                want_delim = op if op in ("<<", "<<-") else None
                i += len(op)
            else:
                raw, i = self._word(i, dbracket)
                if raw.isdigit() and i < n and s[i] in "<>":  # fd number of a redirection: 2>&1
                    op = next(o for o in _OPS if s.startswith(o, i))
                    toks.append(_Tok("op", raw + op, line))
                    want_delim = op if op in ("<<", "<<-") else None
                    i += len(op)
                    continue
                toks.append(_Tok("word", raw, line))
                if want_delim:
                    pending.append((raw, want_delim == "<<-", len(toks) - 1))
                    want_delim = None
                dbracket = (raw == "[[") or (dbracket and raw != "]]")
        if pending:
            self._skip_heredocs(n, pending, toks)
        return toks

    def _word(self, i: int, dbracket: bool) -> tuple[str, int]:
        s, n = self.s, len(self.s)
        buf: list[str] = []
        meta = " \t\n;" if dbracket else " \t\n;&|()<>"
        plain = _WORD_TEXT_TEST if dbracket else _WORD_TEXT
        while i < n:
            c = s[i]
            if c == "\\":
                if s[i + 1 : i + 2] != "\n":  # backslash-newline inside a word joins the lines
                    buf.append(s[i : i + 2])
                i += 2
            elif c == "(" and _ASSIGN.fullmatch("".join(buf)):  # array assignment A=(x y)
                j = self.end(i)
                buf.append(s[i:j])
                i = j
            elif c == "<" and not dbracket and (m := _PLACEHOLDER.match(s, i)) and (not buf or buf[-1].endswith("=")):
                # <your_model_path>: a value the user is to fill in (bash reads a redirection and stops on it)
                self.notes.append(
                    ShellNote(
                        self.line_at(i),
                        "shell.placeholder",
                        f"{m.group(1)} is a placeholder to fill in (bash would read '<' and '>' as redirections "
                        "and stop); read as that text",
                    )
                )
                buf.append(f"'{m.group(1)}'")
                i = m.end(1)
            elif c in meta:
                break
            elif c in "'\"`" or (c == "$" and s[i + 1 : i + 2] in ("(", "{", "'")):
                j = self.end(i)
                buf.append(s[i:j])
                i = j
            else:  # this character and the plain ones after it
                m = plain.match(s, i)
                j = m.end() if m else i + 1
                buf.append(s[i:j])
                i = j
        return "".join(buf), i

    def _skip_heredocs(self, i: int, pending: list[tuple[str, bool, int]], toks: list[_Tok]) -> int:
        """Past the bodies of the pending here-documents, each kept with its delimiter word's token (the command
        that reads it may use it: ``read -r -d '' ARGS <<EOF``)."""
        for raw, strip_tabs, index in pending:
            delim = re.sub(r"[\"'\\]", "", raw)
            start = i
            i, closed = _heredoc_end(self.s, i, delim, strip_tabs)
            if not closed:
                self.notes.append(
                    ShellNote(
                        toks[index].line,
                        "shell.heredoc-skipped",
                        f"here-document <<{delim} body not read (never terminated; skipped to end of file)",
                    )
                )
                continue
            lines = self.s[start:i].removesuffix("\n").split("\n")[:-1]
            body = "\n".join(line.lstrip("\t") if strip_tabs else line for line in lines)
            toks[index] = _Tok("word", raw, toks[index].line, (body, delim != raw))
        return i


# Expansion limits: a few bytes of script can double a value or an array into gigabytes (X=$X$X, 39 times).
MAX_VALUE_CHARS = 1_000_000  # one expanded word or value; real ones are under a few thousand characters
MAX_ARRAY_ITEMS = 100_000  # elements of one array
MAX_EXPANDED_CHARS = 50_000_000  # all expansions of one script: ten times the largest input read (files.py)
MAX_PATTERN_VALUE = 4096  # ${X#p} and kin try every cut of the value against the glob: quadratic, so bounded

# GPU counts a script computes at run time. nvidia-smi lists every GPU of the machine whatever
# CUDA_VISIBLE_DEVICES says, so its count is never known statically; torch's device_count() and the counts of
# CUDA_VISIBLE_DEVICES' items are known when the script (or --env) sets CUDA_VISIBLE_DEVICES.
_MACHINE_GPUS = re.compile(
    r"\s*nvidia-smi\s+(-L|--list-gpus|--query-gpu=\S+\s+--format=csv,noheader\S*)\s*\|\s*wc\s+-l\s*"
)
_VISIBLE_GPUS = re.compile(
    r"\s*(python[\d.]*\s+-c\s+(['\"])[^'\"]*torch\.cuda\.device_count\(\)[^'\"]*\2"
    r"|echo\s+\"?\$\{?CUDA_VISIBLE_DEVICES\}?\"?\s*\|\s*(tr\s+(['\"]?),\4\s+(['\"])\\n\5\s*\|\s*wc\s+-l"
    r"|awk\s+-F\s*(['\"]?),\6\s+(['\"])\{\s*print\s+NF\s*\}\7))\s*"
)

_BREAK = "\0"  # a piece that ends the current word: between the elements of "${ARRAY[@]}"


def _expr(left: str, op: str, right: str) -> str | None:
    """``expr LEFT OP RIGHT`` on whole numbers, as expr prints it (division truncates toward zero)."""
    op = op.lstrip("\\")
    if (
        op not in ("+", "-", "*", "/", "%")
        or not re.fullmatch(r"-?\d{1,18}", left)
        or not re.fullmatch(r"-?\d{1,18}", right)
        or (op in "/%" and int(right) == 0)
    ):
        return None
    a, b = int(left), int(right)
    quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1) if op in "/%" else 0
    return str({"+": a + b, "-": a - b, "*": a * b, "/": quotient, "%": a - b * quotient}[op])


def _blank_split(text: str) -> list[str]:
    """``text`` split at blanks, except inside a ``$(...)`` or backtick kept as text (its result is one word
    as far as a static reader knows: ``NOW=$(date +%Y%m%d)`` then ``name=run-$NOW``)."""
    if " " not in text and "\t" not in text and "\n" not in text:
        return [text]
    parts: list[list[str]] = []
    substitution, depth, ticks = False, 0, 0  # of the last part: a $( in it, ( minus ), backticks
    for part in _BLANKS.split(text):
        if parts and ((substitution and depth > 0) or ticks % 2):  # counted as it grows: linear, not quadratic
            parts[-1].append(part)
        else:
            parts.append([part])
            substitution, depth, ticks = False, 0, 0
        substitution = substitution or "$(" in part
        depth += part.count("(") - part.count(")")
        ticks += part.count("`")
    return [" ".join(words) for words in parts]


# An option whose value is a whole command line a launcher runs (--train-cmd, --command, --cmd)
_COMMAND_OPTION = re.compile(r"--(?:[\w-]+[-_])?(?:cmd|command)")
_SBATCH = re.compile(r"#SBATCH\s+(.*)")
_SBATCH_SHORT = {"-N": "--nodes", "-n": "--ntasks", "-G": "--gpus"}
_SBATCH_EXPORTS = {  # sbatch(1) at slurm-24-11: the variables set for a directive given as a whole number
    "--nodes": ("SLURM_JOB_NUM_NODES", "SLURM_NNODES"),
    "--ntasks": ("SLURM_NTASKS", "SLURM_NPROCS"),
    "--ntasks-per-node": ("SLURM_NTASKS_PER_NODE",),
    "--gpus-per-node": ("SLURM_GPUS_PER_NODE",),
}
# directives that count GPUs: --gres gpu[:type][:N] (among other resources), the others [type:]N
_SBATCH_GPUS = ("--gres", "--gpus-per-node", "--gpus")


def _sbatch_gpus(option: str, value: str) -> str | None:
    """The N of a GPU directive: --gres's ``gpu[:type][:N]`` item (N 1 when left out), or ``[type:]N``."""
    if option == "--gres":
        items = [item.split(":") for item in value.split(",") if item.split(":")[0] == "gpu"]
        if not items:
            return None
        return "1" if len(items[0]) == 1 else items[0][-1]
    return value.split(":")[-1]


# `cat <<EOF` (or <<-, <<'EOF'), its text, and the delimiter line: the whole of a $(...) that captures a heredoc
_CAT_HEREDOC = re.compile(
    r"cat[ \t]*<<(?P<dash>-?)[ \t]*(?P<quote>['\"]?)(?P<delim>[\w.-]+)(?P=quote)[ \t]*\n(?P<text>.*?)\n\t*(?P=delim)",
    re.S,
)
_PRINTF_QUOTED = re.compile(r"""printf\s+(?:'%q '|"%q "|'%q'|%q)\s+(.*)""", re.S)
# `scontrol show hostnames $SLURM_JOB_NODELIST`: one line per node of the allocation
_ALLOCATION_HOSTS = re.compile(r'scontrol\s+show\s+hostnames?\s+"?\$\{?(?:SLURM_JOB_NODELIST|SLURM_NODELIST)\}?"?\s*')
_ABSENT: Any = object()
_VALUE_WORD = re.compile(r"-?\d[\d.eE+-]*|[^-].*")
_OVERRIDE_WORD = re.compile(r"[+~]{0,2}[A-Za-z_][\w.\-/@]*=.*")


def _options(words: list[str]) -> list[tuple[str, str | None]] | None:
    """``words`` as (option, value) pairs: ``--a 1`` → ("--a", "1"), ``--a=1`` and ``key=1`` → ("--a=", "1") and
    ("key=", "1"), a switch → ("--a", None). None when a word is neither an option nor an option's value."""
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(words):
        word = words[i]
        if (word.startswith("--") and "=" in word) or _OVERRIDE_WORD.fullmatch(word):
            name, _, value = word.partition("=")
            out.append((name + "=", value))
        elif word.startswith("-") and len(word) > 1:
            following = words[i + 1] if i + 1 < len(words) else None
            if following is not None and _VALUE_WORD.fullmatch(following) and not _OVERRIDE_WORD.fullmatch(following):
                out.append((word, following))
                i += 1
            else:
                out.append((word, None))
        else:
            return None
        i += 1
    return out


def _split(pieces: list[tuple[str, bool]]) -> list[str]:
    """Word splitting: pieces are (text, splittable); only unquoted expansion results split on blanks."""
    fields: list[str] = []
    cur: list[str] = []
    started = False
    for text, splittable in pieces:
        if text == _BREAK:
            if started:
                fields.append("".join(cur))
            cur, started = [], False
            continue
        if not splittable:
            cur.append(text)
            started = True
            continue
        for k, part in enumerate(_blank_split(text)):
            if k and started:
                fields.append("".join(cur))
                cur, started = [], False
            if part:
                cur.append(part)
                started = True
    if started:
        fields.append("".join(cur))
    return fields


def _strip_pattern(value: str, pattern: str, op: str) -> str:
    """``${X#p}``, ``${X##p}``, ``${X%p}``, ``${X%%p}`` with glob patterns."""
    longest = len(op) == 2
    if op[0] == "#":
        cuts = [k for k in range(len(value) + 1) if fnmatch.fnmatchcase(value[:k], pattern)]
        return value[(max(cuts) if longest else min(cuts)) :] if cuts else value
    cuts = [k for k in range(len(value) + 1) if fnmatch.fnmatchcase(value[k:], pattern)]
    return value[: (min(cuts) if longest else max(cuts))] if cuts else value


class _ArithError(ValueError):
    pass


def _arith(text: str, lookup: Callable[[str], int]) -> int:
    """Integer arithmetic (+ - * / % ** parentheses, names) by walking a restricted ``ast``, never eval."""
    try:
        tree = ast.parse(text.strip() or "0", mode="eval")
    except SyntaxError:
        raise _ArithError("syntax error") from None

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            return lookup(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH_OPS:
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, (ast.Div, ast.Mod)):
                q = abs(a) // abs(b)  # ZeroDivisionError propagates; bash truncates toward zero
                q = q if (a >= 0) == (b >= 0) else -q
                return q if isinstance(node.op, ast.Div) else a - b * q
            if isinstance(node.op, ast.Pow) and not 0 <= b <= 256:
                raise _ArithError("exponent out of range")
            return _ARITH_OPS[type(node.op)](a, b)
        raise _ArithError(f"unsupported {type(node).__name__}")

    return ev(tree.body)


_CONFLICT = re.compile(r"^<{7}(?: .*)?\n(?:.*\n)*?={7}\n(?:.*\n)*?>{7}(?: .*)?$", re.MULTILINE)


def _refuse_merge_conflict(text: str, source: str) -> None:
    """A script holding an unresolved git merge conflict (``<<<<<<< HEAD`` ... ``=======`` ... ``>>>>>>> branch``):
    bash reads ``<<<<<<<`` as a here-string and stops with a syntax error there, so the script (or the file a
    script sources) does not run as written: ConfigError naming the lines."""
    found = _CONFLICT.search(text)
    if found is None:
        return
    first = text.count("\n", 0, found.start()) + 1
    last = first + found.group(0).count("\n")
    raise ConfigError(
        f"lines {first}-{last} hold an unresolved git merge conflict (<<<<<<< … ======= … >>>>>>>): bash stops "
        "reading the file there with a syntax error (near unexpected token `<<<'), so it does not run as written",
        file=source,
        line=first,
        hint="resolve the conflict: keep one side and delete the marker lines",
    )


class _Reader:
    """Walks the tokens in order, keeping variables, taint and notes as it goes."""

    def __init__(
        self,
        text: str,
        env: Mapping[str, str] | None,
        source: str,
        depth: int = 0,
        include: Include | None = None,
        listing: Listing | None = None,
    ) -> None:
        self.source, self.depth, self.include, self.listing = source, depth, include, listing
        self.program = source  # $0: the script bash runs (a sourced file's is its caller's)
        # A chain's way chosen by the caller: `@branch:LINE` = N in env reads only branch N of the chain at LINE.
        self.forced = {
            int(k[len(BRANCH) :]): int(v)
            for k, v in (env or {}).items()
            if k.startswith(BRANCH) and k[len(BRANCH) :].isdigit() and v.isdigit()
        }
        env = {k: v for k, v in (env or {}).items() if not k.startswith(BRANCH)}
        self.given: dict[str, str] = dict(env or {})  # what the caller (--env) gave: nested readers get the outer's
        self.branches: list[_Branch] = []  # the open if-chains, innermost last
        self.vars: _Variables = _Variables(env or {}, self.branches)
        self.cwd: str | None = None  # where `cd` commands moved, relative to the directory the script runs in
        self.overridable: set[str] = set()  # variables set only as an environment default: X=${X:-d}
        self.never_empty: set[str] = set()  # those of them no environment can leave empty (d is not empty)
        # variables the script exports (export X, declare -x X, after set -a): only these reach a program it runs,
        # besides those already in the environment
        self.exported: set[str] = set(env or {})
        self.allexport = False
        # set -e (errexit; also `#!/bin/bash -e`): a command that fails stops the script there
        self.errexit = bool(re.match(r"#!\S*(?:bash|sh)\s+-\w*e", text))
        self.arrays: dict[str, list[str]] = {}  # NAME=(a b c): the elements; vars holds them space-joined
        self.tainted: dict[str, set[str]] = {}  # variable -> unresolved names its value was built from
        self.notes: list[ShellNote] = []
        self.commands: list[ShellCommand] = []
        self.expanded = 0  # characters (and pieces) expanded so far: bounded by MAX_EXPANDED_CHARS
        self.unresolved: dict[str, None] = {}  # unset names the current command uses, in order (a dict: O(1) look-up)
        self.line = 1
        self.cases: list[_Case] = []  # the open `case` statements, innermost last
        self.loops: list[bool] = []  # per open while/until/for/select: whether it pushed a never-run branch
        # per open loop: for an argument loop read again for each argument (``while [[ $# -gt 0 ]]; do case "$1"
        # ... shift``), the token index its body starts at, its condition, and the rounds read so far; else None
        self.replays: list[tuple[int, list[_Tok], int, int] | _Rounds | None] = []
        self.rounds_left = _MAX_LOOP_ROUNDS
        self.after_command = 0  # the token index after the command being read
        self.piped_text: str | None = None  # the text a command pipes on (echo "$JOB" |): maybe a shell's script
        # files the script writes from a here-document (cat > job.sh <<EOF): path as written -> text
        self.written: dict[str, str] = {}
        self.not_followed: list[str] = []  # scripts sourced or run that were not read (shared with nested readers)
        self.joined_condition = False  # the command being read is followed by || or &&
        self.jump_to: int | None = None  # where run() continues when a loop is read again
        _refuse_merge_conflict(text, source)
        self.toks = _Lexer(text, source, self.notes).tokens()
        self.text_lines = text.split("\n")  # to read the comment beside an assignment
        # shell functions defined so far (here or in a sourced file): name -> (tokens, first, last) of the body's
        # braces; a body is read where the function is called, with the call's arguments as $1, $2, ...
        self.functions: dict[str, tuple[list[_Tok], int, int, str]] = {}
        self.called: set[str] = set()
        self.calls = 0  # calls open now: bounded by _MAX_NESTING (a function calling itself)
        self.namerefs: dict[str, str] = {}  # local -n NAME=OTHER: NAME reads and writes OTHER
        # the symbolic value of a variable an undecided if-chain sets → its value on each way through it ("" unset)
        self.ways: dict[str, list[str]] = {}
        self.uncounted: set[str] = set()  # arrays holding the words of a command not run: their length is unknown
        self.array_references: set[str] = set()  # names read as ${NAME[@]} / ${NAME[*]}
        self.chains: dict[int, list[int]] = {}  # undecided chains that left a variable unknown → their ways
        self.unrun_words = False  # whether an unquoted command substitution was kept as text since last reset
        self.capture: _Capture | None = None  # what a function run for its output ($(NAME ARGS)) has printed
        self.output_elsewhere = False  # the command being read writes its standard output elsewhere (>&2, > FILE)
        self.batch_job = False  # the script has #SBATCH directives: Slurm's job variables are set as it runs

    def note(self, code: str, message: str) -> None:
        self.notes.append(ShellNote(self.line, code, message))

    def sbatch_environment(self) -> None:
        """A batch script's ``#SBATCH`` directives (those before its first command, as sbatch reads them): the
        variables sbatch exports for them (sbatch(1), "OUTPUT ENVIRONMENT VARIABLES") are set as the script runs
        under sbatch, unless --env gives them."""
        stated: dict[str, tuple[str, int]] = {}  # long option → (whole number, line)
        for number, line in enumerate(self.text_lines, 1):
            text = line.strip()
            if text and not text.startswith("#"):
                break
            directive = _SBATCH.match(text)
            if directive is None:
                continue
            self.batch_job = True
            words = directive.group(1).split("#")[0].split()
            for k, word in enumerate(words):
                option, _, value = word.partition("=")
                if not value and option[:2] in _SBATCH_SHORT and len(option) > 2:
                    option, value = option[:2], option[2:]  # -N2
                if not value and k + 1 < len(words):
                    value = words[k + 1]
                option = _SBATCH_SHORT.get(option, option)
                count = _sbatch_gpus(option, value) if option in _SBATCH_GPUS else value
                if count is not None and count.isdigit():
                    stated[option] = (count, number)
        # the GPUs of each node of the allocation (the batch step's SLURM_GPUS_ON_NODE; Slurm sets
        # CUDA_VISIBLE_DEVICES to them): --gres=gpu[:type]:N and --gpus-per-node are per node, --gpus per job
        one_node = stated.get("--nodes", ("1", 0))[0] == "1"
        per_node = next((o for o in ("--gres", "--gpus-per-node", "--gpus") if o in stated), None)
        for option, (value, number) in stated.items():
            for name in _SBATCH_EXPORTS.get(option, ()):
                self._sbatch_sets(name, option, value, number)
        if per_node is not None and (per_node != "--gpus" or one_node):
            self._sbatch_sets("SLURM_GPUS_ON_NODE", per_node, *stated[per_node])
            count, number = stated[per_node]
            if int(count) <= _MAX_NODE_GPUS and "CUDA_VISIBLE_DEVICES" not in self.given:
                # the devices of the allocation, numbered from 0 under Slurm's device constraint (their count is
                # what the script can rely on)
                self.vars["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, range(int(count))))
                self.exported.add("CUDA_VISIBLE_DEVICES")
                self.line = number
                self.note(
                    "shell.sbatch",
                    f"{per_node} {count}: Slurm sets CUDA_VISIBLE_DEVICES to the allocation's {count} GPU(s) for "
                    "the script (read as " + self.vars["CUDA_VISIBLE_DEVICES"] + ")",
                )

    def _sbatch_sets(self, name: str, option: str, value: str, number: int) -> None:
        if name not in self.given:
            self.vars[name] = value
            self.exported.add(name)
            self.line = number
            self.note("shell.sbatch", f"{option} {value}: sbatch sets {name}={value} for the script")

    def allocated_gpus(self, assignments: Mapping[str, str]) -> int | None:
        """The GPUs a batch job's allocation gives each node (SLURM_GPUS_ON_NODE from its #SBATCH directives or
        --env), when the script leaves that as it is: the devices every process of the node sees."""
        name = "SLURM_GPUS_ON_NODE"
        value = assignments.get(name, self.vars.get(name) if name in self.exported else None)
        if value is None or self.tainted.get(name) or not value.isdigit():
            return None
        return int(value)

    def run(self, sourced: bool = False) -> ShellScript:
        """Read the whole script. Functions it never calls have their bodies read at its end, as top-level
        commands (a call rlconf does not see, such as one inside ``$(...)``, may run them); a sourced file leaves
        that to the script that sources it."""
        if self.depth == 0 and not sourced:
            self.sbatch_environment()
        self.walk(0, len(self.toks))
        if not sourced:
            for name, (toks, first, last, where) in list(self.functions.items()):
                if name not in self.called:
                    self.line = toks[first].line if where == self.source else self.line
                    self.note(
                        "shell.control-flow-skipped",
                        f"function {name} is never called where rlconf can see it: its body is read as top-level "
                        "commands",
                    )
                    self.call(name, [], toks, first, last, where)
        self.notes.sort(key=lambda n: n.line)
        return ShellScript(
            self.commands, self.vars, self.notes, self.chains, self.ways, self.array_references, self.not_followed
        )

    def walk(self, i: int, stop: int) -> None:
        """Read the commands of the tokens from ``i`` up to ``stop``."""
        toks = self.toks
        while i < stop:
            t = toks[i]
            self.line = t.line
            if self.cases and self.cases[-1].expects_pattern and t.kind == "word":
                if t.text == "esac":
                    self.close_case()
                    i += 1
                    continue
                pattern: list[str] = []
                while i < len(toks) and not (toks[i].kind == "op" and toks[i].text == ")"):
                    if toks[i].kind == "word":
                        pattern.append(toks[i].text)
                    i += 1
                self.case_pattern(pattern)
                self.cases[-1].expects_pattern = False
                i += 1
                continue
            if t.kind == "nl" or (t.kind == "op" and "<" not in t.text and ">" not in t.text):
                if t.text in (";;", ";&", ";;&") and self.cases:
                    self.cases[-1].expects_pattern = True
                i += 1  # separators and subshell parentheses between commands
                continue
            words: list[_Tok] = []
            documents: list[_Tok] = []  # here-documents the command reads
            strings: list[_Tok] = []  # here-strings it reads (<<< WORD)
            targets: list[_Tok] = []  # the files its output is written to (> FILE)
            self.output_elsewhere = False  # its standard output goes to a file or another stream (>&2, > FILE)
            while i < stop:
                t = toks[i]
                if t.kind == "word":
                    words.append(t)
                    i += 1
                    if words[0].text == "case" and t.text == "in" and len(words) >= 3:
                        break
                    if len(words) == 2 and words[0].text == "function" and i < stop and toks[i].text == "{":
                        end = self.define(words[1], i)  # function NAME { ... }
                        if end is not None:
                            words, i = [], end + 1
                            break
                elif "<" in t.text or ">" in t.text:  # a redirection: drop it and its target
                    self.output_elsewhere = self.output_elsewhere or (">" in t.text and not t.text.startswith("2"))
                    if i + 1 >= len(toks) or toks[i + 1].kind != "word":
                        self.redirection_without_target(t, toks[i + 1] if i + 1 < len(toks) else None)
                    if i + 1 < len(toks) and toks[i + 1].heredoc is not None:
                        documents.append(toks[i + 1])
                    elif t.text == "<<<" and i + 1 < len(toks) and toks[i + 1].kind == "word":
                        strings.append(toks[i + 1])
                    elif t.text in (">", ">|") and i + 1 < len(toks) and toks[i + 1].kind == "word":
                        targets.append(toks[i + 1])
                    i += 2 if i + 1 < len(toks) and toks[i + 1].kind == "word" else 1
                elif (
                    t.text == "("
                    and i + 1 < len(toks)
                    and toks[i + 1].text == ")"
                    and len(words) in (1, 2)
                    and (len(words) == 1 or words[0].text == "function")
                ):
                    end = self.define(words[-1], i + 2)
                    if end is not None:
                        words, i = [], end + 1
                        break
                    self.line = words[0].line
                    self.note(
                        "shell.control-flow-skipped",
                        f"function {words[-1].text}: its body is read as top-level commands",
                    )
                    words, i = [], i + 2
                else:
                    break
            background = i < stop and toks[i].kind == "op" and toks[i].text == "&"
            piped = i < stop and toks[i].kind == "op" and toks[i].text == "|"
            # `if [ a ] || [ b ]; then`: the test read here is only the first of the condition's commands
            self.joined_condition = i < stop and toks[i].kind == "op" and toks[i].text in ("||", "&&")
            if words and strings and not self.skipping() and self.read_string(words, strings[-1]):
                continue
            if words and documents and not self.skipping():
                if self.read_document(words, documents[-1]) or self.run_document(words, documents[-1]):
                    continue
                if self.write_document(words, documents[-1], targets):
                    documents = documents[:-1]
            for document in documents:
                self.line = document.line
                self.note("shell.heredoc-skipped", f"here-document <<{document.text} body not read")
            if words:
                self.after_command = i
                if not self.pipe_into_shell(words, piped):
                    self.command(words, background)
                if self.jump_to is not None:  # an argument loop is read again from its body's start
                    i, self.jump_to = self.jump_to, None

    def read_document(self, words: list[_Tok], document: _Tok) -> bool:
        """``read [-r] [-d ''] NAME <<EOF``: NAME set to the here-document's text (expanded unless its delimiter
        is quoted; with -d '' all of it, else its first line; leading and trailing blanks trimmed, as read does
        with the default IFS). True when ``words`` was that command."""
        argv = [self.value(w.text) for w in words]
        if argv[0] != "read" or document.heredoc is None:
            return False
        names, whole, k = [], False, 1
        while k < len(argv):
            if argv[k] == "-d" and k + 1 < len(argv):
                whole, k = argv[k + 1] == "", k + 2
                continue
            if argv[k].startswith("-"):
                if any(flag in argv[k] for flag in "anpt"):  # an array, a prompt, a count or a timeout
                    return False
            else:
                names.append(argv[k])
            k += 1
        if len(names) != 1 or not names[0].isidentifier():
            return False
        body, literal = document.heredoc
        if not literal:
            body = body.replace("\\\n", "")  # a backslash-newline joins the lines of an unquoted one
        text = (body if whole else body.split("\n")[0]).strip(" \t\n")
        raw = shlex.quote(text) if literal else '"' + text.replace('"', '\\"') + '"'  # expanded as in "..."
        self.assign(_Tok("word", f"{names[0]}={raw}", words[0].line))
        return True

    def left_to_environment(self, field: str, raw: str) -> str:
        """A program's word ``"$X"`` where the script sets X only as an empty default of the environment
        (``X="${X:-${Y:-}}"``, neither given by --env): the author leaves X to the environment (an empty word would
        stop the program's parser), so the word is X, unknown, not the empty string."""
        reference = _QUOTED_REFERENCE.fullmatch(raw)
        name = reference and (reference.group(1) or reference.group(2))
        if field == "" and name and name in self.overridable and name not in self.given:
            self.missing(name)
            return symbol(name)
        return field

    def redirection_without_target(self, redirection: _Tok, following: _Tok | None) -> None:
        """``python x.py >`` at a line's end: a redirection with no file after it is a syntax error; bash stops the
        script there (exit 2), whatever comes after. (A ``<placeholder>`` ending a line's words is read as text.)"""
        if self.skipping():
            return
        shown = "newline" if following is None or following.kind == "nl" else following.text
        raise ConfigError(
            f"syntax error near unexpected token `{shown}': '{redirection.text}' redirects to nothing, so bash stops "
            "the script here",
            file=self.source,
            line=redirection.line,
            hint=f"give the redirection '{redirection.text}' a file, or quote the text that holds it",
        )

    def read_string(self, words: list[_Tok], string: _Tok) -> bool:
        """``[IFS=,] read [-r] [-a] NAME <<< WORD``: NAME set to WORD (with -a, an array of its fields split at
        IFS; an array of a word the script leaves unknown has an unknown length). True when ``words`` was that
        command."""
        argv = [w.text for w in words]
        separators, k = self.vars.get("IFS", " \t\n"), 0
        while k < len(argv) and (assigned := _ASSIGN.match(argv[k])):
            if assigned.group(1) == "IFS":
                separators = self.value(argv[k][assigned.end() :])
            k += 1
        if k == len(argv) or argv[k] != "read":
            return False
        names, array = [], False
        for word in argv[k + 1 :]:
            if word.startswith("-"):
                if set(word[1:]) - {"r", "a"}:  # a delimiter, a count, a prompt or a timeout
                    return False
                array = array or "a" in word
            else:
                names.append(word)
        if len(names) != 1 or not names[0].isidentifier() or not separators:
            return False
        name = names[0]
        outer, self.unresolved = self.unresolved, {}
        text = self.value(string.text)
        blanks = "".join(c for c in separators if c in " \t\n")
        if array:
            fields = re.split(f"[{re.escape(separators)}]", text.strip(blanks)) if text.strip(blanks) else []
            items = [f.strip(blanks) for f in fields]
            if items and items[-1] == "" and blanks != separators:
                items.pop()  # read drops an empty last field
            items = [f for f in items if f] if not set(separators) - set(blanks) else items
            self.arrays[name] = items
            (self.uncounted.add if self.unresolved else self.uncounted.discard)(name)
            self.vars[name] = " ".join(items)
        else:
            self.arrays.pop(name, None)
            self.vars[name] = text.strip(blanks)
        self.line = words[0].line
        self.taint(name, self.unresolved)
        self.unresolved = outer | self.unresolved
        return True

    def document_text(self, document: _Tok) -> str:
        """A here-document's text as the command reading it gets it: expanded as in double quotes (``\\$`` stays
        ``$`` for the shell that later runs it), or as written when its delimiter is quoted (``<<'EOF'``)."""
        assert document.heredoc is not None
        body, literal = document.heredoc
        if literal:
            return body
        return "".join(t for t, _ in self.pieces(body.replace("\\\n", "").replace('"', '\\"'), True))

    def write_document(self, words: list[_Tok], document: _Tok, targets: list[_Tok]) -> bool:
        """``cat > FILE <<EOF`` (or ``tee FILE``): FILE holds the here-document's text from here on, for a later
        command that runs it (``sbatch FILE``, ``bash FILE``, ``kubectl apply -f FILE``). True when ``words`` was
        that command."""
        argv = [self.value(w.text) for w in words]
        if argv[0] == "cat" and len(argv) == 1 and len(targets) == 1:
            paths = [self.value(targets[0].text)]
        elif argv[0] == "tee" and len(argv) > 1 and not targets:
            paths = [a for a in argv[1:] if not a.startswith("-")]
        else:
            return False
        text = self.document_text(document)
        for path in paths:
            self.written[path] = text
        self.line = document.line
        self.note(
            "shell.heredoc-written",
            f"here-document <<{document.text} is written to {' '.join(paths)}: read where a later command runs it",
        )
        return True

    def run_document(self, words: list[_Tok], document: _Tok) -> bool:
        """A here-document handed to a program that runs it: a shell reading its script from standard input
        (``bash <<EOF``, ``ssh HOST <<EOF``, ``sbatch <<EOF``) or Kubernetes (``kubectl apply -f - <<EOF``) reads
        it as commands (:meth:`run_text`). True when ``words`` was such a command."""
        argv = [self.value(w.text) for w in words]
        how = _runs_text(argv, "-")
        if how is None:
            return False
        self.run_text(how, self.document_text(document), words[0].line)
        return True

    def run_text(self, how: str, text: str, line: int) -> None:
        """Commands a program runs from ``text`` (a file the script wrote, or a here-document), read as part of this
        script on ``line``: the whole text for a shell or a batch system, the shell scripts of the containers of
        Kubernetes manifests (``command: [bash, -c]`` with the script in ``args``, or a program run directly)."""
        if how == "shell":
            self.nested(text, line, {}, piped=True)
            return
        for script in _manifest_scripts(text):
            self.nested(script, line, {}, piped=True)
        self.note("shell.manifest", "the Kubernetes manifest's container commands are read as run")

    def pipe_into_shell(self, words: list[_Tok], piped: bool) -> bool:
        """A script fed to a shell on its standard input (``echo "$JOB" | tr -d '\\r' | kubectl exec -i POD --
        /bin/bash``, ``| ssh host``, ``| docker exec -i c bash``): the echoed text is read as commands of this script
        (:meth:`nested`), on the shell's line; True when ``words`` was that shell. ``piped``: a ``|`` follows."""
        text, self.piped_text = self.piped_text, None
        head = words[0].text
        if self.skipping() or (text is None and not (piped and head in ("echo", "printf"))):
            return False  # words are expanded only where they may matter (an expansion may count or note)
        argv = [self.value(w.text) for w in words]
        if text is not None and _reads_stdin_script(argv):
            self.nested(text, words[0].line, {}, piped=True)
            return True
        if not piped:
            return False
        if argv[0] == "echo":
            arguments = argv[1:]
            while arguments and arguments[0] in ("-e", "-n", "-E", "-ne", "-en"):
                arguments = arguments[1:]
            self.piped_text = " ".join(arguments)
        elif argv[0] == "printf" and len(argv) == 3 and argv[1] in ("%s", "%s\\n"):
            self.piped_text = argv[2]
        elif text is not None and argv[0] in _TEXT_FILTERS:  # the text passes on (tr -d '\\r', cat)
            self.piped_text = text
        return False

    def define(self, name: _Tok, i: int) -> int | None:
        """A function definition whose body's ``{`` is at or after token ``i`` (past newlines): kept to be read
        where it is called; the index of the body's closing ``}``, or None when the body is not a brace group."""
        toks = self.toks
        while i < len(toks) and toks[i].kind == "nl":
            i += 1
        if i >= len(toks) or toks[i].text != "{":
            return None
        depth = 0
        for j in range(i, len(toks)):
            if toks[j].kind == "word" and toks[j].text in ("{", "}"):
                depth += 1 if toks[j].text == "{" else -1
                if depth == 0:
                    self.functions[name.text] = (toks, i, j, self.source)
                    return j
        return None

    def call(self, name: str, args: list[str], toks: list[_Tok], first: int, last: int, where: str) -> None:
        """Read a function's body (tokens ``first``..``last``, its braces, in the file ``where``) with ``args`` as $1,
        $2, ...: it shares the script's variables, as bash's functions do. What a function of a sourced file runs
        counts as run from the call's line (its own file and line are in the notes)."""
        self.called.add(name)
        line, commands, notes = self.line, len(self.commands), len(self.notes)
        if self.calls >= _MAX_NESTING:
            self.note("shell.control-flow-skipped", f"function {name}: calls nested more than {_MAX_NESTING} deep")
            return
        saved, self.toks = self.toks, toks
        namerefs = dict(self.namerefs)  # local -n names end with the call
        self.calls += 1
        try:
            with self.arguments_as(args):
                self.walk(first + 1, last)
        finally:
            self.calls -= 1
            self.toks = saved
            self.namerefs.clear()
            self.namerefs.update(namerefs)
        if where != self.source:
            for command in self.commands[commands:]:
                command.line = line
            self.notes[notes:] = [ShellNote(line, n.code, f"{where}:{n.line}: {n.message}") for n in self.notes[notes:]]

    @contextmanager
    def arguments_as(self, args: list[str]) -> Iterator[None]:
        """$1, $2, ... are ``args`` inside the block (a function's call), the script's own again after it."""
        numbered = {k: v for k, v in self.given.items() if k.isdigit()}
        for key in numbered:
            del self.given[key]
        self.given.update({str(n): a for n, a in enumerate(args, 1)})
        try:
            yield
        finally:
            for key in [k for k in self.given if k.isdigit()]:
                del self.given[key]
            self.given.update(numbered)

    def command(self, words: list[_Tok], background: bool) -> None:
        self.line = words[0].line
        while words and words[0].text in ("if", "elif", "else", "fi", "then"):
            if words[0].text != "then":
                self.branch(words[0].text, words[1:])
            if words[0].text in ("if", "elif"):
                break  # the condition is read as a command below (where its branch is read)
            words = words[1:]
        decided_loop = False
        if words and words[0].text in ("while", "until", "for", "select"):
            decided_loop = self.open_loop(words)
        elif words and words[0].text == "done" and self.loops:
            if self.loops.pop():
                self.branches.pop()  # the end of a loop whose body never runs
            self.replay(self.replays.pop() if self.replays else None)
        if words and words[0].text == "case":  # opened and closed in a branch not read too: patterns nest
            self.open_case(words[1] if len(words) > 1 else None)
            return
        if words and words[0].text == "esac" and self.cases:
            self.close_case()
            words = words[1:]
        if self.skipping() or (self.capture is not None and self.capture.returned):
            return
        if words and words[0].text == "break" and self.replays and self.replays[-1] is not None:
            self.replays[-1] = None  # an argument loop left by `break` (`--) shift; REST=("$@"); break`): done
        while words:
            kw = words[0].text
            if kw in _OPENERS and not (kw in ("if", "elif") and self.decided()) and not decided_loop:
                self.note(
                    "shell.control-flow-skipped", f"`{kw}` condition not evaluated; every branch is read in order"
                )
            elif kw == "esac" and self.cases:
                self.close_case()
            elif kw == "function":
                self.note(
                    "shell.control-flow-skipped",
                    f"function {words[1].text if len(words) > 1 else ''}: body read as top-level commands",
                )
                words = words[1:]
            elif kw in ("for", "select"):
                return self.for_loop(words)
            elif kw.startswith("(("):
                self.note("shell.arithmetic", f"arithmetic command {kw} not evaluated")
                return
            elif kw not in _CLOSERS and kw != "esac":
                break
            words = words[1:]
        if not words or (self.capture is not None and self.captured(words)):
            return
        self.unresolved = {}
        k = 0
        while k < len(words) and _ASSIGN.match(words[k].text):
            k += 1
        prefix, rest = words[:k], words[k:]
        if not rest or rest[0].text in _DECLARE:
            exporting = bool(rest) and (
                rest[0].text == "export" or any(w.text.startswith("-") and "x" in w.text for w in rest[1:])
            )
            naming = bool(rest) and any(w.text.startswith("-") and "n" in w.text for w in rest[1:])
            for w in prefix + rest[1:]:
                m = _ASSIGN.match(w.text)
                if m and naming and w in rest:  # local -n NAME=OTHER: a reference to the variable OTHER
                    self.namerefs[m.group(1)] = self.value(w.text[m.end() :])
                elif m:
                    self.assign(w)
                if (exporting and w in rest) or self.allexport:
                    self.exported.add(m.group(1) if m else w.text)
            return
        if rest[0].text == "set" and any(w.text in ("-a", "allexport") for w in rest[1:]):
            self.allexport = True
        if rest[0].text == "set":
            given = [w.text for w in rest[1:]]
            for option, following in zip(given, [*given[1:], ""], strict=False):
                if option in ("-o", "+o") and following == "errexit":
                    self.errexit = option == "-o"
                elif re.fullmatch(r"[-+][a-zA-Z]+", option) and "e" in option[1:]:
                    self.errexit = option[0] == "-"
        if rest[0].text == "shift":  # the script's arguments move down by N
            count = rest[1].text if len(rest) > 1 else "1"
            if count.isdigit():
                args = self.arguments()[int(count) :]
                for key in [k for k in self.given if k.isdigit()]:
                    del self.given[key]
                self.given.update({str(n): a for n, a in enumerate(args, 1)})
            return
        if rest[0].text == "exit":  # a branch that ends the script leaves no way through its chain
            undecided = [frame for frame in self.branches if frame.before is not None]
            if undecided:
                undecided[-1].exits = True
        if rest[0].text == "unset":
            for w in rest[1:]:
                self.vars.pop(w.text, None)
                self.arrays.pop(w.text, None)
                self.tainted.pop(w.text, None)
            return
        placed = [(o, w.line, w.text) for w in rest for f in self.globbed(w) for o in self.options_of(f)]
        wrapper = self.wrapper_script([f for f, _, _ in placed])
        if wrapper is not None:  # python boot.py train.py ARGS runs train.py ARGS
            self.note(
                "shell.wrapper-script",
                f"{placed[wrapper][0]} runs the script its first argument names (runpy): read as a launch of "
                f"{placed[wrapper + 1][0]}",
            )
            del placed[wrapper]
        for _ in range(_MAX_NESTING):  # python run.py, where run.py only runs ../other/run.py as __main__
            forwarded = self.forwarded_script([f for f, _, _ in placed])
            if forwarded is None:
                break
            at, target = forwarded
            self.note(
                "shell.wrapper-script",
                f"{placed[at][0]} runs {target} as __main__ (runpy, a path it builds from its own place): read as a "
                "launch of that script",
            )
            placed[at] = (target, placed[at][1], target)
        argv = [f for f, _, _ in placed]
        if argv[:1] not in (["["], ["[["], ["test"]):
            argv = [self.left_to_environment(f, raw) for f, _, raw in placed]
        vanishing = [
            i
            for i, (f, _, raw) in enumerate(placed)
            if _BARE_REFERENCE.fullmatch(raw) and f == symbol(raw.strip("${}")) and self.may_be_unset(raw.strip("${}"))
        ]
        assignments: dict[str, str] = {}
        for w in prefix:
            m = _ASSIGN.match(w.text)
            assert m is not None
            assignments[m.group(1)] = self.value(w.text[m.end() :])
        if argv and argv[0] in self.functions:
            self.note(
                "shell.function-called", f"function {argv[0]} is called here: its body is read with these arguments"
            )
            self.call(argv[0], argv[1:], *self.functions[argv[0]])
            return
        if argv[:1] == ["cd"]:  # followed statically; a directory from an unset variable stays symbolic
            target = argv[1] if len(argv) > 1 and argv[1] != "-" else "${HOME}"
            self.cwd = posixpath.normpath(posixpath.join(self.cwd or "", target))
        self.commands.append(
            ShellCommand(
                argv,
                words[0].line,
                assignments,
                list(self.unresolved),
                background,
                self.cwd,
                vanishing,
                self.visible_devices(assignments),
                self.allocated_gpus(assignments),
            )
        )
        body = _nested_body(argv, {**self.vars, **assignments})
        if body is not None:
            self.nested(body[1], placed[body[0]][1], assignments)
            return
        keys = _sent_keys(unwrap_command(argv, {**self.vars, **assignments}))
        if keys is not None:  # tmux send-keys "python -m ..." C-m: the command typed into a session
            self.nested(keys, words[0].line, assignments)
            return
        for option, value in itertools.pairwise(argv):  # launcher --train-cmd "bash run.sh": the command it is handed
            if _COMMAND_OPTION.fullmatch(option) and " " in value.strip() and not symbolic_names(value.split()[0]):
                self.note("shell.command-option", f"{option} hands a command to {argv[0]}: it is read as run")
                self.nested(value, words[0].line, assignments)
        unwrapped = unwrap_command(argv, {**self.vars, **assignments}) or argv
        for path, text in list(self.written.items()):
            how = _runs_text(argv, path) or _runs_text(unwrapped, path)
            if how is not None:
                self.note("shell.written-file", f"{path} was written by this script from a here-document: read as run")
                self.run_text(how, text, words[0].line)
                return
        call = _script_call(unwrap_command(argv, {**self.vars, **assignments}))
        if call is not None:
            self.run_script(*call, words[0].line, assignments, replaces=argv[0] == "exec")

    def python_script(self, argv: list[str]) -> tuple[int, tuple[str, str]] | None:
        """(the index of the project script the command runs with Python, its text and name), for
        ``python SCRIPT.py ...`` where the project holds SCRIPT; None otherwise."""
        for i, word in enumerate(argv[:-1]):
            if not re.fullmatch(r"python[\d.]*", posixpath.basename(word)):
                continue
            script = argv[i + 1]
            if not script.endswith(".py") or self.include is None or symbolic_names(script):
                return None
            found = self.include(script, self.cwd)
            return (i + 1, found) if found is not None else None
        return None

    def wrapper_script(self, argv: list[str]) -> int | None:
        """The index of a project script the command runs with Python (``python boot.py train.py ARGS``) whose own
        code runs the script its first argument names as ``__main__`` (``runpy.run_path(sys.argv[1])``, or
        ``run_module``), with the rest as its arguments: the launch is that script's. None otherwise."""
        from translator.sources.code import runs_first_argument  # here: most scripts run no wrapper

        run = self.python_script(argv)
        return run[0] if run is not None and runs_first_argument(run[1][0]) else None

    def forwarded_script(self, argv: list[str]) -> tuple[int, str] | None:
        """(the index of the project script the command runs with Python, the script that one hands its run to)
        where it only forwards (:func:`~translator.sources.code.forwarded_script`); None otherwise."""
        from translator.sources.code import forwarded_script  # here: most scripts forward nowhere

        run = self.python_script(argv)
        target = forwarded_script(*run[1]) if run is not None else None
        return (run[0], target) if run is not None and target is not None else None

    def may_be_unset(self, name: str) -> bool:
        """Whether a variable the script never sets may be unset where it runs: not one every login shell sets, nor
        one Slurm sets in a batch job (a script with #SBATCH directives)."""
        return name not in _ALWAYS_SET and not (self.batch_job and name in _SLURM_JOB_SET)

    def visible_devices(self, assignments: Mapping[str, str]) -> str | None:
        """CUDA_VISIBLE_DEVICES for a command with these prefix assignments, when the script states it for certain."""
        name = "CUDA_VISIBLE_DEVICES"
        if name in assignments:
            value: str | None = assignments[name]
        # a default the environment may override, or a plain assignment (it reaches the launch only if the
        # environment already exports the name): not stated for certain
        elif (
            self.tainted.get(name) or (name in self.overridable and name not in self.given) or name not in self.exported
        ):
            return None
        else:
            value = self.vars.get(name)
        return value if value is not None and not symbolic_names(value) else None

    def run_script(
        self, path: str, args: list[str], sourced: bool, line: int, assignments: dict[str, str], replaces: bool = False
    ) -> None:
        """A script of the project this one runs (``bash x.sh ARGS``, ``./x.sh``, ``exec sh x.sh``) or sources
        (``source x.sh``, ``. x.sh``), read as part of this one: its commands count as run from this line. A child
        sees the variables set so far (bash's child sees the exported ones) and ARGS as $1, $2, ...; a sourced file
        shares this script's variables, and what it sets stays set. A script ``exec`` runs (``replaces``) takes this
        one's place: the variables it leaves are the script's last."""
        found = self.include(path, self.cwd) if self.include is not None and not symbolic_names(path) else None
        if found is None and self.include is not None:
            found = self.one_of_the_branches(path)
        if found is None:
            self.refuse_missing_under_errexit(path, sourced, line)
        if found is None or self.depth >= _MAX_NESTING:
            why = "not found in the project" if found is None else f"nested more than {_MAX_NESTING} deep"
            self.note("shell.script-not-followed", f"{'sourced' if sourced else 'called'} script {path} is {why}")
            self.not_followed.append(path)
            return
        text, name = found
        given = {k: v for k, v in self.given.items() if not k.isdigit()}
        if not sourced or args:  # a sourced file without arguments sees this script's own
            given.update({str(i): a for i, a in enumerate(args, 1)})
        else:
            given.update({k: v for k, v in self.given.items() if k.isdigit()})
        # `X=1 bash run.sh`: the child's environment holds X=1, which its `X=${X:-d}` keeps
        given.update({k: v for k, v in assignments.items() if not symbolic_names(v)})
        inner = _Reader(text, {**self.vars, **assignments}, name, self.depth + 1, self.include, self.listing)
        inner.given, inner.cwd, inner.expanded, inner.written = given, self.cwd, self.expanded, self.written
        inner.not_followed = self.not_followed
        inner.program = self.program if sourced else name
        inner.ways = self.ways  # a chain inside the called script leaves its marker in the commands read here
        inner.arrays, inner.tainted, inner.overridable = dict(self.arrays), dict(self.tainted), set(self.overridable)
        inner.never_empty = set(self.never_empty)
        inner.exported, inner.allexport = self.exported | set(assignments), self.allexport
        inner.batch_job = self.batch_job
        inner.errexit = self.errexit and sourced  # a sourced file runs in this shell; `bash x.sh` in a new one
        if sourced:  # a sourced file sees the functions defined so far, and those it defines stay defined
            inner.functions, inner.called, inner.namerefs = self.functions, self.called, self.namerefs
        script = inner.run(sourced)
        self.expanded = inner.expanded
        self.array_references |= script.array_references
        for command in script.commands:
            command.line = line  # run from here (its own file and line are in the notes)
            command.assignments = {**assignments, **command.assignments}
            self.commands.append(command)
        for shell_note in script.notes:
            self.notes.append(ShellNote(line, shell_note.code, f"{name}:{shell_note.line}: {shell_note.message}"))
        self.note(
            "shell.script-followed",
            f"{'sourced' if sourced else 'called'} script {name} is read as part of this one"
            + (f" (arguments: {' '.join(args)})" if args else ""),
        )
        if sourced or replaces:
            for name in set(self.vars) | set(inner.vars):  # what the sourced file set stays set here
                if name not in inner.vars:
                    self.vars.pop(name, None)
                elif self.vars.get(name) != inner.vars[name]:
                    self.vars[name] = inner.vars[name]
            self.cwd = inner.cwd
            self.arrays, self.tainted, self.overridable = inner.arrays, inner.tainted, inner.overridable
            self.never_empty = inner.never_empty
            self.exported, self.allexport = inner.exported, inner.allexport
            self.errexit = inner.errexit

    def refuse_missing_under_errexit(self, path: str, sourced: bool, line: int) -> None:
        """Under ``set -e`` a script that sources or runs a file of a project folder that does not exist stops there
        (bash: "No such file or directory"), before any launch after it: refused. A file the project may lack on
        purpose (a local ``.env`` in a folder it has) or one outside it (the machine's) is not judged."""
        if not self.errexit or self.listing is None or symbolic_names(path) or posixpath.isabs(path):
            return
        folder = posixpath.dirname(posixpath.normpath(path))
        if not folder or folder.startswith("..") or self.listing(folder, self.cwd, "-d") != []:
            return
        raise ConfigError(
            f"{'sources' if sourced else 'runs'} {path}, but the project has no folder {folder}: under set -e bash "
            "stops here (No such file or directory), before the launch",
            file=self.source,
            line=line,
            hint="correct the path (or add the file) in the script",
        )

    def one_of_the_branches(self, path: str) -> tuple[str, str] | None:
        """A script path built from a variable an undecided if-chain sets: the one script its branches' values name
        in the project (the others name none, or the same file), with a note; None when none or several do."""
        marker = next((m for m in self.ways if path.startswith(m)), None)
        if marker is None or self.include is None:
            return None
        tail = re.sub(r"^(\$\{\w+\})+", "", path[len(marker) :])  # the condition's names appended to the marker
        found = {}
        for value in dict.fromkeys(v for v in self.ways[marker] if v):
            candidate = value + tail
            hit = self.include(candidate, self.cwd) if not symbolic_names(candidate) else None
            if hit is not None:
                found[hit[1]] = hit
        if len(found) != 1:
            return None
        name, hit = next(iter(found.items()))
        self.note(
            "shell.branch-path",
            f"{path} depends on a branch; of the values its branches give, only {name} is a file of the project: "
            "read as that one",
        )
        return hit

    def nested(self, body: str, line: int, assignments: dict[str, str], piped: bool = False) -> None:
        """The commands of a ``bash -c BODY`` / ``sbatch --wrap BODY`` with several statements, read as part of this
        script (on the lines the body sits on): the program is among them, not necessarily the last. The body sees
        the variables set so far (bash's child sees the exported ones; a script that relies on an unexported one
        has a bug bash would not report either)."""
        if self.depth >= _MAX_NESTING:
            self.note("shell.control-flow-skipped", f"a command body nested more than {_MAX_NESTING} deep is not read")
            return
        inner = _Reader(body, {**self.vars, **assignments}, self.source, self.depth + 1, self.include, self.listing)
        inner.cwd, inner.arrays, inner.tainted = self.cwd, dict(self.arrays), dict(self.tainted)
        inner.written, inner.ways, inner.not_followed = self.written, self.ways, self.not_followed
        inner.given, inner.program = self.given, self.program
        inner.exported, inner.allexport = self.exported | set(assignments), self.allexport
        inner.batch_job = self.batch_job
        inner.expanded = self.expanded
        script = inner.run()
        self.expanded = inner.expanded
        shift = (lambda _: line) if piped else (lambda inner: inner + line - 1)  # a piped text sits elsewhere
        for command in script.commands:
            command.line = shift(command.line)
            command.assignments = {**assignments, **command.assignments}  # the child's environment has them
            self.commands.append(command)
        for shell_note in script.notes:
            self.notes.append(ShellNote(shift(shell_note.line), shell_note.code, shell_note.message))

    # ---------------------------------------------------------------- if / elif / else / fi
    # A condition whose operands are all known ([ -n "$X" ], [[ "$A" == b ]], [ "$N" -gt 1 ]) is decided and only
    # the branch bash would run is read; any other condition leaves every branch read in order, as before.
    def branch(self, keyword: str, condition: list[_Tok], outcome: Callable[[], bool | None] | None = None) -> None:
        """An if-chain's keyword; ``outcome`` gives the condition's truth where the caller decides it (a case
        pattern), else the condition is decided here."""
        frames = self.branches

        def decide() -> bool | None:
            if outcome is None and self.joined_condition:
                return self.decide_joined(condition)
            return self.decide(condition) if outcome is None else outcome()

        if keyword == "if":
            outer = self.skipping()
            forced = self.forced.get(self.line)  # a way chosen by the caller (reading each way of a chain)
            decided = None if outer else (forced == 0) if forced is not None else decide()
            frame = _Branch(not outer and decided is not False, decided is True or outer, decided is not None)
            frame.start = self.line
            if decided is None and not outer:  # each branch is read from the variables as they are here
                frame.before, frame.line = {}, self.line
                frame.names = re.findall(r"\$\{?#?([A-Za-z_]\w*)", " ".join(w.text for w in condition))
            frames.append(frame)
            return
        if not frames:
            return
        frame = frames[-1]
        if frame.before is not None and keyword in ("elif", "else", "fi"):
            end = {name: self.vars.get(name) for name in frame.changed}
            if not frame.exits:
                frame.ends.append(end)
                frame.not_exiting.append(frame.index)
            frame.changed, frame.exits = set(), False
            frame.has_else = frame.has_else or keyword == "else"
            if keyword == "fi":
                self.join_branches(frame)
            else:
                self.vars.restore({name: frame.before[name] for name in end})
        if keyword == "fi":
            frames.pop()
            return
        frame.index += 1
        outer = any(not f.reading for f in frames[:-1])
        if not frame.decidable or outer:  # undecidable chain: every branch is read (or none, inside a skipped one)
            frame.reading = not outer
            return
        chosen = self.forced.get(frame.start)
        if chosen is not None:
            decided = frame.index == chosen
        else:
            decided = True if keyword == "else" else (None if frame.taken else decide())
        if decided is None and keyword == "elif" and not frame.taken:
            frame.reading, frame.decidable = True, False  # from here on the chain cannot be decided
            return
        frame.reading = not frame.taken and decided is True
        frame.taken = frame.taken or decided is True

    def way_words(self, value: str, depth: int) -> list[str]:
        """A branch's value split into words, a word left by an earlier undecided chain (``PERF_ARGS+=(...)`` under
        two ifs) standing for the options it holds (:meth:`options_of`)."""
        markers = sorted((m for m in self.ways if m in value), key=len, reverse=True)
        for k, m in enumerate(markers):
            value = value.replace(m, f"\x00{k}\x00")
        words = [w for w in _blank_split(value) if w]
        out: list[str] = []
        for w in words:
            for k, m in enumerate(markers):
                w = w.replace(f"\x00{k}\x00", m)
            out += self.options_of(w, depth + 1)
        return out

    def options_of(self, word: str, depth: int = 0) -> list[str]:
        """``word``, or where it is a branch-dependent variable whose value on every way through its chain is a run
        of options (``--a 1 --b``, ``key=value``), those options: each with the value every way gives it, or with a
        value naming the chain (unknown, like the variable) where the ways differ or some way leaves it out. A
        launch then reads what the branches agree on instead of a default the variable may override."""
        marker = next((m for m in self.ways if word.startswith(m)), None)
        if marker is None or depth > 4:
            return [word]
        ways = [_options(self.way_words(value, depth)) for value in self.ways[marker]]
        if not ways or any(way is None for way in ways):
            return [word]
        unknown_suffix = word[len(marker) :]
        out: list[str] = []
        for name in dict.fromkeys(name for way in ways for name, _ in way or []):
            values = [dict(way or []).get(name, _ABSENT) for way in ways]
            agreed = values[0] if all(v == values[0] for v in values) else _ABSENT
            if agreed is None or (agreed is _ABSENT and any(v is None for v in values)):
                if agreed is _ABSENT:  # a switch only some ways give: it cannot be written as unknown
                    self.note("shell.branch-dependent", f"{name}: {marker[2:-1]} gives it on some ways only; not read")
                    continue
                out.append(name)
                continue
            value = agreed if agreed is not _ABSENT else f"$({name.rstrip('=')} in {marker[2:]}{unknown_suffix}"
            out += [name + value] if name.endswith("=") else [name, value]
        return out

    def join_branches(self, frame: _Branch) -> None:
        """After an if-chain whose condition is not decided: a variable every way through it leaves the same is
        that value; one only a branch sets when it was unset before, under a condition that reads it
        (``if [ -z "$X" ]; then X=d; fi``), is a default the environment may override, like ``X=${X:-d}``; one the
        ways leave different depends on which branch runs, so it becomes unknown (a count built from it says so,
        naming the condition's variables)."""
        before = frame.before
        assert before is not None
        # each way through leaves a variable its branch did not change as it was before the chain
        ways = [{**before, **end} for end in frame.ends] + ([] if frame.has_else else [before])
        ways = ways or [before]  # every branch exits: what follows never runs, and is read as it was before
        # the branches a caller may choose to read the chain one way at a time (past the last: no branch runs)
        self.chains[frame.start] = frame.not_exiting + ([] if frame.has_else else [frame.index + 1])
        for name in before:
            values = {way[name] for way in ways}
            if len(values) == 1:
                value = values.pop()
                if value is None:
                    self.vars.pop(name, None)
                else:
                    self.vars[name] = value
                continue
            set_values = [v for v in values if v is not None]
            if before[name] is None and name in frame.names and len(set_values) == 1 and not frame.has_else:
                self.vars[name] = set_values[0]
                self.overridable.add(name)
                continue
            unset = [n for n in dict.fromkeys(frame.names) if n not in self.given]
            marker = f"$({name} set by the {frame.kind} at line {frame.line})"
            self.ways[marker] = [way[name] or "" for way in ways]
            unknown = marker + "".join(f"${{{n}}}" for n in unset)
            kept = self.kept_items(name, before[name], [way[name] for way in ways])
            if kept is not None:  # every way appends to what the array held: that stays, the tails are the ways
                self.ways[marker] = [(way[name] or "")[len(before[name] or "") :].strip() for way in ways]
                self.arrays[name] = [*kept, unknown]
                self.vars[name] = f"{before[name]} {unknown}"
            else:
                self.vars[name] = unknown
                self.arrays.pop(name, None)
            self.note(
                "shell.branch-dependent",
                f"{name} depends on which branch of the {frame.kind} at line {frame.line} runs "
                f"({', '.join(sorted(repr(v) if v is not None else 'unset' for v in values))}): unknown"
                + (f" (pass --env {'=... --env '.join(unset)}=... to decide it)" if unset else ""),
            )

    def kept_items(self, name: str, before: str | None, values: list[str | None]) -> list[str] | None:
        """The items an array held before an undecided chain when every way through it only appends to them
        (``CMD+=(--eval-interval 5)`` in an ``if``): the command stays known, only the appended options depend on the
        way. None when some way sets it otherwise, or it held nothing."""
        items = self.arrays.get(name)
        if not before or items is None:
            return None
        if not all(v is not None and (v == before or v.startswith(before + " ")) for v in values):
            return None
        count = next((k for k in range(len(items) + 1) if " ".join(items[:k]) == before), None)
        return items[:count] if count is not None else None

    def skipping(self) -> bool:
        return any(not frame.reading for frame in self.branches)

    def decided(self) -> bool:
        return bool(self.branches) and self.branches[-1].decidable

    def decide(self, condition: list[_Tok]) -> bool | None:
        """``[ ... ]``, ``[[ ... ]]`` or ``test ...`` with known operands: its truth; else None. A variable the
        script never sets, or sets only as a default the environment may override (``X=${X:-0}``), is not known:
        such a condition is left undecided (every branch is read)."""
        names = re.findall(r"\$\{?#?([A-Za-z_]\w*)", " ".join(w.text for w in condition))
        # whether an environment default is empty is decided even where its value is not (`[[ -z "$X" ]]`)
        texts = [w.text for w in condition]
        texts = texts[1:-1] if texts[:1] in (["["], ["[["]) and texts[-1:] in (["]"], ["]]"]) else texts[1:]
        texts = texts[1:] if texts[:1] == ["!"] else texts
        emptiness = len(texts) == 2 and texts[0] in ("-z", "-n") and len(set(names)) == 1
        emptiness = emptiness and texts[1].strip('"').startswith("$") and names[0] in self.never_empty
        if any(n not in self.vars or (n in self.overridable and n not in self.given and not emptiness) for n in names):
            return None
        saved = dict(self.unresolved)
        argv = [f for w in condition for f in _split(self.pieces(w.text, False))]
        self.unresolved = saved
        if argv[:1] == ["test"]:
            argv = argv[1:]
        elif argv[:1] in (["["], ["[["]) and argv[-1:] in (["]"], ["]]"]):
            argv = argv[1:-1]
        else:
            return None
        negate = argv[:1] == ["!"]
        argv = argv[1:] if negate else argv
        if any(symbolic_names(a) for a in argv) or len(argv) > 3:
            return None
        result: bool | None = None
        if len(argv) == 1:
            result = argv[0] != ""
        elif len(argv) == 2 and argv[0] in ("-n", "-z"):
            result = (argv[1] != "") == (argv[0] == "-n")
        elif len(argv) == 2 and argv[0] in ("-f", "-d", "-e") and self.listing is not None and argv[1]:
            # a path of the project (its checkout is the user's): there or not; elsewhere undecided
            if not set("*?[") & set(argv[1]):
                found = self.listing(argv[1], self.cwd, argv[0])
                result = None if found is None else bool(found)
        elif len(argv) == 3 and argv[1] in ("=", "==", "!=") and not re.search(r"[*?\[]", argv[2]):
            result = (argv[0] == argv[2]) == (argv[1] != "!=")
        elif len(argv) == 3 and argv[1] in _INT_TESTS and all(re.fullmatch(r"-?\d{1,18}", a) for a in argv[::2]):
            result = _INT_TESTS[argv[1]](int(argv[0]), int(argv[2]))
        if result is None:
            return None
        self.note(
            "shell.condition-decided",
            f"condition {' '.join(w.text for w in condition)} is "
            f"{'false' if result == negate else 'true'} here (its operands are known)",
        )
        return result != negate

    def decide_joined(self, first: list[_Tok]) -> bool | None:
        """A condition of tests joined by ``&&`` and ``||`` (``[ -n "$X" ] && [ "$X" != no ]``), the first's words
        given, the rest read from the tokens after it up to the end of the line: bash evaluates them left to right
        with equal precedence. Known where each test that can change the outcome is decided (``false && ?`` is
        false, ``true || ?`` true); else None."""
        result, i = self.decide(first), self.after_command
        while i < len(self.toks) and self.toks[i].kind == "op" and self.toks[i].text in ("&&", "||"):
            joiner, i = self.toks[i].text, i + 1
            test = []
            while i < len(self.toks) and self.toks[i].kind == "word":
                test.append(self.toks[i])
                i += 1
            if not test or test[0].text in ("then", "do"):
                return None
            if (joiner == "&&" and result is False) or (joiner == "||" and result is True):
                continue  # bash does not run it: the outcome stands
            decided = self.decide(test)
            if joiner == "&&":
                result = False if decided is False else None if None in (result, decided) else True
            else:
                result = True if decided is True else None if None in (result, decided) else False
        return result

    def open_loop(self, words: list[_Tok]) -> bool:
        """A loop opens (its ``done`` closes it). A ``while``/``until`` whose condition is decided (its operands
        known, like ``[[ $# -gt 0 ]]`` with no script arguments) and false for ``while`` (true for ``until``)
        never runs its body: the body is skipped like an if-branch not taken. Whether the condition was decided."""
        kw = words[0].text
        decided = None
        rounds = self.line_rounds(words) if kw == "while" and not self.skipping() else None
        if rounds is not None:
            decided = bool(rounds.items)
        elif kw in ("while", "until") and not self.skipping():
            decided = self.decide(words[1:])
        runs = decided is not None and decided == (kw == "while")
        if decided is not None and rounds is None:
            self.note(
                "shell.control-flow-skipped",
                f"`{kw}` loop body " + ("read once" if runs else "not read: the loop never runs here"),
            )
        self.loops.append(decided is not None and not runs)
        if decided is not None and not runs:
            self.branches.append(_Branch(reading=False, taken=False, decidable=True))
        # an argument loop (its condition reads $# or $1) is read again while it holds, each round on the
        # arguments its `shift` left
        argument_loop = kw == "while" and runs and re.search(r"\$\{?[#1]", " ".join(w.text for w in words[1:]))
        self.replays.append((self.after_command, words[1:], 1, len(self.arguments())) if argument_loop else None)
        if rounds is not None and runs:
            self.start_rounds(rounds)
        return decided is not None

    def line_rounds(self, words: list[_Tok]) -> _Rounds | None:
        """``while [IFS=] read [-r] NAME; do ... done < FILE`` (or ``< <(cat FILE)``, ``< <(grep ... FILE)``, or a
        function printing such a file): a round per line of the project file, NAME each line as ``read`` sets it
        (blanks at its ends trimmed unless ``IFS=``; a last line with no newline ends the loop unread, as ``read``
        fails there). None when the input or a line's value is not known (a backslash without ``-r``)."""
        shape = _READ_LINE.fullmatch(" ".join(w.text for w in words[1:]))
        end = self.loop_end(self.after_command)
        if shape is None or end is None or end + 2 >= len(self.toks):
            return None
        if self.toks[end + 1].text != "<" or self.toks[end + 2].kind != "word":
            return None
        source = self.toks[end + 2].text
        printed = self.printed(source[2:-1]) if source.startswith("<(") and source.endswith(")") else None
        if printed is None and not source.startswith("<("):
            found = self.project_file(self.value(source))
            printed = found[0] if found is not None else None
        if printed is None:
            return None
        lines = printed.split("\n")[:-1]  # the text after the last newline is never a round
        if shape.group(1) is None:
            lines = [line.strip(" \t") for line in lines]
        if (shape.group(2) is None and any("\\" in line for line in lines)) or len(lines) > _MAX_ARGUMENT_ROUNDS:
            return None
        self.note("shell.file-read", f"`while read` loop over the {len(lines)} line(s) of {source}, read once per line")
        return _Rounds(self.after_command, shape.group(3), lines)

    def loop_end(self, start: int) -> int | None:
        """The index of the ``done`` that closes the loop whose ``do`` comes first from token ``start``."""
        depth = 0
        for k in range(start, len(self.toks)):
            tok, before = self.toks[k], self.toks[k - 1]
            if tok.kind != "word" or (before.kind == "word" and before.text not in ("do", "then", "else", "{")):
                continue  # only a word in command position opens or closes a loop's body
            depth += (tok.text == "do") - (tok.text == "done")
            if depth == 0 and tok.text == "done":
                return k
        return None

    def function_output(self, body: str) -> str | None:
        """What ``$(NAME ARGS)`` prints, NAME a function of the script: its body read with ARGS as $1, $2, ... in a
        subshell (what it sets is gone after), the lines ``echo``/``printf`` print collected up to a ``return``.
        None when its output is not decided: it runs another command, or a branch or loop of its own is not
        decided. Nothing is run."""
        tokens = _Lexer(body, self.source, []).tokens()
        if not tokens or any(t.kind != "word" for t in tokens) or tokens[0].text not in self.functions:
            return None
        name = tokens[0].text
        place = {name: getattr(self, name) for name in _COMMAND_STATE}  # the command whose word this is
        args = [f for t in tokens[1:] for f in self.fields(t)]
        before = dict(self.vars)
        kept = (dict(self.arrays), dict(self.tainted), set(self.overridable), set(self.never_empty), self.cwd)
        outer, notes, called = self.capture, len(self.notes), set(self.called)
        capture = self.capture = _Capture(len(self.branches), len(self.loops))
        self.unresolved = {}
        try:
            self.call(name, args, *self.functions[name])
        finally:
            self.capture = outer
            used = self.unresolved  # unset names the function's output was built from: the outer command's too
            for attribute, value in place.items():
                setattr(self, attribute, value)
            self.unresolved.update(used)
            self.vars.restore(
                {k: before.get(k) for k in set(before) | set(self.vars) if self.vars.get(k) != before.get(k)}
            )
            self.arrays, self.tainted, self.overridable, self.never_empty, self.cwd = kept
            del self.notes[notes:]
        if capture.unknown:
            self.called = called  # its body is read at the end as commands that may run, as before
            return None
        output = "".join(capture.printed).rstrip("\n")  # bash drops a substitution's trailing newlines
        self.note("shell.function-output", f"$({body}) is {output!r}: what function {name} prints (its body read)")
        return output

    def captured(self, words: list[_Tok]) -> bool:
        """Inside a function run for its output (:meth:`function_output`): take a command that prints, returns or
        tests (True); another command leaves the output unknown (True: it is not read as run); assignments and
        function calls are read as usual (False)."""
        capture = self.capture
        assert capture is not None
        if any(not frame.decidable for frame in self.branches[capture.branches :]) or len(self.loops) > capture.loops:
            capture.unknown = True
        words = list(itertools.dropwhile(lambda w: w.text in _OPENERS or w.text in _CLOSERS or w.text == "elif", words))
        rest = list(itertools.dropwhile(lambda w: _ASSIGN.match(w.text), words))
        if not rest or rest[0].text in _DECLARE or rest[0].text in self.functions:
            return False
        argv = [f for w in rest for f in self.fields(w)]
        if argv[0] == "return":
            capture.returned = True
        elif argv[0] in ("echo", "printf") and self.output_elsewhere:
            pass  # printed to stderr or a file: not the substitution's output
        elif argv[0] == "echo" and not any(a.startswith("-") or "\\" in a for a in argv[1:2]):
            capture.printed.append(" ".join(argv[1:]) + "\n")
        elif argv[0] == "printf" and len(argv) == 3 and argv[1] in ("%s", "%s\\n", "%d", "%d\\n"):
            capture.printed.append(argv[2] + ("\n" if argv[1].endswith("\\n") else ""))
        elif argv[0] not in ("[", "[[", "test", "true", ":"):
            capture.unknown = True
        return True

    def printed(self, command: str) -> str | None:
        """What a process substitution's command prints when that is a project file's lines: ``cat FILE``, ``grep
        [-v] [-E] PATTERN FILE`` (every line it prints ends with a newline), or a call of a function whose body
        runs one such command on its arguments. None for anything else."""
        words = [t for t in _Lexer(command, self.source, []).tokens() if t.kind == "word"]
        if not words:
            return None
        if words[0].text in self.functions:
            toks, first, last, _ = self.functions[words[0].text]
            body = toks[first + 1 : last]
            runs = [k for k, t in enumerate(body) if t.kind == "word" and t.text in ("cat", "grep")]
            if len(runs) != 1:
                return None
            self.called.add(words[0].text)
            stop = next((k for k in range(runs[0], len(body)) if body[k].kind != "word"), len(body))
            with self.arguments_as([self.value(w.text) for w in words[1:]]):
                argv = [self.value(w.text) for w in body[runs[0] : stop]]
        else:
            argv = [self.value(w.text) for w in words]
        return self.printed_lines(argv)

    def printed_lines(self, argv: list[str]) -> str | None:
        """The text ``cat FILE`` or ``grep [-v] [-E] PATTERN FILE`` prints (a project file), or None."""
        if len(argv) == 2 and argv[0] == "cat":
            found = self.project_file(argv[1])
            return found[0] if found is not None else None
        flags = [a for a in argv[1:-2] if a.startswith("-")]
        if argv[0] != "grep" or len(argv) < 3 or len(flags) != len(argv) - 3 or set("".join(flags)) - set("-vE"):
            return None
        pattern = _posix_classes(argv[-2]) if "E" in "".join(flags) else argv[-2]
        if "E" not in "".join(flags) and re.search(r"[\\(){}|+?]", pattern):
            return None  # a basic regular expression whose syntax Python's differs from
        found = self.project_file(argv[-1])
        try:
            matcher = re.compile(pattern)
        except re.error:
            return None
        if found is None:
            return None
        lines = found[0].split("\n")
        if found[0].endswith("\n"):
            lines.pop()  # the newline ends the last line; no empty line follows it
        invert = "v" in "".join(flags)
        return "".join(line + "\n" for line in lines if bool(matcher.search(line)) != invert)

    def start_rounds(self, rounds: _Rounds) -> None:
        """Read a loop's body once per item (:class:`_Rounds`), starting with the first."""
        self.vars[rounds.name] = rounds.items[0]
        self.replays[-1] = rounds
        self.rounds_left -= 1

    def next_round(self, rounds: _Rounds) -> None:
        """At a loop's ``done``: the next item's round, or after the last, the commands of the rounds after the
        first dropped."""
        if rounds.index == 0:
            rounds.first_commands = len(self.commands)
        if rounds.index + 1 >= len(rounds.items) or self.rounds_left <= 0:
            del self.commands[rounds.first_commands :]
            if rounds.index + 1 < len(rounds.items):
                self.note(
                    "shell.control-flow-skipped",
                    f"loops read for more than {_MAX_LOOP_ROUNDS} rounds: "
                    f"`{rounds.name}` stops at item {rounds.index + 1}",
                )
            return
        self.rounds_left -= 1
        self.vars[rounds.name] = rounds.items[rounds.index + 1]
        self.loops.append(False)
        self.replays.append(replace(rounds, index=rounds.index + 1))
        self.jump_to = rounds.start

    def replay(self, loop: tuple[int, list[_Tok], int, int] | _Rounds | None) -> None:
        """At an argument loop's ``done``: read its body again while its condition holds and its ``shift`` used up
        arguments (at most ``_MAX_ARGUMENT_ROUNDS`` rounds)."""
        if loop is None or self.skipping():
            return
        if isinstance(loop, _Rounds):
            return self.next_round(loop)
        start, condition, rounds, left = loop
        now = len(self.arguments())
        if now >= left or rounds >= _MAX_ARGUMENT_ROUNDS or self.decide(condition) is not True:
            return
        self.loops.append(False)
        self.replays.append((start, condition, rounds + 1, now))
        self.jump_to = start

    def open_case(self, subject: _Tok | None) -> None:
        """``case WORD in``: its branches are an if-chain. With WORD's value known, the first pattern it matches
        decides the branch read; otherwise every branch is read, and a variable the branches leave different is
        unknown (as after an undecided ``if``)."""
        value = None
        if subject is not None and not self.skipping():
            saved = dict(self.unresolved)
            self.unresolved = {}
            value = self.value(subject.text)
            known = not self.unresolved and not symbolic_names(value)
            self.unresolved = saved
            value = value if known else None
        if not self.skipping():
            if value is None:
                self.note("shell.control-flow-skipped", "`case` not decided; every branch is read in order")
            else:
                self.note(
                    "shell.condition-decided",
                    f"case {subject.text if subject else ''} is {value!r} here: the branch of the first pattern it "
                    "matches is read",
                )
        names = re.findall(r"\$\{?#?([A-Za-z_]\w*)", subject.text) if subject is not None else []
        self.cases.append(_Case(value, names, self.line))

    def case_pattern(self, words: list[str]) -> None:
        """A branch's pattern ``a|b)``: whether the case's subject matches it (None: not known)."""
        if not self.cases:
            return
        case = self.cases[-1]
        subject, opened = case.subject, case.opened
        alternatives = [self.value(w) for w in words if w not in ("|", "(")]
        catch_all = any(a == "*" for a in alternatives)
        matched: bool | None = None
        if subject is not None and not any(symbolic_names(a) for a in alternatives):
            matched = any(fnmatch.fnmatchcase(subject, a) for a in alternatives)
        keyword = "elif" if opened else "if"
        if catch_all and opened and subject is None:
            keyword = "else"  # `*)` after other patterns: what runs when none matched
        outcome = True if catch_all else matched
        self.branch(keyword, [], lambda: outcome)
        if not opened and self.branches:
            frame = self.branches[-1]
            frame.kind, frame.names, frame.line = "case", case.names, case.line
        case.opened = True

    def close_case(self) -> None:
        if self.cases.pop().opened:
            self.branch("fi", [])

    def for_loop(self, words: list[_Tok]) -> None:
        texts = [w.text for w in words]
        if len(texts) >= 3 and texts[2] == "in":
            self.unresolved = {}
            items = [f for w in words[3:] for f in self.globbed(w)]
            name = texts[1]
            if items:
                self.vars[name] = items[0]
                self.taint(name, self.unresolved)
            if texts[0] == "for" and len(items) > 1 and self.replays and len(items) <= self.rounds_left:
                self.start_rounds(_Rounds(self.after_command, name, items))
                self.note(
                    "shell.control-flow-skipped",
                    f"`for {name}` loop over {len(items)} items read once per item (the commands of its first round)",
                )
                return
            self.note(
                "shell.control-flow-skipped",
                f"`for {name}` loop over {len(items)} item(s) read once"
                + (f" with {name}={items[0]!r}" if items else "; the variable stays unset"),
            )
        else:
            self.note("shell.control-flow-skipped", f"`{' '.join(texts[:2])}` loop not evaluated; body read once")

    def taint(self, name: str, names: Iterable[str]) -> None:
        if names:
            self.tainted[name] = set(names)
        else:
            self.tainted.pop(name, None)

    def assign(self, w: _Tok) -> None:
        m = _ASSIGN.match(w.text)
        assert m is not None
        if m.group(2):
            return  # element assignment A[i]=x: arrays are kept only as joined strings
        name, raw = self.namerefs.get(m.group(1), m.group(1)), w.text[m.end() :]
        self.line = w.line
        if self.gpu_count_unknown(name, raw) or self.left_to_fill_in(name, raw, w.line):
            return
        outer, self.unresolved = self.unresolved, {}
        items: list[str] | None = None
        if raw.startswith("(") and raw.endswith(")"):  # array: its elements, and the space-joined text
            inner = _Lexer(raw[1:-1], self.source, self.notes).tokens()
            for t in inner:
                t.line += w.line - 1
            self.unrun_words = False
            items = [f for t in inner if t.kind == "word" for f in self.globbed(t)]
            if self.unrun_words:  # NAME=($(cmd)): as many elements as cmd prints words
                self.uncounted.add(name)
            else:
                self.uncounted.discard(name)
            self.refuse_long_array(name, len(items))
            value = " ".join(items)
        else:
            value = self.value(raw)
        if m.group(3) and name in self.vars:  # +=
            value = self.vars[name] + (" " if items is not None and self.vars[name] else "") + value
            if items is not None:
                held = self.vars[name]
                # an array an undecided chain left unknown is one unknown element, not the words of its marker
                known = [held] if any(held.startswith(m) for m in self.ways) else held.split()
                items = self.arrays.get(name, known) + items
                self.refuse_long_array(name, len(items))
            elif len(value) > MAX_VALUE_CHARS:
                self.spend([(value, False)])  # the same message as for any value past the limit
        self.vars[name] = value
        default = _DEFAULTED.match(raw)
        if default and default.group(1) == name:
            self.overridable.add(name)
        else:
            self.overridable.discard(name)
        # X=${X:-d} with d not empty: whatever the environment holds, X is not empty (`:-` replaces an empty one)
        if default and default.group(1) == name and ":-" in raw and value and not symbolic_names(value):
            self.never_empty.add(name)
        else:
            self.never_empty.discard(name)
        if items is not None:
            self.arrays[name] = items
        else:
            self.arrays.pop(name, None)
        self.taint(name, self.unresolved)
        self.unresolved = outer | self.unresolved

    def left_to_fill_in(self, name: str, raw: str, line: int) -> bool:
        """``KEY=""  # Provide your key here``: an empty value whose comment asks the user to fill it in, or an empty
        secret (``WANDB_KEY=""``, ``HF_TOKEN=""``), is a placeholder, not the empty string the script runs with: NAME
        is left unset (a word built from it is unknown, naming NAME), or keeps the value --env gave it."""
        if raw not in ("", '""', "''"):
            return False
        text = self.text_lines[line - 1] if 0 < line <= len(self.text_lines) else ""
        comment = text.partition("#")[2] if "#" in text else ""
        # a secret is never committed: an empty API key or token is one the user supplies
        if not _FILL_IN.search(comment) and not _SECRET_NAME.search(name):
            return False
        if name in self.given:
            self.vars[name] = self.given[name]
            return True
        for table in (self.vars, self.arrays, self.tainted):
            table.pop(name, None)
        why = f"#{comment}" if comment else "a secret's name"
        self.note("shell.placeholder", f"{name} is left empty for the user to fill in ({why}); read as unknown")
        return True

    def gpu_count_unknown(self, name: str, raw: str) -> bool:
        """``NAME=$(nvidia-smi -L | wc -l)`` and the like, when the count is not known statically: NAME is left
        unset (a count built from it is unknown, naming NAME), or keeps the value --env gave it."""
        body = raw[1:-1] if raw[:1] == raw[-1:] == '"' else raw
        if not (body.startswith("$(") and body.endswith(")")):
            return False
        inner = body[2:-1]
        if not (_MACHINE_GPUS.fullmatch(inner) or (_VISIBLE_GPUS.fullmatch(inner) and self.expr(inner) is None)):
            return False
        if name in self.given:
            self.vars[name] = self.given[name]
            self.note(
                "shell.gpu-count",
                f"{name}={raw} counts the GPUs where the script runs; --env {name}={self.given[name]} is used",
            )
            return True
        self.vars.pop(name, None)
        self.arrays.pop(name, None)
        self.tainted.pop(name, None)
        self.note(
            "shell.gpu-count",
            f"{name}={raw} counts the GPUs of the machine the script runs on, which is not "
            f"known here; pass --env {name}=N (or --num-processes N)",
        )
        return True

    def globbed(self, w: _Tok) -> list[str]:
        """:meth:`fields`, with a field holding a glob pattern that bash expands (in the word's unquoted text,
        ``configs/*.yaml``, or in what an unquoted expansion gave, ``$ARGS`` holding ``--tag *``) replaced by the files
        it matches in bash's sorted order, where the project's files are at hand; no match keeps the pattern (bash
        without nullglob)."""
        self.line = w.line
        pieces = self.spend(self.pieces(w.text, False))
        fields = _split(pieces)
        expanded = any(splittable and _GLOB.search(text) for text, splittable in pieces)
        if self.listing is None or not (expanded or _GLOB.search(_unquoted(w.text))):
            return fields
        out: list[str] = []
        for word in fields:
            found = self.listing(word, self.cwd, None) if _GLOB.search(word) else None
            if found:
                shown = ", ".join(found[:3]) + (", …" if len(found) > 3 else "")
                self.note("shell.glob", f"{word} matches {len(found)} path(s) here: {shown}")
            out.extend(found or [word])
        return out

    def listed(self, words: list[str]) -> str | None:
        """The output of ``find DIR -maxdepth 1 [-mindepth 1] [-type f|d] -name PAT`` or ``ls [-1] PATTERN...`` over
        the project's files (sorted by name: find's own order is the file system's), or None."""
        if self.listing is None or not words:
            return None
        if words[0] == "ls" and len(words) > 1:
            patterns = [w for w in words[1:] if w not in ("-1", "-d")]
            if not patterns or any(w.startswith("-") or not _GLOB.search(w) for w in patterns):
                return None
            found = [p for pattern in patterns for p in self.listing(pattern, self.cwd, None) or []]
        elif words[0] == "find" and len(words) > 2 and not words[1].startswith("-"):
            options = dict(zip(words[2::2], words[3::2], strict=False))
            if len(words[2:]) % 2 or set(options) - {"-maxdepth", "-mindepth", "-type", "-name"}:
                return None
            if options.get("-maxdepth") != "1" or options.get("-mindepth", "1") != "1" or "-name" not in options:
                return None
            kind = options.get("-type")
            if kind not in (None, "f", "d"):
                return None
            found = self.listing(posixpath.join(words[1], options["-name"]), self.cwd, kind) or []
            self.note("shell.glob", f"find {words[1]} lists {len(found)} path(s), read in name order")
        else:
            return None
        return "\n".join(found) if found else None

    def fields(self, w: _Tok) -> list[str]:
        self.line = w.line
        return _split(self.spend(self.pieces(w.text, False)))

    def value(self, raw: str) -> str:
        """Expansion without word splitting (assignment values, patterns)."""
        return "".join(t for t, _ in self.spend(self.pieces(raw, False)))

    def spend(self, pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
        """``pieces`` if joining them stays within the limits, else ConfigError naming the line. Pieces share the
        variables' strings, so they cost little until joined: checked here, before the join makes the text."""
        size = len(pieces) + sum(len(text) for text, _ in pieces)
        self.expanded += size
        if size > MAX_VALUE_CHARS:
            raise ConfigError(
                f"a word or value expands to more than {MAX_VALUE_CHARS:,} characters (a variable "
                "doubled again and again, like X=$X$X?)",
                file=self.source,
                line=self.line,
                hint="a launch script's values are short: write the value out",
            )
        if self.expanded > MAX_EXPANDED_CHARS:
            raise ConfigError(
                f"the script's expansions add up to more than {MAX_EXPANDED_CHARS:,} characters "
                "(a long value used again and again?)",
                file=self.source,
                line=self.line,
                hint="a launch script expands to about its own size: write the values out",
            )
        return pieces

    def refuse_long_array(self, name: str, length: int) -> None:
        if length > MAX_ARRAY_ITEMS:
            raise ConfigError(
                f"array {name} grows past {MAX_ARRAY_ITEMS:,} elements (doubled again and again, like "
                f'{name}=("${{{name}[@]}}" "${{{name}[@]}}")?)',
                file=self.source,
                line=self.line,
                hint="a launch script's arrays are short: list the elements",
            )

    def missing(self, name: str) -> None:
        self.unresolved[name] = None

    def pieces(self, s: str, quoted: bool) -> list[tuple[str, bool]]:
        """Expand ``s`` into (text, splittable) pieces; ``quoted`` means inside double quotes."""
        out: list[tuple[str, bool]] = []
        i, n = 0, len(s)
        while i < n:
            c = s[i]
            if c == "\\":
                nxt = s[i + 1 : i + 2]
                if quoted and nxt not in ("$", "`", '"', "\\", "\n"):
                    out.append(("\\", False))  # inside "..." a backslash only escapes $ ` " \ newline
                    i += 1
                    continue
                out.append(("" if nxt == "\n" else nxt, False))
                i += 2
            elif c == "'" and not quoted:
                j = _end_of(s, i)
                out.append((s[i + 1 : j - 1], False))
                i = j
            elif c == "$" and s[i + 1 : i + 2] == "'" and not quoted:
                j = _end_of(s, i)
                body = re.sub(r"\\(.)", lambda m: _ANSI.get(m.group(1), m.group(0)), s[i + 2 : j - 1])
                out.append((body, False))
                i = j
            elif c == '"' and not quoted:
                j = _end_of(s, i)
                inner = s[i + 1 : j - 1]
                whole_array = re.fullmatch(r"\$\{(\w+)\[@\]\}", inner)
                empty_array = whole_array is not None and self.arrays.get(whole_array.group(1)) == []
                # "$@" with no arguments, and "${A[@]}" of an empty array, are no word at all (bash)
                if inner not in ("$@", "${@}") and not empty_array:
                    out.append(("", False))
                out.extend((t, False) for t, _ in self.pieces(inner, True))
                i = j
            elif c == "`" or (s.startswith("$(", i) and not s.startswith("$((", i)):
                j = _end_of(s, i)
                inner = s[i + 2 : j - 1] if c == "$" else s[i + 1 : j - 1]
                result = self.expr(inner)
                if result is None:
                    result = self.function_output(inner)
                if result is None:
                    self.note("shell.command-substitution", f"{s[i:j]} is not run; kept as text")
                    self.unrun_words = self.unrun_words or not quoted  # its output's words are not known
                # an unquoted result splits into words like any expansion (a file list)
                out.append((s[i:j], False) if result is None else (result, not quoted))
                i = j
            elif c == "$":
                i = self.dollar(s, i, quoted, out)
            else:  # bare text splits only where it has blanks: the unquoted default of ${A:-x y}
                m = (_BARE_QUOTED if quoted else _BARE).match(s, i)  # the whole run (word splitting is the same)
                assert m is not None
                out.append((m.group(), not quoted))
                i = m.end()
        return out

    def expr(self, body: str) -> str | None:
        """The output of a substitution whose result is pure string or number work, else None (no other command
        is run or imitated): ``expr A OP B`` on whole numbers (scripts compute token budgets so), ``dirname X``,
        ``basename X``, ``realpath X`` / ``readlink -f X`` (symbolic links are not followed), and ``cd DIR && pwd``
        (the script-folder idiom ``$(cd "$(dirname "$0")/.." && pwd)``), kept relative to the directory the script
        runs in."""
        if heredoc := _CAT_HEREDOC.fullmatch(body.strip()):  # $(cat <<EOF … EOF): the text, expanded unless quoted
            strip_tabs, literal, text = heredoc["dash"], heredoc["quote"], heredoc["text"]
            if strip_tabs:
                text = re.sub(r"(?m)^\t+", "", text)
            return text if literal else "".join(t for t, _ in self.pieces(text.replace('"', '\\"'), True))
        quoted = _PRINTF_QUOTED.match(body.strip())
        if quoted:  # printf '%q ' WORDS: each word quoted for the shell, joined (a command built to run later)
            tokens = _Lexer(quoted.group(1), self.source, []).tokens()
            fields = [o for t in tokens if t.kind == "word" for f in self.fields(t) for o in self.options_of(f)]
            return " ".join(f if symbolic_names(f) else shlex.quote(f) for f in fields) + " "
        nodes = self.vars.get("SLURM_JOB_NUM_NODES", "")
        if _ALLOCATION_HOSTS.fullmatch(body) and nodes.isdigit():  # the hosts are not known, their number is
            return "\n".join(f"$(host{k}-of-the-allocation)" for k in range(1, int(nodes) + 1))
        if _VISIBLE_GPUS.fullmatch(body):
            visible = self.use("CUDA_VISIBLE_DEVICES")
            if visible is not None and not symbolic_names(visible) and not self.tainted.get("CUDA_VISIBLE_DEVICES"):
                return str(len([d for d in visible.split(",") if d.strip()]))
            return None
        tokens = _Lexer(body, self.source, []).tokens()
        if not any(t.kind == "word" for t in tokens):
            return ""  # `# a comment` inside a continued command: a substitution of nothing, as bash runs it
        # output sent to /dev/null changes no result: `cd -- DIR &>/dev/null && pwd`
        quiet = {i for i, t in enumerate(tokens[1:], 1) if t.text == "/dev/null" and tokens[i - 1].text in _QUIET}
        tokens = [t for i, t in enumerate(tokens) if i not in quiet and i + 1 not in quiet]
        if (text := self.file_text(tokens)) is not None:
            return text
        if (text := self.echo_filters(tokens)) is not None:
            return text
        if any(t.kind == "op" and t.text not in ("&&", ";") for t in tokens):
            return None
        words = [self.value(t.text) for t in tokens if t.kind == "word"]
        if words[:2] == ["cd", "--"] or (words[:1] in (["dirname"], ["basename"]) and words[1:2] == ["--"]):
            words = words[:1] + words[2:]
        if any(symbolic_names(w) for w in words):
            return None
        if words[:1] == ["expr"] and len(words) == 4:
            return _expr(*words[1:])
        if len(words) == 3 and words[:2] in (["readlink", "-f"], ["readlink", "-e"], ["readlink", "-m"]):
            words = ["realpath", words[2]]
        if len(words) == 2 and words[0] == "realpath":  # paths stay relative to where the script runs, as with pwd
            return posixpath.normpath(words[1])
        if len(words) == 2 and words[0] in ("dirname", "basename"):
            path = words[1].rstrip("/") or "/"
            return (posixpath.dirname(path) or ".") if words[0] == "dirname" else posixpath.basename(path)
        if len(words) == 3 and words[0] == "basename":  # basename PATH SUFFIX: the suffix cut, unless it is all
            name = posixpath.basename(words[1].rstrip("/") or "/")
            return name[: -len(words[2])] if words[2] and name.endswith(words[2]) and name != words[2] else name
        if len(words) == 3 and words[0] == "cd" and words[2] == "pwd":
            return posixpath.normpath(words[1])
        if words == ["pwd"]:
            return self.cwd or "."
        return self.listed(words)

    def echo_filters(self, tokens: list[_Tok]) -> str | None:
        """The output of ``echo WORDS | FILTER | ...`` where each filter is a ``sed``, ``cut`` or ``tr`` that
        textfilter computes exactly: the words joined by a space, run through them. None for anything else."""
        shape = [t.text if t.kind == "op" else "W" for t in tokens]
        if "|" not in shape or any(k not in ("W", "|") for k in shape):
            return None
        commands: list[list[str]] = [[]]
        for t, kind in zip(tokens, shape, strict=True):
            if kind == "|":
                commands.append([])
            else:
                commands[-1].append(self.value(t.text))
        if commands[0][:1] != ["echo"] or any(symbolic_names(w) for words in commands for w in words):
            return None
        if commands[0][1:2] == ["-n"] or not all(commands[1:]):
            return None
        return run_filters(commands[1:], " ".join(commands[0][1:]))

    def file_text(self, tokens: list[_Tok]) -> str | None:
        """The output of a substitution that prints a project file's text: ``cat FILE``, ``< FILE``, ``head -n 1
        FILE`` (or ``head -1``), ``tr -d '[:space:]' < FILE`` (the blanks dropped), with its trailing newlines cut as
        ``$(...)`` cuts them; the file is read bounded, never run. None for anything else."""
        shape = [t.text if t.kind == "op" else "W" for t in tokens]
        words = [self.value(t.text) for t in tokens if t.kind == "word"]
        if shape == ["W", "W"] and words[0] == "cat":
            path, keep = words[1], None
        elif shape == ["<", "W"]:
            path, keep = words[0], None
        elif words[:1] == ["head"] and "<" not in shape and words[1:-1] in (["-1"], ["-n1"], ["-n", "1"]):
            path, keep = words[-1], "first"
        elif shape == ["W", "W", "W", "<", "W"] and words[:2] == ["tr", "-d"] and words[2] in _TR_SETS:
            path, keep = words[3], words[2]
        else:
            return None
        found = self.project_file(path)
        if found is None:
            return None
        text = found[0]
        if keep == "first":
            text = text.split("\n", 1)[0]
        elif keep is not None:
            text = "".join(c for c in text if c not in _TR_SETS[keep])
        self.note("shell.file-read", f"$(...) prints {found[1]}'s text, read here (never run)")
        return text.rstrip("\n")

    def project_file(self, path: str) -> tuple[str, str] | None:
        """(text, name) of the project file ``path`` names, read bounded: None for a path not known, one outside the
        project (the machine's, like the author's /home/me/x, not the script's), or a file past ``_MAX_FILE_TEXT``."""
        if self.include is None or symbolic_names(path):
            return None
        found = self.include(path, self.cwd, inside=True)
        return found if found is not None and len(found[0]) <= _MAX_FILE_TEXT else None

    def dollar(self, s: str, i: int, quoted: bool, out: list[tuple[str, bool]]) -> int:
        if s.startswith("$((", i):
            j = _end_of(s, i)
            out.append((self.arith(s[i:j], s[i + 3 : j - 2]), False))
            return j
        if s.startswith("${", i):
            j = _end_of(s, i)
            out.extend(self.param(s[i + 2 : j - 1], quoted))
            return j
        if s.startswith('$"', i):
            return i + 1  # $"..." (locale translation) is an ordinary double-quoted string here
        m = _NAME.match(s, i + 1)
        if not m:
            out.append(("$", False))
            return i + 1
        out.extend(self.param(m.group(), quoted))
        return m.end()

    def use(self, name: str) -> str | None:
        """The value of ``name`` (None if unset), carrying its taint into the current command."""
        if name in ("@", "*", "#"):
            args = self.arguments()
            if not args:
                self.note(
                    "shell.positional-args",
                    f"${name}: the script's arguments are not known; treated as "
                    "none (pass --env 1=VALUE --env 2=VALUE ... for the ones it is run with)",
                )
            return str(len(args)) if name == "#" else " ".join(args)
        if name == "BASH_SOURCE":  # ${BASH_SOURCE[0]}: the file being read (a sourced one's own name)
            return self.source
        if name == "0":  # the script bash runs: in a sourced file, the one that sourced it
            return self.program
        if name.isdigit():
            return self.given.get(name)  # --env 1=VALUE: the argument the script is run with
        if name in ("$", "?", "!", "-"):
            return ""  # process state: meaningless statically, and never an error
        if name == "PWD" and name not in self.vars:  # where the script runs, kept relative like `cd X && pwd`
            return self.cwd or "."
        for origin in sorted(self.tainted.get(name, ())):
            self.missing(origin)
        return self.vars.get(name)

    def arguments(self) -> list[str]:
        """The script's arguments as --env gave them (1=..., 2=..., numbered from 1 without a gap)."""
        args: list[str] = []
        while str(len(args) + 1) in self.given:
            args.append(self.given[str(len(args) + 1)])
        return args

    def param(self, inner: str, quoted: bool) -> list[tuple[str, bool]]:
        split = not quoted
        if re.fullmatch(r"#(?:[A-Za-z_]\w*|\d+)(?:\[[@*]\])?", inner):
            m = _PARAM.match(inner, 1)
            assert m is not None
            value = self.use(m.group(1))
            if value is None:  # never set here (a `read -a`, the environment): its length is not known, not 0
                self.missing(m.group(1))
                return [("$((${" + inner + "}))", False)]  # arithmetic kept as text: symbolic, naming the variable
            if m.group(2) and m.group(1) in self.uncounted:
                self.note("shell.command-substitution", f"${{{inner}}}: {m.group(1)} holds a command's words")
                return [("$((${" + inner + "}))", False)]
            if m.group(2):
                return [(str(len(self.arrays.get(m.group(1), value.split()))), split)]
            return [(str(len(value)), split)]
        m = _PARAM.match(inner)
        if not m:
            self.note("shell.unsupported-expansion", f"${{{inner}}} not understood; kept as text")
            return [("${" + inner + "}", False)]
        name, sub, rest = self.namerefs.get(m.group(1), m.group(1)), m.group(2), inner[m.end() :]
        if name in ("@", "*") and not rest:
            self.use(name)
            args = self.arguments()
            return [piece for k, a in enumerate(args) for piece in [(_BREAK, True)] * (k > 0) + [(a, split)]]
        value = self.use(name)
        elements = self.arrays.get(name)
        if sub and sub[1:-1] in ("@", "*"):
            self.array_references.add(name)
        if value is not None and sub and sub[1:-1] == "@" and not rest and elements is not None:
            pieces: list[tuple[str, bool]] = []
            for k, item in enumerate(elements):  # "${A[@]}": one word per element
                pieces += [(_BREAK, True)] * (k > 0) + [(item, split)]
            return pieces
        if value is not None and sub and sub[1:-1] not in ("@", "*"):
            items = elements if elements is not None else value.split()
            idx = sub[1:-1]
            value = items[int(idx)] if idx.isdigit() and int(idx) < len(items) else ""
        opm = _PARAM_OP.match(rest)
        op, word = (opm.group(), rest[opm.end() :]) if opm else ("", rest)
        if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
            unset = value is None or (op[0] == ":" and value == "")
            if op[-1] == "+":
                return [] if unset else self.word(word, quoted)
            if not unset:
                return [(value or "", split)]
            if op[-1] == "-":
                return self.word(word, quoted)
            if op[-1] == "?":  # bash would stop here with an error; statically it is just missing
                self.missing(name)
                return [(symbol(name), False)]
            if op[-1] == "=":
                outer, self.unresolved = self.unresolved, {}
                new = self.value(word)
                self.vars[name] = new
                self.taint(name, self.unresolved)
                self.unresolved = outer | self.unresolved
                return [(new, split)]
        if value is None:
            self.missing(name)
            return [(symbol(name), False)]  # unknown statically: kept symbolic, never guessed
        if op in ("#", "##", "%", "%%") and len(value) > MAX_PATTERN_VALUE:
            self.note(
                "shell.unsupported-expansion",
                f"${{{inner}}}: the value is longer than {MAX_PATTERN_VALUE} "
                "characters; used as is, the pattern not removed",
            )
        elif op in ("#", "##", "%", "%%"):
            value = _strip_pattern(value, self.value(word), op)
        elif op in ("^^", ",,"):
            value = value.upper() if op == "^^" else value.lower()
        elif op == ":" and (sm := re.fullmatch(r"\s*(\d{1,18})(?::\s*(\d{1,18}))?", word)):
            start = int(sm.group(1))
            value = value[start : start + int(sm.group(2))] if sm.group(2) else value[start:]
        elif op in ("/", "//") and not re.search(r"[*?\[]", word.split("/")[0]):
            pat, _, rep = word.partition("/")
            value = value.replace(self.value(pat), self.value(rep), -1 if op == "//" else 1)
        elif op or rest:
            self.note("shell.unsupported-expansion", f"${{{inner}}}: operator not supported; value used as is")
        return [(value, split)]

    def word(self, word: str, quoted: bool) -> list[tuple[str, bool]]:
        """A default/alternative word: expanded like a word of its own, never split inside "..."."""
        pieces = self.pieces(word, False)
        return [(t, False) for t, _ in pieces] if quoted else pieces

    def arith(self, full: str, inner: str) -> str:
        if "$(" in inner or "`" in inner:
            self.note("shell.command-substitution", f"{full} contains a command substitution; kept as text")
            return full
        outer, self.unresolved = self.unresolved, {}
        text = self.value(inner)

        def lookup(name: str, depth: int = 0) -> int:
            value = self.use(name)
            if value is None:
                self.missing(name)
                return 0
            value = value.strip() or "0"
            if re.fullmatch(r"-?\d+", value):
                return int(value)
            if depth > 8:
                raise _ArithError(f"{name} refers to itself")
            return _arith(value, lambda n: lookup(n, depth + 1))  # bash evaluates a value like 2*3

        try:
            result: str | None = str(_arith(text, lookup))
        except (_ArithError, ZeroDivisionError, ValueError) as e:
            self.note("shell.arithmetic", f"{full} could not be evaluated ({e}); kept as text")
            result = None
        missing = self.unresolved
        self.unresolved = outer | missing
        # bash would count unset names as 0; keeping the text makes the gap visible instead
        return full if result is None or missing else result


_POSIX_CLASSES = {
    "[:space:]": r"\s",
    "[:blank:]": r" \t",
    "[:digit:]": r"0-9",
    "[:alpha:]": r"A-Za-z",
    "[:alnum:]": r"A-Za-z0-9",
    "[:upper:]": r"A-Z",
    "[:lower:]": r"a-z",
}


def _posix_classes(pattern: str) -> str:
    """An extended regular expression (grep -E) in Python's syntax: its POSIX classes inside brackets spelled out."""
    for name, spelled in _POSIX_CLASSES.items():
        pattern = pattern.replace(name, spelled)
    return pattern


class Include(Protocol):
    """(a path as the script spells it, the directory the script has moved to) → (text, name) of that file, or None;
    with ``inside`` only a file of the project the script belongs to (an absolute path below its root)."""

    def __call__(self, path: str, cwd: str | None, inside: bool = False) -> tuple[str, str] | None: ...


# (glob pattern, folder the script moved to, "f" files / "d" folders / None both) → the matching paths as bash
# spells them, sorted; None when the files are not at hand
Listing = Callable[[str, "str | None", "str | None"], "list[str] | None"]


_GLOB = re.compile(r"[*?]|\[[^\]]+\]")


def _unquoted(text: str) -> str:
    """``text`` without its quoted parts: a glob character inside quotes is a plain character."""
    return re.sub(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"", "", text)


def parse_shell(
    text: str,
    env: Mapping[str, str] | None = None,
    source: str = "<script>",
    include: Include | None = None,
    listing: Listing | None = None,
) -> ShellScript:
    """Read a bash script statically: its commands, final variables and notes. Nothing is executed. ``include``
    gives the text of a project script this one runs or sources (none is followed without it)."""
    text = text.replace("\r\n", "\n")  # CRLF: \r is not in a word
    return _Reader(text, env, source, include=include, listing=listing).run()


def _script_call(words: list[str]) -> tuple[str, list[str], bool] | None:
    """(path, arguments, sourced) of a command that runs a shell script file (``bash x.sh A``, ``sh -e x.sh``,
    ``./x.sh A``) or sources one (``source x.sh``, ``. x.sh``); None for any other command (``bash -c`` bodies are
    read by _Reader.nested)."""
    while words and symbolic_names(words[0]) == [words[0][2:-1]] and words[0].startswith("${"):
        words = words[1:]  # `srun ${SLURM_ARGS} bash x.sh`: an unset variable's word holds options, or nothing
    if not words:
        return None
    if words[0] in ("source", "."):
        return (words[1], words[2:], True) if len(words) > 1 else None
    if posixpath.basename(words[0]) in _SHELLS:
        i = 1
        while i < len(words) and words[i].startswith("-"):
            if words[i] in ("-c", "-s", "-i"):
                return None
            i += 1
        return (words[i], words[i + 1 :], False) if i < len(words) else None
    if words[0].endswith(".sh") and "/" in words[0]:  # ./run.sh, scripts/run.sh: executed directly
        return words[0], words[1:], False
    return None


def _sent_keys(words: list[str]) -> str | None:
    """The command line ``tmux send-keys [-t TARGET] "CMD" C-m`` types into a session (the key names dropped)."""
    if len(words) < 3 or posixpath.basename(words[0]) != "tmux" or words[1] not in ("send-keys", "send"):
        return None
    typed: list[str] = []
    i = 2
    while i < len(words):
        word = words[i]
        if word in ("-t", "-N") and i + 1 < len(words):
            i += 2
            continue
        if not (word.startswith("-") or re.fullmatch(r"(C-\w|Enter|KPEnter|Escape|Space|Tab)", word)):
            typed.append(word)
        i += 1
    return " ".join(typed) or None


# srun's options that take a value in the next word (srun(1), Slurm 24.05; pyxis adds the --container-* ones).
# Options whose value is optional (--exclusive, -K/--kill-on-bad-exit, --nice, --propagate, --resv-ports, --x11,
# --send-libs) take it only as `--opt=value`, so they are flags here.
_SRUN_VALUE = frozenset(
    (
        *("-A", "--account", "--acctg-freq", "--bb", "--bbf", "--bcast-exclude", "--begin", "-B"),
        *("--extra-node-info", "-c", "--cpus-per-task", "-C", "--constraint", "--cluster-constraint"),
        *("-M", "--clusters", "--comment", "--container", "--container-id", "--context", "-S", "--core-spec"),
        *("--cores-per-socket", "--cpu-bind", "--cpu-freq", "--cpus-per-gpu", "-d", "--dependency"),
        *("-D", "--chdir", "--deadline", "--delay-boot", "-m", "--distribution", "-e", "--error", "--epilog"),
        *("-x", "--exclude", "--export", "-F", "--nodefile", "--gid", "-G", "--gpus", "--gpu-bind"),
        *("--gpu-freq", "--gpus-per-node", "--gpus-per-socket", "--gpus-per-task", "--gres", "--gres-flags"),
        *("--het-group", "--hint", "-i", "--input", "--jobid", "-J", "--job-name", "-L", "--licenses"),
        *("--mail-type", "--mail-user", "--mcs-label", "--mem", "--mem-bind", "--mem-per-cpu", "--mem-per-gpu"),
        *("--mincpus", "--mpi", "--network", "-N", "--nodes", "-n", "--ntasks", "--ntasks-per-core"),
        *("--ntasks-per-gpu", "--ntasks-per-node", "--ntasks-per-socket", "--open-mode", "-o", "--output"),
        *("-p", "--partition", "--power", "--prefer", "--prolog", "-q", "--qos", "--reservation", "--segment"),
        *("--signal", "--slurmd-debug", "--sockets-per-node", "--switches", "--task-epilog", "--task-prolog"),
        *("--tasks-per-node", "--thread-spec", "--threads-per-core", "-t", "--time", "--time-min", "--tmp"),
        *("--tres-bind", "--tres-per-task", "--uid", "-W", "--wait", "--wckey", "-w", "--nodelist"),
        *("--container-image", "--container-mounts", "--container-workdir", "--container-name", "--container-env"),
        "--container-save",
    )
)
# Project environment managers whose `run` subcommand runs a command, with their options that take a value.
_PROJECT_RUNNERS = {
    "poetry": {"-C", "--directory", "-P", "--project"},
    "pipenv": set(),
    "pdm": {"-p", "--project"},
    "rye": {"--pyproject"},
    "pixi": {"-e", "--environment", "--manifest-path"},
}
_UV_VALUE = {
    "--with",
    "--with-editable",
    "--with-requirements",
    "--project",
    "--python",
    "-p",
    "--directory",
    "--extra",
    "--group",
    "--only-group",
    "--no-group",
    "--env-file",
    "--index",
    "--index-url",
    "--default-index",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--package",
    "--cache-dir",
    "--config-file",
}
_RAY_VALUE = {
    "--address",
    "--working-dir",
    "--runtime-env",
    "--runtime-env-json",
    "--submission-id",
    "--job-id",
    "--entrypoint-num-cpus",
    "--entrypoint-num-gpus",
    "--entrypoint-memory",
    "--entrypoint-resources",
    "--metadata-json",
    "--log-style",
    "--log-color",
    "--headers",
}
_SHELLS = {"bash", "sh", "zsh", "dash"}
_TEXT_FILTERS = {"tr", "cat", "sed", "dos2unix"}  # pass a piped script on (to a shell reading it)
_SSH_VALUE = {f"-{c}" for c in "BDEFIJLOQRSWbceilmopw"}  # ssh's options that take a value


def _runs_text(argv: list[str], path: str) -> str | None:
    """How a command runs the text of ``path`` ("-": its standard input): "shell" for a shell or ``sbatch`` given
    it as its script, "manifest" for ``kubectl apply|create -f PATH``; None when it does not run it."""
    if not argv:
        return None
    prog = posixpath.basename(argv[0])
    if prog == "kubectl" and len(argv) > 2 and argv[1] in ("apply", "create"):
        files = [b for a, b in itertools.pairwise(argv) if a in ("-f", "--filename")]
        files += [a.split("=", 1)[1] for a in argv if a.startswith("--filename=")]
        return "manifest" if path in files else None
    if path == "-":
        words = unwrap_command(argv, None) or argv
        stdin_batch = posixpath.basename(words[0]) == "sbatch" and all(w.startswith("-") for w in words[1:])
        return "shell" if stdin_batch or _reads_stdin_script(argv) else None
    if prog == "sbatch":
        rest = _skip_options(argv[1:], _SRUN_VALUE)
        return "shell" if rest[:1] == [path] else None
    if prog in _SHELLS:
        rest = [w for w in argv[1:] if not w.startswith("-")]
        return "shell" if rest[:1] == [path] and not any(w.startswith("-") and "c" in w[1:] for w in argv[1:]) else None
    return None


def _manifest_scripts(text: str) -> list[str]:
    """The shell scripts the containers of Kubernetes manifests run (``command: ["/bin/bash", "-c"]`` with the
    script in ``args``, or the program and its arguments joined as a command line); none for text that is not
    YAML. Each document is loaded as config files are (translator/sources/yamlfile.py: safe, alias bombs
    refused)."""
    from translator.sources.yamlfile import load_yaml

    scripts: list[str] = []

    def words(value: object) -> list[str]:
        return [str(w) for w in value] if isinstance(value, list) else []

    def walk(node: object) -> None:
        if isinstance(node, list):
            for value in node:
                walk(value)
        if not isinstance(node, dict):
            return
        containers = node.get("containers")
        for container in containers if isinstance(containers, list) else []:
            if isinstance(container, dict):
                line = words(container.get("command")) + words(container.get("args"))
                if len(line) > 2 and posixpath.basename(line[0]) in _SHELLS and re.fullmatch(r"-\w*c\w*", line[1]):
                    scripts.append(line[2])
                elif line:
                    scripts.append(shlex.join(line))
        for value in node.values():
            walk(value)

    for document in re.split(r"(?m)^---[ \t]*$", text):
        try:
            walk(load_yaml(document, "manifest"))
        except ConfigError:
            continue
    return scripts


def _reads_stdin_script(argv: list[str]) -> bool:
    """Whether a command runs a shell that reads its script from standard input: ``bash`` (``-s``, ``-l``, ``-x``;
    no ``-c``, no script file), behind ``kubectl exec ... --``, ``docker``/``podman exec [-i] NAME``, ``ssh
    [options] HOST``, or the wrappers :func:`unwrap_command` strips."""
    words = unwrap_command(argv, None) or argv
    if not words:
        return False
    prog = posixpath.basename(words[0])
    if prog == "kubectl" and "--" in words:
        return _reads_stdin_script(words[words.index("--") + 1 :])
    if prog in ("docker", "podman") and words[1:2] == ["exec"]:
        rest = _skip_options(words[2:], {"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file"})
        return len(rest) >= 2 and _reads_stdin_script(rest[1:])
    if prog == "ssh":
        rest = _skip_options(words[1:], _SSH_VALUE)
        return len(rest) == 1 or (len(rest) >= 2 and _reads_stdin_script(rest[1:]))
    if prog not in _SHELLS:
        return False
    return all(w.startswith("-") and "c" not in w[1:] for w in words[1:])


_CONTAINER_VALUE = {
    "--bind",
    "-B",
    "--env",
    "--env-file",
    "--home",
    "-H",
    "--pwd",
    "--overlay",
    "-o",
    "--workdir",
    "-W",
    "--mount",
    "--security",
    "--network",
    "--network-args",
    "--fusemount",
    "--app",
    "--hostname",
    "--scratch",
    "-S",
    "--apply-cgroups",
    "--dns",
    "--nvccli",
    "--add-caps",
    "--drop-caps",
    "--passphrase",
    "--pem-path",
    "--keep-env",
    "--cwd",
}
_CONDA_VALUE = {"-n", "--name", "-p", "--prefix", "--cwd", "--live-stream"}
_NUMACTL_VALUE = {
    "-C",
    "--cpunodebind",
    "-N",
    "-m",
    "--membind",
    "-p",
    "--preferred",
    "-i",
    "--interleave",
    "--physcpubind",
}
_STDBUF_VALUE = {"-i", "-o", "-e"}
# `tr -d SET` sets a substitution may delete from a file's text, and their characters
_TR_SETS = {"[:space:]": " \t\n\r\v\f", "[:blank:]": " \t", "\\n": "\n", "\n": "\n", " \\n": " \n"}
_MAX_FILE_TEXT = 65_536  # a file a substitution prints is a name or a short list, not data
_QUIET = {">", "&>", "1>", "2>", ">>", "&>>", "2>>"}  # redirections whose target /dev/null drops the output
_MAX_NESTING = 8  # bash -c inside bash -c ...: real scripts nest once or twice
# what the reader holds of the command being read, kept across a function run for its output inside one of its words
_COMMAND_STATE = ("line", "unresolved", "after_command", "joined_condition", "jump_to", "output_elsewhere")
_PIPE_SINKS = {"tee", "wait", "true", ":"}  # trailing commands of `bash -c` that are not the program


def _skip_options(args: list[str], value_opts: Collection[str]) -> list[str]:
    """Drop leading options (``--opt=v``, ``--opt v`` for known ``value_opts``, flags) and a ``--``."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[i + 1 :]
        if not a.startswith("-") or a == "-":
            break
        i += 2 if a in value_opts else 1
    return args[i:]


def _drop_assignments(args: list[str]) -> list[str]:
    while args and _ASSIGN.match(args[0]):
        args = args[1:]
    return args


def _unwrap_once(argv: list[str], env: Mapping[str, str] | None) -> list[str]:
    prog, rest = posixpath.basename(argv[0]), argv[1:]
    if prog == "nohup":
        return rest
    if prog == "setsid":
        return _skip_options(rest, set())
    if prog == "time":
        return _skip_options(rest, set())
    if prog == "exec":
        return _skip_options(rest, {"-a"})
    if prog == "env":
        return _drop_assignments(_skip_options(rest, {"-u", "--unset", "-C", "--chdir"}))
    if prog == "timeout":
        rest = _skip_options(rest, {"-s", "--signal", "-k", "--kill-after"})
        return rest[1:]  # the duration
    if prog == "sudo":
        return _drop_assignments(_skip_options(rest, {"-u", "-g", "-C", "-D", "-p", "-h", "-U", "-r", "-t"}))
    if prog == "srun":
        return _skip_options(rest, _SRUN_VALUE)
    if prog in ("apptainer", "singularity") and rest[:1] == ["exec"]:
        return _skip_options(rest[1:], _CONTAINER_VALUE)[1:]  # the options, then the image
    if prog in ("conda", "mamba", "micromamba") and rest[:1] == ["run"]:
        return _skip_options(rest[1:], _CONDA_VALUE)
    if prog == "numactl":
        return _skip_options(rest, _NUMACTL_VALUE)
    if prog == "stdbuf":
        return _skip_options(rest, _STDBUF_VALUE)
    if prog == "sbatch" and (body := _shell_body(argv)) is not None:
        return _single_command(body, env) or argv
    if prog in _PROJECT_RUNNERS and rest[:1] == ["run"]:  # `poetry run CMD`: CMD in the project's environment
        return _skip_options(rest[1:], _PROJECT_RUNNERS[prog])
    if prog == "uv" and rest[:1] == ["run"]:
        i = 1
        while i < len(rest) and rest[i].startswith("-") and rest[i] != "--":
            if rest[i] in ("-m", "--module"):  # `uv run -m pkg` runs a module with the project's python
                return ["python", "-m", *rest[i + 1 :]]
            i += 2 if rest[i] in _UV_VALUE else 1
        return rest[i + 1 :] if rest[i : i + 1] == ["--"] else rest[i:]
    if prog == "ray" and rest[:2] == ["job", "submit"]:
        rest = rest[2:]
        return rest[rest.index("--") + 1 :] if "--" in rest else _skip_options(rest, _RAY_VALUE)
    if any(posixpath.basename(a) in ("mason.py", "mason") for a in argv[:4]) and "--" in argv:
        # The escaped chain mason runs (`source a.sh \&\& python ...`), with an operator glued to a word
        # (`\&\&python`) split off as bash would split the chain.
        return [
            part
            for word in argv[argv.index("--") + 1 :]
            for part in (
                re.split(r"(&&|\|\||;)", word) if word[:2] in ("&&", "||") or word[-2:] in ("&&", "||") else [word]
            )
            if part
        ]
    if prog in _SHELLS and (body := _shell_body(argv)) is not None:
        return _single_command(body, env) or argv
    return argv


def _shell_body(argv: list[str]) -> str | None:
    """The command text of ``bash -c BODY`` (any shell, ``-lc`` and the like) or ``sbatch --wrap BODY``."""
    prog, rest = posixpath.basename(argv[0]), argv[1:]
    if prog == "sbatch":
        for k, a in enumerate(rest):
            if a == "--wrap" and k + 1 < len(rest):
                return rest[k + 1]
            if a.startswith("--wrap="):
                return a.partition("=")[2]
        return None
    if prog not in _SHELLS:
        return None
    for k, a in enumerate(rest):
        if not a.startswith("-") or a in ("-", "--"):
            return None  # `bash script.sh`: the script is the program
        if not a.startswith("--") and "c" in a[1:] and k + 1 < len(rest):
            return rest[k + 1]
    return None


def _single_command(body: str, env: Mapping[str, str] | None) -> list[str] | None:
    """The command a body of one command runs (`bash -c "python x.py | tee log"` runs python), unwrapped; None
    when the body has several statements: the reader reads those as commands of the script (_Reader.nested)."""
    commands = parse_shell(body, env, source="bash -c").commands
    real = [c for c in commands if c.argv and c.argv[0] not in _PIPE_SINKS and c.argv[0] != "cd"]
    if len(real) == 1:
        return unwrap_command(real[0].argv, env)
    return None if commands else []


def _nested_body(argv: list[str], env: Mapping[str, str]) -> tuple[int, str] | None:
    """Index in ``argv`` of the word holding a ``bash -c`` / ``sbatch --wrap`` body of several statements (behind
    any wrappers), and the body."""
    words = argv
    for _ in range(32):
        if not words:
            return None
        body = _shell_body(words)
        if body is not None:
            if _single_command(body, env) is not None:
                return None
            index = next((k for k in range(len(argv) - 1, -1, -1) if argv[k] in (body, f"--wrap={body}")), None)
            return None if index is None else (index, body)
        new = _unwrap_once(words, env)
        if new == words:
            return None
        words = new
    return None


_PYTHON_VALUE = {"-W", "-X", "-Q"}
_LAUNCHER_MODULES = {
    "torch.distributed.run",
    "torch.distributed.launch",
    "accelerate.commands.launch",
    "deepspeed.launcher.runner",
}


def program_index(argv: list[str]) -> int | None:
    """Index of the module (after ``-m``) or the ``.py`` file a python command runs, through the launchers that
    start python for it: ``python [-u ...] -m MODULE``, ``python FILE.py``, ``torchrun``/``deepspeed``/``accelerate
    launch`` (or ``python -m torch.distributed.run``) with their options; None for any other command."""
    if not argv:
        return None
    prog = posixpath.basename(argv[0])
    if re.fullmatch(r"python[\d.]*", prog):
        i = 1
        while i < len(argv) and argv[i].startswith("-") and argv[i] not in ("-m", "-c", "-"):
            i += 2 if argv[i] in _PYTHON_VALUE else 1
        if i >= len(argv) or argv[i] in ("-c", "-"):
            return None
        if argv[i] != "-m":
            return i
        if i + 1 >= len(argv):
            return None
        if argv[i + 1] not in _LAUNCHER_MODULES:
            return i + 1
        return _launched(argv, i + 2)
    if prog in ("torchrun", "deepspeed") or (prog == "accelerate" and argv[1:2] == ["launch"]):
        return _launched(argv, 2 if prog == "accelerate" else 1)
    return None


def _launched(argv: list[str], start: int) -> int | None:
    """The program a launcher's options are followed by: the word after ``-m``/``--module`` or the first ``.py``
    word (launcher option values are never ``.py`` files, so no table of which options take a value is needed)."""
    for i in range(start, len(argv)):
        word = argv[i]
        if word in ("-m", "--module") and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            return i + 1
        if word.endswith(".py") and not word.startswith("-"):
            return i
    return None


def ray_job_env(argv: list[str]) -> dict[str, str] | None:
    """The environment a ``ray job submit`` gives its entrypoint (``--runtime-env-json``'s ``env_vars``); {} when
    the command is no job submission or sets none; None when it names a runtime env this reader does not see (a
    ``--runtime-env`` file, JSON it cannot parse)."""
    import json

    words = _job_submit_options(argv)
    if any(word.partition("=")[0] == "--runtime-env" for word in words):
        return None
    text = job_runtime_env_json(argv)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return None
    found = data.get("env_vars") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _job_submit_options(argv: list[str]) -> list[str]:
    """The options of a ``ray job submit`` (the words before its ``--``); none for any other command."""
    if not argv or posixpath.basename(argv[0]) != "ray" or argv[1:3] != ["job", "submit"]:
        return []
    return argv[3 : argv.index("--")] if "--" in argv else argv[3:]


def job_runtime_env_json(argv: list[str]) -> str | None:
    """The text of a ``ray job submit``'s ``--runtime-env-json`` (the last one given, as its option parser keeps);
    None for another command or one without it."""
    words = _job_submit_options(argv)
    text = None
    for i, word in enumerate(words):
        name, eq, value = word.partition("=")
        if name == "--runtime-env-json":
            text = value if eq else (words[i + 1] if i + 1 < len(words) else "")
    return text


def unwrap_command(argv: list[str], env: Mapping[str, str] | None = None) -> list[str]:
    """Strip wrappers (nohup, env, srun, uv run, ray job submit --, bash -c, ...) down to the real program."""
    argv = list(argv)
    for _ in range(32):  # each round removes a wrapper; the bound guards against a pathological loop
        if not argv:
            return argv
        new = _unwrap_once(argv, env)
        if new == argv:
            return argv
        argv = new
    return argv
