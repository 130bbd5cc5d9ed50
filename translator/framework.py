"""What the core knows of a framework: one registration object per framework, all of it data.

Each framework's folder (``translator/frameworks/<fw>/``) defines one :class:`Framework` in its ``__init__.py``
and ``translator/frameworks/__init__.py`` lists them. The core (the registry, detection, comparison, native-key
validation, the checks' engine, the schema generator) reads these fields instead of asking which framework it has.
Code is named as ``"module:attribute"`` and imported on first use, so listing the frameworks imports none of
their readers (start-up stays light).
"""

from __future__ import annotations

import importlib
from dataclasses import field
from typing import Any

from translator.records import record


@record(frozen=True)
class Detection:
    """How a framework's files look (regular expressions, compiled on first use by translator/dialects/sniff.py)."""

    script: str | None = None  # a launch script's entry point (the module or file it runs)
    yaml: str | None = None  # a YAML config's key structure (searched line by line: re.M)
    # One word of the framework's own argument namespace: tells a fork's own entry point, and which program of a
    # command takes the framework's arguments.
    arguments: str | None = None
    # Frameworks whose argument namespace, when a command has it too, makes the command theirs (a fork that keeps
    # some of this framework's sections beside its own).
    yields_to: tuple[str, ...] = ()
    # The launch that takes those arguments: a script holding only them, in a variable another script passes on
    # (TRAINING_ARGS="--a 1 ..." sourced by a job script), is read as that launch with them.
    launch: str | None = None


@record(frozen=True)
class NativeKeys:
    """The native keys a validation judges, prepared by a framework's hook (:attr:`NativeRules.prepare`)."""

    values: dict[str, Any]  # native key as the framework spells it → value
    origins: dict[str, str]  # key → "file:line" where it was set
    exempt: frozenset[str] = frozenset()  # keys not checked (the framework lets a user add them)
    added: tuple[str, ...] = ()  # keys from a file merged without a key check: only a likely typo is noted
    notes: tuple[Any, ...] = ()  # notes the hook made itself (translator.notes.Note)


@record(frozen=True)
class NativeRules:
    """How the framework's own parser treats keys and values (translator/native_schemas.py)."""

    flags: bool = False  # keys are command-line flags: shown as --key
    unknown_keys: str = "unknown keys are rejected"  # what the parser does with a key it does not know
    # (first version, what the parser does from that version on), oldest first; overrides unknown_keys when the
    # config's version is known
    unknown_keys_since: tuple[tuple[str, str], ...] = ()
    # the JSON types the parser checks values against; None: every type (an untyped YAML checks few)
    checked_types: frozenset[str] | None = None
    rejects_null: bool = False  # null is refused for a field that is not Optional
    computes_with_defaults: bool = False  # a wrong value is one the framework computes with (not one it rejects)
    merged_keys_reader: str = ""  # wording of "a YAML config may add keys, but <this> reads only its own"
    own_key_hint: str = ""  # how a user adds a key of their own ('{key}' is replaced)
    # "module:function" (Reading, source text) → NativeKeys | None (None: nothing to validate)
    prepare: str | None = None


@record(frozen=True)
class DataLoader:
    """The columns a framework's dataset loader reads (translator/data_contract.py): the prompt column's default
    name and the type it needs ("text", "chat", or "any": either), where that is decided, and the columns every row
    must have besides, as (role, default name); the role "answer" follows the config's answer key (a default of
    "" : only when the config names one)."""

    prompt_default: str
    prompt_kind: str
    cited: str
    required: tuple[tuple[str, str], ...] = ()
    # a chat list of several messages is a conversation whose last message is the answer: the prompt is the rest
    last_message_is_answer: bool = False
    # a column that, when every row has it, the loader reads in place of the prompt and required columns (NeMo-RL's
    # ResponseDataset takes a `messages` column as it stands): rows holding it are not checked further
    instead: str = ""
    # a column whose value, where a row has one, picks that row's reward in place of the config's (SkyRL's
    # env_class): the config's reward is then only the default
    row_reward: str = ""


@record(frozen=True)
class Framework:
    """One framework, as the core sees it."""

    name: str  # the registry name (lower case)
    label: str  # the name as the framework spells it, for messages
    dialect: str  # "module:Class" of its translator.dialects.base.Dialect
    aliases: tuple[str, ...] = ()
    checks: str | None = None  # module with ``check(values, spec, version) -> list[Finding]``
    rules: str | None = None  # "module:RULES": its check rules in the catalogue of codes (translator/rules.py)
    detection: Detection = field(default_factory=Detection)
    native: NativeRules = field(default_factory=NativeRules)
    # "module:function" () → iterable of (old, new) native key names a release renamed (translator/compare.py)
    renames: str | None = None
    # "module:function" () → iterable of (old prefix, new prefix): sections a release moved
    moved_sections: str | None = None
    # "module" with ``add_arguments(parser)`` and ``generate(args, outs, wanted)`` (scripts/gen_schemas.py)
    schema_generator: str | None = None
    schema_companions: tuple[str, ...] = ()  # other schema names its generator writes (a library it builds on)
    optimizer_checks_lr: bool = True  # the optimizer refuses a negative learning rate (torch's AdamW does)
    data_loader: DataLoader | None = None  # the columns its loader reads, when rlconf checks them
    # "module:function" (RunSpec) → DataLoader: where the loader's contract depends on the config (a chat template
    # applied or not, the training script it runs); used instead of data_loader
    data_loader_for: str | None = None
    # the native key of a reward-function path that the framework resolves from its repository root (where its
    # launch runs), not beside the config; None: resolved as written
    reward_path_key: str | None = None
    # path of its concordance (translator/concordance.py): every native key → canonical fields, or why none
    concordance: str | None = None
    # paths (their endings) of files only a copy of the framework's own code has: a project holding one may run
    # that copy, whose parser may take keys the release's does not
    copy_markers: tuple[str, ...] = ()
    # the top-level names its Python package is imported by (a project's own entry that imports it runs on it)
    packages: tuple[str, ...] = ()
    # entry scripts a copy keeps beside its package rather than in it (slime's train.py): its code too
    copy_entries: tuple[str, ...] = ()


def load(reference: str) -> Any:
    """The object a "module:attribute" reference names, imported now."""
    module, _, attribute = reference.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
