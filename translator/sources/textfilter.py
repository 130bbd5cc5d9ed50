"""The text filters a launch script pipes a known value through to build a name or a path (``echo $X | sed ...``,
``| cut ...``, ``| tr ...``), computed as GNU coreutils and GNU sed compute them. Only what is imitated exactly is
computed: any other option, command or construct gives None (the value stays unknown), never a guess.

sed's regular expressions (basic, or extended with ``-E``/``-r``) are translated to Python's; a match is POSIX's
leftmost-longest one, which Python's backtracking does not always find, so its extent is widened to the longest that
matches. Patterns that could backtrack without bound (a repeated group that itself repeats or alternates) and input
longer than ``MAX_TEXT`` characters are not computed: reading stays bounded in time."""

from __future__ import annotations

import re
import string
from collections.abc import Callable

MAX_TEXT = 4096  # characters: a name or a path, not data
_MAX_WIDENED = 512  # characters of a line whose matches are widened one end at a time (quadratic)
_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "xdigit": "0-9A-Fa-f",
    "punct": "".join("\\" + c for c in string.punctuation),
}
_ESCAPES = {"n": "\\n", "t": "\\t", "w": "\\w", "W": "\\W", "s": "\\s", "S": "\\S"}


def run_filters(filters: list[list[str]], text: str) -> str | None:
    """The output of ``printf '%s\\n' TEXT | F1 | F2 ...`` (each filter a command's words), or None when a filter is
    not one computed here."""
    for words in filters:
        if len(text) > MAX_TEXT:
            return None
        lines = text.split("\n")
        apply = {"sed": _sed, "cut": _cut, "tr": _tr}.get(words[0]) if words else None
        out = apply(words[1:], lines) if apply else None
        if out is None:
            return None
        text = "\n".join(out)
    return text


def _sed(args: list[str], lines: list[str]) -> list[str] | None:
    extended, scripts = False, []
    rest = list(args)
    while rest:
        word = rest.pop(0)
        if word in ("-E", "-r", "--regexp-extended"):
            extended = True
        elif word == "-e" and rest:
            scripts.append(rest.pop(0))
        elif not word.startswith("-") and not scripts and not rest:
            scripts.append(word)
        else:
            return None  # -n, -i, a file operand, ...: not a filter of its input computed here
    commands = []
    for script in scripts:
        parsed = _parse_script(script, extended)
        if parsed is None:
            return None
        commands.extend(parsed)
    if not commands:
        return None
    out = []
    for line in lines:
        for command in commands:
            replaced = command.apply(line)
            if replaced is None:
                return None
            line = replaced
        out.append(line)
    return out


class _Substitution:
    """One ``s/REGEX/REPLACEMENT/FLAGS`` command."""

    def __init__(self, regex: re.Pattern[str], replacement: str, every: bool, occurrence: int, shape: str) -> None:
        self.regex, self.replacement, self.every, self.occurrence = regex, replacement, every, occurrence
        self.shape = shape  # "to_end": every match runs to the line's end; "choices": Python's match may be shorter

    def apply(self, line: str) -> str | None:
        out, pos, count, last_end = [], 0, 0, -1
        while pos <= len(line):
            found = self.regex.search(line, pos)
            if found is None:
                break
            start = found.start()
            match = self._longest(line, start, found)
            if match is None:
                return None
            end = match.end()
            if start == end == last_end:  # sed takes no empty match where the one before ended
                if start < len(line):
                    out.append(line[start])
                pos = start + 1
                continue
            count += 1
            out.append(line[pos:start])
            if self.every or count == self.occurrence:
                text = _expand(self.replacement, match)
                if text is None:
                    return None
                out.append(text)
            else:
                out.append(line[start:end])
            pos = last_end = end
            if not self.every and count == self.occurrence:
                break
            if start == end:
                if start < len(line):
                    out.append(line[start])
                pos = start + 1
        out.append(line[pos:])
        return "".join(out)

    def _longest(self, line: str, start: int, found: re.Match[str]) -> re.Match[str] | None:
        """POSIX's match at ``start``: the longest one. Python's backtracking finds it unless the pattern offers
        choices (alternatives, a repeated group: ``a*(ab)?`` on ``aab``); then ends are tried from the longest."""
        if self.shape == "to_end":
            return self.regex.fullmatch(line, start) or found
        if self.shape != "choices":
            return found
        if len(line) > _MAX_WIDENED:
            return None
        for end in range(len(line), found.end(), -1):
            if (longer := self.regex.fullmatch(line, start, end)) is not None:
                return longer
        return found


def _expand(replacement: str, match: re.Match[str]) -> str | None:
    out, i = [], 0
    while i < len(replacement):
        c = replacement[i]
        if c == "&":
            out.append(match.group(0))
        elif c == "\\" and i + 1 < len(replacement):
            i += 1
            d = replacement[i]
            if d.isdigit():
                out.append(match.group(int(d)) or "")  # a group it lacks was refused with the script
            elif d in "LlUuE":
                return None  # GNU case conversion: not imitated
            else:
                out.append("\n" if d == "n" else d)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _parse_script(script: str, extended: bool) -> list[_Substitution] | None:
    commands: list[_Substitution] = []
    i = 0
    while True:
        while i < len(script) and script[i] in " \t\n;":
            i += 1
        if i == len(script):
            return commands
        if script[i] != "s" or i + 1 >= len(script) or script[i + 1] in "\\\n":
            return None
        delim = script[i + 1]
        parts, i = _delimited(script, i + 2, delim, 2)
        if parts is None:
            return None
        flags = re.match(r"[gI0-9]*", script[i:])
        i += flags.end() if flags else 0
        if i < len(script) and script[i] not in " \t\n;":
            return None  # p, w FILE, e, m, ...: not imitated
        command = _substitution(parts[0], parts[1], flags[0] if flags else "", extended)
        if command is None:
            return None
        commands.append(command)


def _delimited(script: str, i: int, delim: str, count: int) -> tuple[list[str] | None, int]:
    """``count`` fields each closed by ``delim`` (``\\DELIM`` stands for it), from ``i``."""
    parts: list[str] = []
    field: list[str] = []
    while i < len(script) and len(parts) < count:
        c = script[i]
        if c == "\\" and i + 1 < len(script):
            nxt = script[i + 1]
            field.append(nxt if nxt == delim else c + nxt)  # an escaped delimiter is the character itself
            i += 2
        elif c == delim:
            parts.append("".join(field))
            field, i = [], i + 1
        else:
            field.append(c)
            i += 1
    return (parts if len(parts) == count else None), i


def _substitution(pattern: str, replacement: str, flags: str, extended: bool) -> _Substitution | None:
    number = "".join(c for c in flags if c.isdigit())
    if (number and "g" in flags) or number == "0" or not pattern:
        return None  # Nth-and-after, an invalid 0, or "the last regex used": not imitated
    translated = _python_regex(pattern, extended)
    if translated is None:
        return None
    regex_text, shape = translated
    try:
        regex = re.compile(regex_text, re.DOTALL | (re.IGNORECASE if "I" in flags else 0))
    except re.error:
        return None
    if any(int(d) > regex.groups for d in re.findall(r"(?<!\\)(?:\\\\)*\\(\d)", replacement)):
        return None  # sed refuses the script: "invalid reference \N on `s' command's RHS"
    return _Substitution(regex, replacement, "g" in flags, int(number or 1), shape)


def _python_regex(pattern: str, extended: bool) -> tuple[str, str] | None:
    """The Python spelling of a POSIX regular expression and its shape (``to_end``: it ends in the ``$`` anchor;
    ``choices``: it alternates or repeats a group; else ``plain``); None for what is not translated
    (back-references, GNU word anchors, a ``$`` anchor before the end, unbounded backtracking)."""
    out: list[str] = []
    groups: list[dict[str, bool]] = [{"repeats": False}]  # per open group: whether it repeats or alternates inside
    last_atom_risky, at_start, to_end, choices, top_alternation = False, True, False, False, False
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        special = c
        if c == "\\":
            if i + 1 >= n:
                return None
            d = pattern[i + 1]
            i += 2
            if not extended and d in "(){}|+?":
                special = "op" + d
            elif d in _ESCAPES:
                out.append(_ESCAPES[d])
                last_atom_risky, at_start = False, False
                continue
            elif d.isalnum() or d in "<>`'":
                return None  # back-references and GNU anchors
            else:
                out.append(re.escape(d))
                last_atom_risky, at_start = False, False
                continue
        else:
            i += 1
            if extended and c in "(){}|+?":
                special = "op" + c
        if special in ("op(", "op|", "op)"):
            if special == "op(":
                groups.append({"repeats": False})
                out.append("(")
                at_start = True
            elif special == "op|":
                groups[-1]["repeats"] = choices = True
                top_alternation = top_alternation or len(groups) == 1
                out.append("|")
                at_start = True
            else:
                if len(groups) == 1:
                    return None
                last_atom_risky = groups.pop()["repeats"]
                out.append(")")
                at_start = False
            continue
        if special in ("*", "op+", "op?", "op{"):
            if at_start:
                if special != "*":
                    return None
                out.append("\\*")  # a leading * is literal in POSIX
                at_start = False
                continue
            if last_atom_risky:
                return None  # a repeated group that repeats inside: backtracking without bound
            choices = choices or out[-1] == ")"
            if special == "op{":
                close = pattern.find("\\}" if not extended else "}", i)
                bounds = pattern[i:close] if close >= 0 else ""
                if not re.fullmatch(r"\d+(,\d*)?|,\d+", bounds):
                    return None
                out.append("{" + bounds + "}")
                i = close + (1 if extended else 2)
            else:
                out.append(special[-1])
            groups[-1]["repeats"] = True
            continue
        if c == "^" and (extended or at_start):
            out.append("\\A" if at_start else "(?!)")  # ^ after an atom can never match a single line's text
            continue
        if c == "$" and (extended or i == n or pattern.startswith(("\\)", "\\|"), i)):
            if i != n:
                return None
            out.append("\\Z")
            to_end = True
            continue
        if c == "[":
            bracket = _bracket(pattern, i)
            if bracket is None:
                return None
            text, i = bracket
            out.append(text)
        elif c == ".":
            out.append(".")
        else:
            out.append(re.escape(c))
        last_atom_risky, at_start = False, False
    if len(groups) != 1 or (to_end and top_alternation):
        return None  # unbalanced, or an alternative that need not reach the `$`
    return "".join(out), "to_end" if to_end else "choices" if choices else "plain"


def _bracket(pattern: str, i: int) -> tuple[str, int] | None:
    """The bracket expression whose ``[`` is just before ``i``: its Python class and the index after its ``]``."""
    out, j = ["["], i
    if pattern[j : j + 1] == "^":
        out.append("^")
        j += 1
    first = True
    while j < len(pattern):
        c = pattern[j]
        if c == "]" and not first:
            out.append("]")
            return "".join(out), j + 1
        if c == "[" and pattern[j + 1 : j + 2] == ":":
            close = pattern.find(":]", j + 2)
            name = pattern[j + 2 : close] if close >= 0 else ""
            if name not in _CLASSES:
                return None
            out.append(_CLASSES[name])
            j = close + 2
        elif c == "[" and pattern[j + 1 : j + 2] in ("=", "."):
            return None  # equivalence classes and collating symbols
        elif c == "-" and not first and pattern[j + 1 : j + 2] != "]":
            out.append("-")  # a range
            j += 1
        else:
            out.append(re.escape(c))  # in POSIX brackets a backslash is literal
            j += 1
        first = False
    return None


def _cut(args: list[str], lines: list[str]) -> list[str] | None:
    """``cut -d CHAR -f LIST``: the listed fields (``N``, ``N-M``, ``N-``, ``-M``); a line without the delimiter is
    printed whole, as cut does without ``-s``."""
    words = _joined_options(args, "df")
    if words is None or set(words) != {"-d", "-f"} or len(words["-d"]) != 1:
        return None
    wanted = _field_list(words["-f"])
    if wanted is None:
        return None
    out = []
    for line in lines:
        if words["-d"] not in line:
            out.append(line)
            continue
        fields = line.split(words["-d"])
        out.append(words["-d"].join(f for k, f in enumerate(fields, 1) if wanted(k)))
    return out


def _field_list(spec: str) -> Callable[[int], bool] | None:
    ranges = []
    for part in spec.split(","):
        found = re.fullmatch(r"(\d*)(-?)(\d*)", part)
        if found is None or not (found[1] or found[3]) or (not found[2] and found[3]):
            return None
        low = int(found[1]) if found[1] else 1
        high = int(found[3]) if found[3] else (low if not found[2] else 10**9)
        if low < 1 or high < low:
            return None
        ranges.append((low, high))
    return lambda k: any(low <= k <= high for low, high in ranges)


def _joined_options(args: list[str], letters: str) -> dict[str, str] | None:
    """Short options written ``-dX`` or ``-d X`` (each of ``letters``): option to value; None for anything else."""
    options, rest = {}, list(args)
    while rest:
        word = rest.pop(0)
        if len(word) < 2 or word[0] != "-" or word[1] not in letters:
            return None
        if len(word) > 2:
            options[word[:2]] = word[2:]
        elif rest:
            options[word] = rest.pop(0)
        else:
            return None
    return options


def _tr(args: list[str], lines: list[str]) -> list[str] | None:
    """``tr SET1 SET2`` (characters of SET1 mapped to SET2's at the same place, SET2's last one repeated) and ``tr
    -d SET``, with ranges and the classes ``[:upper:]``/``[:lower:]`` (case mapped in that order)."""
    if len(args) == 2 and args[0] == "-d":
        drop = _tr_set(args[1])
        return None if drop is None else ["".join(c for c in line if c not in drop) for line in lines]
    if len(args) != 2 or args[0].startswith("-"):
        return None
    source, target = _tr_set(args[0]), _tr_set(args[1])
    if not source or not target:
        return None
    target = target + target[-1] * (len(source) - len(target))
    table = str.maketrans(source, target[: len(source)])
    return [line.translate(table) for line in lines]


def _tr_set(spec: str) -> str | None:
    out, i = [], 0
    while i < len(spec):
        if spec.startswith(("[:upper:]", "[:lower:]"), i):
            out.append(string.ascii_uppercase if spec[i + 2] == "u" else string.ascii_lowercase)
            i += 9
        elif spec[i] == "[" or spec[i] == "\\":
            return None  # other classes, repeats and escapes: not imitated
        elif i + 2 < len(spec) and spec[i + 1] == "-" and spec[i] <= spec[i + 2]:
            out.append("".join(chr(k) for k in range(ord(spec[i]), ord(spec[i + 2]) + 1)))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)
