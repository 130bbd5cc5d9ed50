"""The toy framework's reader and writer, and its version table (as data).

toyrl's one launch line: ``python -m toyrl.train --prompts P --group G --update_batch S --gpus N`` where P counts
prompts per rollout step, G completions per prompt, S completions per optimizer step (global), N training GPUs.
"""
from __future__ import annotations

from translator.dialects.base import (
    Dialect,
    Reading,
    ReadOptions,
    Values,
    read_script,
    track_provenance,
)
from translator.errors import ConfigError
from translator.notes import NoteList
from translator.plan import RunSpec
from translator.sources.files import Source

FLAGS = {"--prompts": None, "--group": 4, "--update_batch": None, "--gpus": 1, "--micro": 1}  # flag → default
VERSIONS = ("1.0.0", "1.1.0")  # the version table, as data
CHANGES = {"1.0.0": "first release", "1.1.0": "--micro added (before: one sample per micro-batch)"}


class ToyDialect(Dialect):
    name = "toyrl"
    versions = VERSIONS
    changes = CHANGES
    description = "a toy framework for the test of docs/adding-a-framework.md"

    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        script = read_script(source, options.env, notes)
        command = next((c for c in script.commands if "toyrl.train" in c.argv), None)
        if command is None:
            raise ConfigError("no toyrl launch line", file=source.name, hint="python -m toyrl.train ...")
        argv = command.argv[command.argv.index("toyrl.train") + 1:]
        given = dict(zip(argv[::2], argv[1::2]))
        values = Values(given, {k: f"{source.name}:{command.line}" for k in given}, FLAGS, source.name)
        spec = RunSpec(framework=self.name, version=options.version or self.default_version)
        with track_provenance(spec, values):
            plan = spec.plan
            plan.prompts_per_step = values.positive_int("--prompts")
            plan.samples_per_prompt = values.positive_int("--group")
            plan.samples_per_optimizer_step = values.positive_int("--update_batch")
            plan.data_parallel_size = values.positive_int("--gpus")
            plan.micro_batch_per_device = values.positive_int("--micro")
            plan.epochs_per_step = 1
            plan.complete()
        return Reading(spec, notes, values)

    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        p = spec.plan
        line = (f"python -m toyrl.train --prompts {p.prompts_per_step} --group {p.samples_per_prompt} "
                f"--update_batch {p.samples_per_optimizer_step} --gpus {p.data_parallel_size} "
                f"--micro {p.micro_batch_per_device or 1}")
        return {"launch.sh": "#!/usr/bin/env bash\n" + line + "\n"}

