"""One entry of the catalogue of rule and note codes (translator/rules.py ``catalogue``): the shared notes in
translator/rule_table.py, each framework's check rules in its folder's rules.py."""

from __future__ import annotations

from typing import Any

from translator.records import record


@record
class RuleInfo:
    """One code. ``kind``: "check" (a rule `rlconf check` runs) or "note" (said while reading or writing a
    config); ``framework``: the framework whose rule it is, or "all"; ``versions``: the releases it applies to
    where that is known ("" = every release the rule's framework reads).

    ``message`` is the error text the framework's own code raises for the check ({…}: a value of the config); for a
    bare ``assert`` (no text of its own) the asserted statement as the framework writes it. A copy of the framework
    kept in a project is known to keep the check by that text (translator/dialects/rejected_keys.py
    ``kept_by_own_code``). ``message_from`` names the package whose text it is where that is not the framework's
    code ("argparse", "deepspeed", "megatron", "omegaconf", "python", "transformers"): a copy of the framework
    cannot be recognised by such a text, so `explain` never refuses a launch running the project's own copy on
    such a rule (only a launch certain to run the release's code); ``earlier_messages`` are earlier releases'
    wordings of the same raise. ``first_step_message`` is the framework's text
    for the same condition where its code stops on it only at the first training step (an assert deep in the
    batch split): a copy that lacks the start-up check but keeps this one stops all the same, a step later."""

    code: str
    kind: str
    framework: str
    severities: tuple[str, ...]
    description: str
    message: str = ""  # the framework's own error text the rule mirrors ({…}: a value of the config)
    message_from: str = ""  # the package whose text ``message`` is, where not the framework's ("" = its own)
    first_step_message: str = ""  # the framework's text for the same failure at the first training step
    # the framework's earlier wordings of the same raise (a copy taken from an older release keeps those)
    earlier_messages: tuple[str, ...] = ()
    # The check refuses a name the release does not define (an estimator, a mode): a copy whose code writes the
    # name as a literal may define it, so the copy keeping the check's text proves nothing
    refuses_unknown_name: bool = False
    source: str = ""  # the docs section and framework file the rule cites
    versions: str = ""
    # The framework's own code raises it before training starts, or at the first training call before any
    # optimizer step (the run never trains): `explain` refuses such a config (exit 2) where the launch certainly
    # runs the release's code (translator/api.py ``start_errors``).
    at_start: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "kind": self.kind,
            "framework": self.framework,
            "versions": self.versions or "all",
            "severities": list(self.severities),
            "description": self.description,
            "message": self.message,
            "message_from": self.message_from,
            "first_step_message": self.first_step_message,
            "refuses_unknown_name": self.refuses_unknown_name,
            "source": self.source,
            "at_start": self.at_start,
        }
