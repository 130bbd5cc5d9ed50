"""Helpers writers share: plan comments for file headers, values quoted for launch scripts."""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection
from fractions import Fraction
from typing import Any

from translator.dialects.base import fmt
from translator.errors import ConfigError
from translator.notes import NoteList
from translator.patterns import lazy
from translator.plan import RunSpec

# Every launch script rlconf writes builds each argument as the target's parser reads it (a Hydra override, an
# argparse flag and its value, an environment assignment), then makes it one shell word with shell_word: the
# shell hands the program exactly that text and runs nothing in it.
_LIVE = lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
HYDRA_KEY = lazy(r"(\+\+|\+|~)?[A-Za-z_][A-Za-z0-9_-]*(\.([A-Za-z_][A-Za-z0-9_-]*|[0-9]+))*")
FLAG_NAME = lazy(r"[A-Za-z0-9_.-]+")
ENV_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_HYDRA_BARE = lazy(r"[A-Za-z0-9_@%+./:-]+")  # Hydra's unquoted characters (ASCII; no '=', ',' or '$')
_HYDRA_DICT_KEY = lazy(r"[A-Za-z0-9_/.@%*?|+-]+")


def shell_word(text: str, live: Collection[str] = ()) -> str:
    """``text`` as one shell word that bash reads back exactly (single-quoted as :func:`shlex.quote` does).

    Only a ``${NAME}`` with NAME in ``live`` stays an expansion, written ``"${NAME}"`` beside the quoted rest:
    ``live`` is the set of variables a source *shell script* left to the shell (``$HOME`` it never sets), so the
    written script expands them when it runs, as the source would have. Nothing else is ever live: no
    ``$(...)``, backtick or ``${X:-...}``, and no value read from a YAML, TOML, JSON or plan file."""
    parts: list[str] = []
    last = 0
    if live:
        for m in _LIVE.finditer(text):
            if m.group(1) in live:
                if m.start() > last:
                    parts.append(shlex.quote(text[last : m.start()]))
                parts.append(f'"${{{m.group(1)}}}"')
                last = m.end()
    if last < len(text) or not parts:
        parts.append(shlex.quote(text[last:]))
    return "".join(parts)


_DOLLAR_BRACE = lazy(r"(\\*)\$\{")


def omegaconf_text(text: str, live: Collection[str] = ()) -> str:
    """``text`` as an OmegaConf string value that resolves to the same text, where a ``${NAME}`` with NAME in
    ``live`` (left to the shell by a source shell script) becomes ``${oc.env:NAME}``, read from the environment
    when the config is resolved. Every other ``${`` is escaped (``\\${``), and the backslashes before it doubled:
    OmegaConf reads 2n backslashes before ``${`` as n, and any other backslash as itself."""
    out: list[str] = []
    last = 0
    for m in _DOLLAR_BRACE.finditer(text):
        out.append(text[last : m.start()])
        name = _LIVE.match(text, m.end(1))
        if name and name.group(1) in live:
            out.append(m.group(1) * 2 + f"${{oc.env:{name.group(1)}}}")
            last = name.end()
        else:
            out.append(m.group(1) * 2 + "\\${")
            last = m.end()
    out.append(text[last:])
    return "".join(out)


def omegaconf_values(value: Any, live: Collection[str] = ()) -> Any:
    """Every text in ``value`` (nested lists and mappings) through :func:`omegaconf_text`."""
    if isinstance(value, str):
        return omegaconf_text(value, live)
    if isinstance(value, list):
        return [omegaconf_values(v, live) for v in value]
    if isinstance(value, dict):
        return {k: omegaconf_values(v, live) for k, v in value.items()}
    return value


def live_names(value: Any, live: Collection[str]) -> list[str]:
    """The names in ``live`` that ``value`` (a text, or lists and mappings of them) refers to as ``${NAME}``."""
    if isinstance(value, str):
        return list(dict.fromkeys(m.group(1) for m in _LIVE.finditer(value) if m.group(1) in live))
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return list(dict.fromkeys(name for item in items for name in live_names(item, live)))


def checked_name(name: str, grammar: re.Pattern[str], what: str, example: str) -> str:
    """``name`` when it is a valid ``what`` (its whole text matches ``grammar``); else a ConfigError naming it."""
    if not grammar.fullmatch(name):
        raise ConfigError(
            f"'{name}' is not a valid {what}; rlconf does not write it into a launch script",
            key=name,
            hint=f"rename or remove it in the source; {what}s look like {example}",
        )
    return name


def flag_name(name: str) -> str:
    """An argparse/HfArgumentParser flag name (without its ``--``), checked."""
    return checked_name(name, FLAG_NAME, "command-line flag name", "--train_batch_size")


def env_assignment(name: str, value: Any, live: Collection[str] = ()) -> str:
    """``export NAME=value`` with the name checked and the value one quoted word."""
    checked_name(name, ENV_NAME, "environment variable name", "WANDB_PROJECT")
    return f"export {name}={shell_word(_text(value), live)}"


def flag_words(name: str, value: Any, live: Collection[str] = ()) -> str:
    """``--name value`` (one word per item of a list) for argparse, quoted. A text value starting with '-' is
    written ``--name=value``: argparse would read it as another flag."""
    flag = "--" + flag_name(name)
    if isinstance(value, (list, tuple)):
        return " ".join([flag, *(shell_word(_text(item), live) for item in value)])
    text = _text(value)
    if text.startswith("-") and not is_number(text):
        return shell_word(f"{flag}={text}", live)
    return f"{flag} {shell_word(text, live)}"


def _text(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


def is_number(text: str) -> bool:
    """Whether ``text`` reads as a number (float() takes it)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def hydra_override(key: str, value: Any, live: Collection[str] = ()) -> str:
    """One Hydra override ``key=value`` as a shell word: the key checked against Hydra's key grammar, the value
    written with Hydra's own quoting (:func:`hydra_text`), then the whole word quoted for the shell."""
    checked_name(key, HYDRA_KEY, "Hydra override key", "'trainer.total_epochs' or '+actor.x'")
    return shell_word(f"{key}={hydra_text(value)}", live)


def hydra_text(value: Any) -> str:
    """A value in Hydra's override grammar (before shell quoting): lists and mappings as Hydra literals, text
    bare when Hydra reads it back unchanged, else a quoted string."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return "null"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(hydra_quoted(item) if isinstance(item, str) else hydra_text(item) for item in value) + "]"
    if isinstance(value, dict):
        for key in value:
            checked_name(str(key), _HYDRA_DICT_KEY, "Hydra mapping key", "'max_tokens' or 'a/b'")
        return "{" + ",".join(f"{k}:{hydra_text(v)}" for k, v in value.items()) + "}"
    text = str(value)
    if _HYDRA_BARE.fullmatch(text):  # a bare comma would make Hydra read a sweep (a,b)
        return text
    return hydra_quoted(text)


def hydra_quoted(text: str) -> str:
    """A Hydra quoted string. Hydra 1.1+ unescapes only backslashes that precede a quote (or the closing one):
    those are doubled and the quote escaped; every other backslash is literal."""
    body = re.sub(r'(\\*)"', lambda m: m.group(1) * 2 + '\\"', text)
    body = re.sub(r"(\\+)\Z", lambda m: m.group(1) * 2, body)  # \Z: $ would match before a final newline
    return f'"{body}"'


def plan_summary(spec: RunSpec) -> list[str]:
    """A few comment lines stating the batch plan in units (for the top of written files)."""
    p = spec.plan
    lines = []
    if p.prompts_per_step is not None:
        lines.append(
            f"{fmt(p.prompts_per_step)} prompts/step × {p.samples_per_prompt} samples/prompt = "
            f"{fmt(p.samples_per_step)} samples/step"
        )
    if p.samples_per_optimizer_step is not None:
        lines.append(
            f"{fmt(p.samples_per_optimizer_step)} samples/optimizer step, "
            f"{fmt(p.optimizer_steps_per_step)} optimizer steps/step ({p.epochs_per_step} epoch(s))"
        )
    if p.micro_batch_per_device is not None:
        lines.append(
            f"{p.data_parallel_size} data-parallel ranks × {fmt(p.micro_batch_per_device)} samples/micro-batch"
            f" × {fmt(p.grad_accum_steps)} accumulation steps"
        )
    return lines


def whole_prompts(spec: RunSpec, notes: NoteList, framework: str, key: str) -> int | None:
    """Prompts per step as the whole number every writer's batch key needs (rounded, with a note when it was
    not whole, e.g. from a source where a round is one micro-step)."""
    prompts = spec.plan.prompts_per_step
    if prompts is None:
        return None
    whole = max(1, round(prompts))
    if Fraction(prompts).denominator != 1:
        notes.warning(
            "batch.not-expressible",
            f"{fmt(prompts)} prompts per step is not a whole number; {framework} needs one, {whole} is written",
            target_keys=[key],
        )
    return whole


REQUIREMENTS = "requirements.txt"


def requirements(framework: str, pins: list[tuple[str, str]]) -> dict[str, str]:
    """The written folder's ``requirements.txt``: the release the output was made for (and a companion package the
    target's parser depends on), exact pins. The user installs from it (``pip install -r requirements.txt``), and
    rlconf's own version reader takes a pin in a project's requirements as its release
    (:mod:`translator.sources.project`), so the folder read back with no ``--from`` is read as what was written."""
    lines = [f"# The {framework} release the files beside this one were written for by rlconf."]
    lines.extend(f"{package}=={version}" for package, version in pins)
    return {REQUIREMENTS: "\n".join(lines) + "\n"}


def source_label(spec: RunSpec) -> str:
    """'FRAMEWORK VERSION' of the source for a comment line: one line, whatever a plan file states."""
    return " ".join(f"{spec.framework} {spec.version or ''}".split())


def step_growth(spec: RunSpec) -> Fraction:
    """How many source steps one written step holds where the target cannot update less often than it generates
    (one optimizer batch per generation): a source that generates several times per optimizer step is written to
    generate the whole optimizer batch at once, so one written step is samples_per_optimizer_step ÷
    samples_per_step of the source's. 1 where the step is kept."""
    p = spec.plan
    if p.samples_per_step and p.samples_per_optimizer_step and p.samples_per_step < p.samples_per_optimizer_step:
        return Fraction(p.samples_per_optimizer_step) / Fraction(p.samples_per_step)
    return Fraction(1)


def written_cadence(every: int, growth: Fraction, notes: NoteList, what: str, key: str) -> int:
    """A cadence of ``every`` source rollout steps in the written steps (each ``growth`` source steps): exact when
    it divides, else the nearest whole number (at least 1) with a note giving both values."""
    if every <= 0 or growth == 1:
        return every
    steps = Fraction(every) / growth
    if steps.denominator == 1:
        notes.info(
            f"units.{what}-steps",
            f"every {every} source steps = every {steps} written steps (one written "
            f"step generates {fmt(growth)} source steps' samples)",
            source_keys=[f"{what}.every_steps"],
            target_keys=[key],
        )
        return int(steps)
    whole = max(1, round(steps))
    notes.warning(
        f"{what}.not-expressible",
        f"every {every} source steps is {fmt(steps)} written steps (one written "
        f"step generates {fmt(growth)} source steps' samples), not a whole number; {key} {whole} is "
        f"written",
        source_keys=[f"{what}.every_steps"],
        target_keys=[key],
    )
    return whole
