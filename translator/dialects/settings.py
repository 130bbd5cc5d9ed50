"""Run settings outside the batch plan, read and written through one table per framework.

Each framework's table lists, for a canonical field, the native key that holds it (with the reading
condition) or the fixed behaviour of a framework that has no key for it. Defaults come from the framework's
own schema (``translator/schema_data``, generated from its released source) at the version in use, so a
release whose default differs (a λ of 0.95 that became 1) is read as that release.

A writer puts each set field under the target's key; where the target has no key (its schema has none of the
same meaning, see tests/test_settings.py) the note says so and what the run does instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from translator import native_schemas
from translator.notes import NoteList
from translator.plan import Derivation, RunSpec
from translator.records import record

# The canonical fields these tables carry (translator/plan.py documents each).
FIELDS = (
    "algorithm.gamma",
    "algorithm.gae_lambda",
    "algorithm.reward_normalization",
    "critic.value_clip",
    "optimizer.gradient_checkpointing",
    "data.image_key",
    "data.apply_chat_template",
    "data.chat_template",
    "data.filter_overlong_prompts",
    "evaluation.temperature",
    "evaluation.top_p",
    "evaluation.samples_per_prompt",
    "launch.seed",
    "logging.entity",
)
# A value that does what a framework without the key does anyway: nothing to tell when it cannot be written.
NEUTRAL: dict[str, Any] = {
    "algorithm.gamma": 1.0,
    "algorithm.reward_normalization": False,
    "optimizer.gradient_checkpointing": False,
    "data.filter_overlong_prompts": False,
}
# What is lost when a field cannot be written, for the note.
CONSEQUENCE = {
    "algorithm.gamma": "returns are not discounted",
    "algorithm.gae_lambda": "GAE runs with the target's own λ",
    "algorithm.reward_normalization": "reward-model scores are used unnormalised",
    "critic.value_clip": "the value loss is clipped with the target's own bound, if at all",
    "optimizer.gradient_checkpointing": "activations are kept in memory: a large model may run out of memory",
    "data.image_key": "the prompts' images are not read: a vision-language run becomes text-only",
    "data.chat_template": "the tokenizer's own chat template is used",
    "data.apply_chat_template": "prompts reach the model as the target formats them",
    "data.filter_overlong_prompts": "overlong prompts are truncated or rejected rather than filtered out",
    "evaluation.temperature": "evaluation samples with the target's own temperature",
    "evaluation.top_p": "evaluation samples with the target's own top-p",
    "evaluation.samples_per_prompt": "evaluation draws the target's own number of samples per prompt",
    "launch.seed": "the target's own seed is used",
    "logging.entity": "runs are logged under the W&B default entity",
}
# Estimators that use a discount (GAE; REINFORCE++'s discounted returns) and GAE's λ and value clip (a critic).
DISCOUNTED = ("gae", "reinforce_plus_plus", "reinforce_plus_plus_baseline")


@record(frozen=True)
class Setting:
    """``field`` is held by native ``key``; or, with ``key`` None, the framework always behaves as ``fixed``
    (``why`` says where that is decided)."""

    field: str
    key: str | None
    needs: str = ""  # gae | discount | eval: read only when the run uses it
    explicit: bool = False  # read only when the config sets the key (the default names a column, nothing more)
    fixed: Any = None
    why: str = ""


def kind(field: str) -> str:
    if field in (
        "algorithm.reward_normalization",
        "optimizer.gradient_checkpointing",
        "data.apply_chat_template",
        "data.filter_overlong_prompts",
    ):
        return "flag"
    if field in ("evaluation.samples_per_prompt", "launch.seed"):
        return "int"
    if field in ("data.image_key", "data.chat_template", "logging.entity"):
        return "text"
    return "number"


def schema_default(framework: str, version: str, key: str) -> Any:
    """The default of ``key`` in the schema of ``framework`` nearest at or below ``version`` (None: none)."""
    for schema in native_schemas.schemas_for(framework, version)[:1]:
        prop = schema.property(key)
        if prop is not None:
            return prop.get("default")
    return None


def _used(spec: RunSpec, needs: str) -> bool:
    estimator = spec.algorithm.advantage_estimator
    if needs == "gae":
        return estimator == "gae"
    if needs == "discount":
        return estimator in DISCOUNTED
    if needs == "eval":  # evaluation data that is evaluated on (not merely loaded, as verl must)
        e = spec.evaluation
        return bool(spec.data.eval_sources) and (e.every_steps != 0 or bool(e.before_training))
    return True


def read_settings(
    spec: RunSpec,
    v: Any,
    table: Sequence[Setting],
    framework: str,
    version: str,
    exists: Callable[[str], bool],
    native: Callable[[str], str] = str,
) -> None:
    """Set each field of ``table`` the run uses from its key (at the release's default when unset)."""
    for s in table:
        if s.key is None:
            if s.fixed is not None and _used(spec, s.needs) and spec.get(s.field) is None:
                spec.set(s.field, s.fixed, Derivation(s.why, [], "default"))
            continue
        if not exists(s.key) or not _used(spec, s.needs) or (s.explicit and s.key not in v):
            continue
        default = schema_default(framework, version, native(s.key))
        what = kind(s.field)
        if what == "flag":
            value: Any = v.flag(s.key, default)
        elif what == "number":
            value = v.number(s.key, default)
        elif what == "int":
            number = v.number(s.key, default)
            value = int(number) if isinstance(number, (int, float)) else number
        else:
            text = v.get(s.key, default)
            value = str(text) if text not in (None, "") else None
        spec.set(s.field, value)  # None too: the keys read are then not credited to the next field


def write_settings(
    spec: RunSpec,
    table: Sequence[Setting],
    label: str,
    exists: Callable[[str], bool],
    put: Callable[[str, Any], None],
    notes: NoteList,
    native: Callable[[str], str] = str,
    skip: Sequence[str] = (),
) -> None:
    """Put each set field under the target's key; note what the target cannot express (``skip``: fields the
    writer handles itself)."""
    for name in FIELDS:
        value = spec.get(name)
        if value is None or name in skip:
            continue
        rows = [s for s in table if s.field == name]
        keyed = [s for s in rows if s.key is not None and exists(s.key)]
        if keyed:
            put(keyed[0].key, value)  # type: ignore[arg-type]
            continue
        fixed = [s for s in rows if s.key is None]
        if fixed:
            if fixed[0].fixed != value:
                notes.warning(
                    f"{name.split('.')[0]}.not-expressible",
                    f"{name} {value!r} cannot be written: {fixed[0].why}",
                    source_keys=[name],
                )
            continue
        if name in NEUTRAL and NEUTRAL[name] == value:
            continue
        known = [native(s.key) for s in rows if s.key is not None]
        since = f" (its {', '.join(known)} is not in this release)" if known else ""
        notes.warning(
            f"{name.split('.')[0]}.not-expressible",
            f"{label} has no counterpart of {name}{since}: the source's {value!r} is not written; "
            f"{CONSEQUENCE.get(name, 'the target default applies')}",
            source_keys=[name],
        )
