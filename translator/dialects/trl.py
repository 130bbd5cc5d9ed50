"""TRL GRPOTrainer as used by Open-R1: recipe YAML + accelerate config + ``accelerate launch`` line.

Semantics from ../shared/reference/trl_openr1.md. The world size W is the number of training processes
(a separate vLLM server does not count). Eras: 0.14 counts per_device_train_batch_size in prompts;
0.15–0.16 generate on every micro-step; 0.17 once per accumulation window; 0.18+ once per
``steps_per_generation`` micro-steps.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import yaml

from translator.checks.findings import divisors
from translator.dialects.base import (
    Dialect,
    Reading,
    ReadOptions,
    Values,
    at_least,
    closest_key,
    derived,
    fmt,
    newer_than,
    read_script,
    require_resolved,
    track_provenance,
)
from translator.dialects.sniff import ACCELERATE_KEYS, TRL_RECIPE_KEYS
from translator.dialects.trl_tables import (
    ACCELERATE_VALUE_OPTIONS,
    CHANGES,
    DEFAULTS,
    KEY_RANGE,
    LOSS_TYPES,
    OPEN_R1_KEYS,
    OPEN_R1_TRL_VERSION,
    OTHER_KNOWN_KEYS,
    VERSIONS,
)
from translator.dialects.writing import plan_summary
from translator.errors import ConfigError
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec, exact
from translator.sources.files import Source, flatten, load_yaml_mapping
from translator.sources.hydra import scalar
from translator.sources.shell import unwrap_command

_FLAG_OPTIONS = {"--multi_gpu", "--use_deepspeed", "--use_fsdp", "--same_network", "--cpu", "--no_python",
                 "--debug", "--quiet", "-q", "--tpu", "--standalone"}


class NativeTrl:
    """What the files say: recipe keys (after CLI flags), accelerate settings, the launch topology."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}
        self.accelerate: dict[str, Any] = {}
        self.accelerate_name: str | None = None
        self.world_size: int | None = None
        self.world_size_from: str | None = None
        self.rollout_gpus: int | None = None  # GPUs of a `trl vllm-serve` process


class TrlDialect(Dialect):
    name = "trl"
    aliases = ("open-r1", "openr1", "open_r1", "huggingface/trl")
    versions = VERSIONS
    changes = CHANGES
    stops_at_first_limit = False
    description = "TRL GRPOTrainer / Open-R1 (recipe YAML + accelerate config + accelerate launch)"

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        native = NativeTrl()
        if source.suffix in (".yaml", ".yml"):
            data = load_yaml_mapping(source)
            if ACCELERATE_KEYS.search(source.text) and not TRL_RECIPE_KEYS.search(source.text):
                return self._read_accelerate_only(data, source, options)
            self._merge_recipe(native, data, source.name)
        else:
            self._read_script(source, options, native, notes)
        self._world_size(native, options, notes)
        version = self._version(native, options.version, notes)
        values = Values(native.values, native.origins, defaults_for(version), source.name)
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, values):
            _Interpreter(values, native, version, spec, notes).run()
        self._account(values, version, spec, notes)
        return Reading(spec, notes, values)

    def _read_accelerate_only(self, data: dict[str, Any], source: Source, options: ReadOptions) -> Reading:
        """An accelerate config alone fixes the topology; the batch plan lives in the recipe."""
        notes = NoteList()
        native = NativeTrl()
        native.accelerate, native.accelerate_name = data, source.name
        self._world_size(native, options, notes)
        version = self.resolve_version(options.version)
        spec = RunSpec(framework=self.name, version=version)
        values = Values({}, {}, {}, source.name)
        _Interpreter(values, native, version, spec, notes).topology()
        notes.warning("input.accelerate-config-only",
                      "this is an accelerate config: it gives the number of processes, not the batch plan; explain "
                      "the recipe or the launch script that names both")
        for key, value in flatten(data).items():
            spec.extras.append(Extra("accelerate", key, value))
        return Reading(spec, notes, values)

    @staticmethod
    def _merge_recipe(native: NativeTrl, data: dict[str, Any], origin: str) -> None:
        for key, value in data.items():
            native.values[str(key)] = value
            native.origins[str(key)] = origin

    def _read_script(self, source: Source, options: ReadOptions, native: NativeTrl, notes: NoteList) -> None:
        script = read_script(source, options.env, notes)
        launch = None
        for command in script.commands:
            argv = unwrap_command(command.argv)
            if argv[:2] == ["trl", "vllm-serve"] or argv[:2] == ["vllm", "serve"]:
                native.rollout_gpus = _server_gpus(argv, command.assignments.get("CUDA_VISIBLE_DEVICES"))
            elif _training_script_index(argv) is not None:
                launch = (command, argv)
        if launch is None:
            raise ConfigError("no GRPO training launch found", file=source.name,
                              hint="expected 'accelerate launch ... src/open_r1/grpo.py --config recipe.yaml'")
        command, argv = launch
        require_resolved(command, source)
        origin = f"{source.name}:{command.line}"
        script_index = _training_script_index(argv)
        launcher_options = _options(argv[:script_index])
        script_args = argv[script_index + 1:]
        accelerate_file = launcher_options.get("--config_file") or launcher_options.get("--config-file")
        if accelerate_file:
            accelerate_source = source.sibling(accelerate_file, "accelerate config")
            native.accelerate = load_yaml_mapping(accelerate_source)
            native.accelerate_name = accelerate_source.name
        for flag in ("--num_processes", "--num-processes", "--nproc_per_node", "--nproc-per-node"):
            if flag in launcher_options:
                native.world_size = _whole(launcher_options[flag], flag, origin)
                native.world_size_from = f"{flag.lstrip('-')} {native.world_size} on the launch line"
        if argv[0].startswith("torchrun") and "--nnodes" in launcher_options and native.world_size:
            native.world_size *= _whole(launcher_options["--nnodes"], "--nnodes", origin)
        if argv[0].startswith("python") and native.world_size is None:
            native.world_size, native.world_size_from = 1, "a plain python launch (one process)"
        if "--num_machines" in launcher_options:
            native.accelerate["num_machines"] = _whole(launcher_options["--num_machines"], "--num_machines", origin)
        recipe, flags = _script_arguments(script_args)
        if recipe:
            recipe_source = source.sibling(recipe, "recipe")
            self._merge_recipe(native, load_yaml_mapping(recipe_source), recipe_source.name)
        else:
            notes.warning("input.no-recipe", "the launch line names no --config recipe; only its flags are read")
        known = _known_fields()
        for key, value in flags.items():
            if key not in known:
                # HfArgumentParser is an argparse parser with allow_abbrev: a unique prefix names its field.
                longer = [k for k in known if k.startswith(key)]
                if len(longer) == 1:
                    notes.info("keys.abbreviated", f"--{key} is read as --{longer[0]} (argparse accepts a unique "
                               "prefix of an option)", source_keys=[key], target_keys=longer)
                    key = longer[0]
            native.values[key] = value
            native.origins[key] = origin

    def _world_size(self, native: NativeTrl, options: ReadOptions, notes: NoteList) -> None:
        if native.world_size is None and native.accelerate.get("num_processes") is not None:
            native.world_size = _whole(native.accelerate["num_processes"], "num_processes", native.accelerate_name)
            native.world_size_from = f"num_processes {native.world_size} in {native.accelerate_name}"
        if native.world_size is None:
            if options.num_processes is not None:
                native.world_size = options.num_processes
                native.world_size_from = f"--num-processes {options.num_processes}"
                notes.info("topology.world-size-from-option",
                           f"the config does not state the world size; --num-processes {options.num_processes} is used")
            else:
                notes.warning("topology.world-size-not-stated",
                              "the config does not state the number of training processes, so the global batch "
                              "quantities are unknown; pass --num-processes N (GPUs serving vLLM do not count)")
        elif options.num_processes is not None and options.num_processes != native.world_size:
            notes.warning("topology.world-size-option-ignored",
                          f"--num-processes {options.num_processes} is ignored: {native.world_size_from}")

    def _version(self, native: NativeTrl, explicit: str | None, notes: NoteList) -> str:
        if explicit:
            return self.resolve_version(explicit)
        keys = set(native.values)
        if keys & OPEN_R1_KEYS:
            version, why = OPEN_R1_TRL_VERSION, "Open-R1 recipes run with the TRL its setup.py pins"
        else:
            last = [KEY_RANGE[k][1] for k in keys if k in KEY_RANGE and KEY_RANGE[k][1]]
            newest = min(last, key=lambda v: VERSIONS.index(v)) if last else self.default_version
            version = newest
            why = "the newest release that accepts every key" if last else "the newest known release"
        notes.info("version.assumed", f"assumed trl {version}: {why}; pass --from trl@VERSION to choose")
        return version

    def _account(self, values: Values, version: str, spec: RunSpec, notes: NoteList) -> None:
        known = _known_fields()
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
            if key not in known:
                guess = closest_key(key, known)
                hint = f"; did you mean '{guess}'?" if guess else ""
                notes.warning("keys.unknown", f"'{key}' is not a TRL {version} or Open-R1 argument{hint}"
                              + (" (TrlParser rejects unknown keys since 0.19)" if at_least(version, "0.19.1") else
                                 " (TrlParser ≤ 0.18 drops it silently)"), source_keys=[key])
        for key in values.values:
            if key in KEY_RANGE:
                since, until = KEY_RANGE[key]
                if not at_least(version, since) or (until and newer_than(version, until)):
                    span = f"{since}–{until}" if until else f"{since} on"
                    notes.warning("keys.unknown-in-version",
                                  f"'{key}' is a TRL argument only in {span}, not in {version}", source_keys=[key])

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        writer = _Writer(spec, version, notes)
        recipe, world, nodes, server_gpus = writer.recipe()
        recipe = _accepted_keys(recipe, version, notes)
        header = [f"# TRL {version} GRPO recipe written by rlconf from a {spec.framework} {spec.version or ''} config.",
                  "# per_device_train_batch_size counts completions per process per micro-step"
                  if at_least(version, "0.15.2") else
                  "# per_device_train_batch_size counts prompts per process (trl 0.14)",
                  *(f"#   {line}" for line in plan_summary(spec))]
        accelerate = {
            "compute_environment": "LOCAL_MACHINE", "distributed_type": "DEEPSPEED",
            "deepspeed_config": {"deepspeed_multinode_launcher": "standard", "offload_optimizer_device": "none",
                                 "offload_param_device": "none", "zero3_init_flag": True, "zero_stage": 3},
            "machine_rank": 0, "main_training_function": "main", "mixed_precision": "bf16",
            "num_machines": nodes, "num_processes": world, "rdzv_backend": "static", "same_network": True,
            "use_cpu": False,
        }
        launch = ["#!/usr/bin/env bash", header[0].replace("GRPO recipe", "launch script"),
                  f"# {world} training processes (accelerate num_processes; GPUs serving vLLM do not count).",
                  "set -euo pipefail"]
        if nodes > 1:
            launch.append(f"# Multi-node: run this on each of the {nodes} nodes with --machine_rank set.")
        training_devices = ""
        if server_gpus:
            # The vLLM server takes the first GPUs; on one node, training runs on the next ones.
            devices = ",".join(str(i) for i in range(server_gpus))
            launch.append(f"CUDA_VISIBLE_DEVICES={devices} trl vllm-serve --model {spec.references.model or 'MODEL'}"
                          f" --tensor_parallel_size {server_gpus} &")
            if nodes == 1:
                training_devices = "CUDA_VISIBLE_DEVICES=" + ",".join(
                    str(i) for i in range(server_gpus, server_gpus + world)) + " "
        launch.append(f"{training_devices}accelerate launch --config_file accelerate.yaml --num_processes {world} "
                      'src/open_r1/grpo.py --config recipe.yaml "$@"')
        return {
            "recipe.yaml": "\n".join(header) + "\n" + yaml.safe_dump(recipe, sort_keys=False, width=100),
            "accelerate.yaml": yaml.safe_dump(accelerate, sort_keys=True),
            "launch.sh": "\n".join(launch) + "\n",
        }


_RENAMED = {"torch_dtype": "dtype"}  # ModelConfig renamed it (transformers' own rename)


def _accepted_keys(recipe: dict[str, Any], version: str, notes: NoteList) -> dict[str, Any]:
    """The recipe without the keys TRL ``version``'s parser lacks (its native schema; TrlParser >= 0.19 would
    reject them, <= 0.18 drop them silently), renaming the ones it renamed."""
    from translator.native_schemas import lacks

    out: dict[str, Any] = {}
    dropped = []
    for key, value in recipe.items():
        since, until = KEY_RANGE.get(key, (None, None))
        if since and at_least(version, since) and not (until and newer_than(version, until)):
            out[key] = value  # rlconf's own table says this version has it
        elif not lacks("trl", version, key):
            out[key] = value
        elif _RENAMED.get(key) and not lacks("trl", version, _RENAMED[key]) and _RENAMED[key] not in recipe:
            out[_RENAMED[key]] = value
            notes.info("keys.renamed", f"{key} is {_RENAMED[key]} in TRL {version}", source_keys=[key],
                       target_keys=[_RENAMED[key]])
        else:
            dropped.append(key)
    if dropped:
        notes.warning("keys.not-in-version", f"TRL {version} has no {', '.join(dropped)} (its parser "
                      + ("rejects" if at_least(version, "0.19.1") else "silently drops")
                      + " unknown recipe keys); not written", source_keys=dropped)
    return out


def _known_fields() -> frozenset[str]:
    """The names of every TRL / transformers / Open-R1 argument rlconf knows (any release)."""
    return frozenset(DEFAULTS) | frozenset(KEY_RANGE) | OPEN_R1_KEYS | OTHER_KNOWN_KEYS


def defaults_for(version: str) -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for key, changes in DEFAULTS.items():
        for since, value in changes:
            if at_least(version, since):
                defaults[key] = value
    return defaults


def _training_script_index(argv: list[str]) -> int | None:
    """Index of the training script (grpo.py, `trl grpo`) in a launch command, if this is one."""
    if not argv:
        return None
    if argv[:2] == ["trl", "grpo"]:
        return 1
    for i, word in enumerate(argv):
        if word.endswith(".py") and ("grpo" in word or i > 0) and not word.startswith("-"):
            launcher = argv[0].rsplit("/", 1)[-1]
            if launcher in ("accelerate", "torchrun", "deepspeed") or launcher.startswith("python"):
                return i
    return None


def _options(words: list[str]) -> dict[str, str]:
    """Launcher options (`--opt value`, `--opt=value`) before the training script."""
    found: dict[str, str] = {}
    iterator = iter(words[1:])
    for word in iterator:
        if not word.startswith("-"):
            continue
        flag, eq, value = word.partition("=")
        if eq:
            found[flag] = value
        elif flag in ACCELERATE_VALUE_OPTIONS and flag not in _FLAG_OPTIONS:
            found[flag] = next(iterator, "")
        else:
            found[flag] = "true"
    return found


def _script_arguments(words: list[str]) -> tuple[str | None, dict[str, Any]]:
    """`--config recipe.yaml` and `--key value` overrides after the training script."""
    recipe, flags = None, {}
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("--"):
            continue
        key, eq, value = word[2:].partition("=")
        if not eq:
            if i < len(words) and not words[i].startswith("--"):
                value = words[i]
                i += 1
            else:
                value = "true"
        key = key.replace("-", "_")
        if key == "config":
            recipe = value
        else:
            flags[key] = scalar(value)
    return recipe, flags


def _server_gpus(argv: list[str], visible: str | None) -> int:
    if visible:
        return len([d for d in visible.split(",") if d.strip()])
    options = _options(["serve", *argv[2:]])
    tp = options.get("--tensor_parallel_size") or options.get("--tensor-parallel-size") or "1"
    dp = options.get("--data_parallel_size") or options.get("--data-parallel-size") or "1"
    return int(tp) * int(dp) if tp.isdigit() and dp.isdigit() else 1


def _whole(value: Any, key: str, where: str | None) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, got {value!r}", file=where, key=key,
                          hint=f"set {key} to a positive integer") from None
    if number <= 0:
        raise ConfigError(f"{key} must be greater than 0, got {number}", file=where, key=key,
                          hint=f"set {key} to a positive integer")
    return number


class _Interpreter:
    """Native TRL values → the canonical model."""

    def __init__(self, values: Values, native: NativeTrl, version: str, spec: RunSpec, notes: NoteList) -> None:
        self.v, self.native, self.version, self.spec, self.notes = values, native, version, spec, notes

    def run(self) -> None:
        self.topology()
        self.batch()
        self.algorithm()
        self.rest()

    def topology(self) -> None:
        t, native = self.spec.topology, self.native
        world = native.world_size
        t.training_gpus = world
        machines = native.accelerate.get("num_machines") or 1
        t.nodes = int(machines) if str(machines).isdigit() else 1
        t.gpus_per_node = world // t.nodes if world and world % t.nodes == 0 else None
        kind = str(native.accelerate.get("distributed_type", "")).upper()
        zero = (native.accelerate.get("deepspeed_config") or {}).get("zero_stage")
        t.training_backend = {"DEEPSPEED": f"deepspeed-zero{zero}" if zero is not None else "deepspeed",
                              "FSDP": "fsdp", "MULTI_GPU": "ddp", "NO": "single"}.get(kind) if kind else None
        if world is not None:
            self.spec.plan.data_parallel_size = world
            self.spec.derivations["plan.data_parallel_size"] = Derivation(
                f"{native.world_size_from}", ["num_processes"], "config")

    def batch(self) -> None:
        v, plan, version, notes = self.v, self.spec.plan, self.version, self.notes
        d = self.spec.derivations
        world = plan.data_parallel_size
        pdtbs = v.positive_int("per_device_train_batch_size")
        gas = v.positive_int("gradient_accumulation_steps")
        group = v.positive_int("num_generations")
        iterations = v.positive_int("num_iterations") if at_least(version, "0.16.0") else 1
        plan.samples_per_prompt = group
        plan.epochs_per_step = iterations
        plan.grad_accum_steps = gas
        d["plan.samples_per_prompt"] = self.origin("plan.samples_per_prompt", f"num_generations {group}",
                                                   "num_generations")
        d["plan.epochs_per_step"] = self.origin("plan.epochs_per_step", f"num_iterations {iterations}",
                                                "num_iterations")
        d["plan.grad_accum_steps"] = self.origin("plan.grad_accum_steps", f"gradient_accumulation_steps {gas}",
                                                 "gradient_accumulation_steps")
        if not at_least(version, "0.15.2"):  # 0.14: per_device_train_batch_size counts prompts
            plan.micro_batch_per_device = pdtbs * group
            d["plan.micro_batch_per_device"] = derived(
                f"per_device_train_batch_size {pdtbs} prompts × num_generations {group}",
                "per_device_train_batch_size", "num_generations")
            notes.info("units.prompts-vs-samples", f"in trl 0.14 per_device_train_batch_size counts prompts: "
                       f"{pdtbs} prompts × {group} generations = {pdtbs * group} completions per process per "
                       "micro-step", source_keys=["per_device_train_batch_size"])
            per_round_per_process, round_text = pdtbs * group, "one micro-step (trl 0.14 generates every micro-step)"
            plan.optimizer_steps_per_step = Fraction(1, gas)
        else:
            plan.micro_batch_per_device = pdtbs
            d["plan.micro_batch_per_device"] = self.origin(
                "plan.micro_batch_per_device", f"per_device_train_batch_size {pdtbs} completions",
                "per_device_train_batch_size")
            if not at_least(version, "0.17.0"):
                per_round_per_process = pdtbs
                round_text = f"one micro-step (trl {version} generates every micro-step)"
                plan.optimizer_steps_per_step = exact(Fraction(iterations, gas))
            elif not at_least(version, "0.18.0"):
                per_round_per_process = pdtbs * gas
                round_text = "one accumulation window (gradient_accumulation_steps micro-steps)"
                plan.optimizer_steps_per_step = iterations
            else:
                spg = self.steps_per_generation(pdtbs, gas, world)
                per_round_per_process = pdtbs * spg if spg else None
                round_text = f"steps_per_generation {spg} micro-steps"
                plan.optimizer_steps_per_step = exact(Fraction(spg * iterations, gas)) if spg else None
        d["plan.optimizer_steps_per_step"] = derived(
            f"one generation round = {round_text}; trained on {iterations} time(s), one optimizer step every "
            f"{gas} micro-steps", "gradient_accumulation_steps", "num_iterations", "steps_per_generation")
        max_steps = v.number("max_steps")
        if max_steps and max_steps > 0 and plan.optimizer_steps_per_step:
            plan.total_steps = math.ceil(Fraction(int(max_steps)) / Fraction(plan.optimizer_steps_per_step))
            self.spec.run_length.total_optimizer_steps = int(max_steps)
            d["plan.total_steps"] = derived(
                f"ceil(max_steps {int(max_steps)} optimizer steps ÷ {fmt(plan.optimizer_steps_per_step)} per step)",
                "max_steps")
        per_process_opt = plan.micro_batch_per_device * gas
        if world is None:
            return
        plan.samples_per_optimizer_step = per_process_opt * world
        d["plan.samples_per_optimizer_step"] = derived(
            f"{fmt(plan.micro_batch_per_device)} completions × {world} processes × gradient_accumulation_steps {gas}",
            "per_device_train_batch_size", "gradient_accumulation_steps")
        if per_round_per_process is None:
            return
        samples = per_round_per_process * world
        plan.samples_per_step = samples
        plan.prompts_per_step = exact(Fraction(samples, group))
        d["plan.samples_per_step"] = derived(f"{per_round_per_process} completions per process per round × "
                                             f"{world} processes", "per_device_train_batch_size")
        d["plan.prompts_per_step"] = derived(f"{samples} completions ÷ num_generations {group}", "num_generations")
        if samples % group:
            valid = [g for g in divisors(samples) if g >= 2][:24]
            notes.warning("batch.indivisible", f"{self.divisibility_message(samples, group, pdtbs, gas, world)} "
                          f"(TRL rejects this; num_generations values that divide {samples}: {valid})",
                          source_keys=["num_generations", "per_device_train_batch_size"])

    def divisibility_message(self, samples: int, group: int, pdtbs: int, gas: int, world: int) -> str:
        """The era's own wording of the rule that a generation round holds whole groups."""
        if at_least(self.version, "0.20.0"):
            return f"generation_batch_size ({samples}) must be divisible by num_generations ({group})."
        if at_least(self.version, "0.18.0"):
            spg = samples // (pdtbs * world)
            return (f"The effective train batch size ({world} x {pdtbs} x {spg}) must be evenly divisible by the "
                    f"number of generations per prompt ({group}).")
        if at_least(self.version, "0.17.0"):
            return (f"The effective train batch size ({world} x {pdtbs} x {gas}) must be evenly divisible by the "
                    f"number of generations per prompt ({group}).")
        return (f"The global train batch size ({world} x {pdtbs}) must be evenly divisible by the number of "
                f"generations per prompt ({group}).")

    def steps_per_generation(self, pdtbs: int, gas: int, world: int | None) -> int | None:
        v = self.v
        spg, gbs = v.positive_int("steps_per_generation"), v.positive_int("generation_batch_size")
        if spg is not None and gbs is not None:
            self.notes.warning("keys.conflict", "'generation_batch_size' and 'steps_per_generation' can not be both "
                               "configured at the same time", source_keys=["generation_batch_size",
                                                                            "steps_per_generation"])
        if spg is not None:
            return spg
        if gbs is None:
            return gas
        if world is None:
            return None
        if gbs % (pdtbs * world):
            self.notes.warning("batch.indivisible", f"generation_batch_size ({gbs}) must be divisible by the global "
                               f"batch size ({pdtbs * world})", source_keys=["generation_batch_size"])
        return gbs // (pdtbs * world)

    def origin(self, field: str, text: str, *keys: str) -> Derivation:
        return Derivation(text, list(keys), "config" if any(k in self.v for k in keys) else "default")

    def algorithm(self) -> None:
        v, a, version, notes = self.v, self.spec.algorithm, self.version, self.notes
        a.advantage_estimator = "grpo"
        scale = v.get("scale_rewards")
        if isinstance(scale, str) and scale.lower() in ("true", "false"):
            scale = scale.lower() == "true"
        a.advantage_std_normalization = scale not in (False, "none")
        a.advantage_normalization_scope = "batch" if scale == "batch" else "group"
        beta = v.number("beta")
        a.kl_placement = "loss" if beta else "none"
        a.kl_coef = beta or 0.0  # the effective coefficient: 0 when there is no KL term
        a.kl_estimator = "k3" if beta else None
        if at_least(version, "0.16.0"):
            a.clip_ratio_low = v.number("epsilon")
            high = v.number("epsilon_high")
            a.clip_ratio_high = high if high is not None else a.clip_ratio_low
        loss_type = v.get("loss_type")
        if loss_type is None:  # before 0.17: per-sequence mean (0.14–0.15), local token mean (0.16)
            loss_type = "bnpo" if at_least(version, "0.16.0") else "grpo"
        aggregation = LOSS_TYPES.get(str(loss_type))
        if aggregation is None:
            notes.warning("algorithm.unknown-loss-type", f"loss_type '{loss_type}' is not known to rlconf",
                          source_keys=["loss_type"])
            aggregation = (str(loss_type), None)
        a.loss_aggregation, a.loss_normalizer_scope = aggregation
        if loss_type == "dapo" and not at_least(version, "1.10.0"):
            spg = v.get("steps_per_generation")
            if spg and spg != v.get("gradient_accumulation_steps"):
                notes.warning("algorithm.loss-scaling",
                              f"trl {version} mis-scales the dapo loss by gradient_accumulation_steps ÷ "
                              "steps_per_generation when they differ (fixed in 1.10)", source_keys=["loss_type"])
        level = v.get("importance_sampling_level")
        a.policy_loss = "gspo" if level == "sequence" else "vanilla"
        entropy = v.number("entropy_coef")
        a.entropy_coef = entropy if entropy is not None else 0.0

    def rest(self) -> None:
        v, s, version, notes = self.v, self.spec, self.version, self.notes
        prompt_length = v.consume("max_prompt_length")
        if "max_prompt_length" in v and at_least(version, "0.26.0"):
            notes.warning("semantics.ignored-key", f"max_prompt_length is ignored by trl {version} (deprecated in "
                          "0.26, removed in 0.28): prompts are not truncated", source_keys=["max_prompt_length"])
        elif prompt_length is not None:
            s.lengths.max_prompt_tokens = v.positive_int("max_prompt_length")
        s.lengths.max_response_tokens = v.positive_int("max_completion_length")
        s.sampling.temperature = v.number("temperature")
        s.sampling.top_p = v.number("top_p")
        top_k = v.number("top_k")
        s.sampling.top_k = int(top_k) if top_k and top_k > 0 else -1  # None and 0 disable top-k in TRL
        o = s.optimizer
        o.lr = v.number("learning_rate")
        o.lr_schedule = str(v.get("lr_scheduler_type"))
        warmup_steps = v.number("warmup_steps")
        if warmup_steps:
            o.warmup_steps, o.warmup_unit = int(warmup_steps), "optimizer_steps"
        else:
            o.warmup_ratio = v.number("warmup_ratio")
        o.weight_decay = v.number("weight_decay")
        o.grad_clip = v.number("max_grad_norm")
        s.run_length.dataset_passes = v.number("num_train_epochs")
        g = s.generation
        use_vllm = bool(v.flag("use_vllm"))
        g.rollout_backend = "vllm" if use_vllm else "hf"
        t = s.topology
        if not use_vllm:
            t.rollout_gpus = 0
        elif at_least(version, "0.18.0"):
            g.rollout_mode = str(v.get("vllm_mode"))
            t.rollout_gpus = 0 if g.rollout_mode == "colocate" else self.native.rollout_gpus
            if g.rollout_mode == "colocate":
                t.rollout_tensor_parallel_size = v.positive_int("vllm_tensor_parallel_size")
        elif at_least(version, "0.16.0"):
            g.rollout_mode = "server"
            t.rollout_gpus = self.native.rollout_gpus
            v.consume("vllm_device")
        else:
            g.rollout_mode = "device"  # in-process vLLM on one spare GPU (vllm_device, default "auto")
            v.consume("vllm_device")
            t.rollout_gpus = 1
        r = s.references
        r.model = v.get("model_name_or_path")
        r.train_data = v.get("dataset_name")
        r.reward = v.get("reward_funcs")
        weights = v.get("reward_weights")
        r.reward_weights = list(weights) if isinstance(weights, list) else None
        s.asynchrony.max_steps_ahead = 0


# TrainingArguments fields of transformers 4.56.2 that 5.10.4 no longer has (read from both wheels; the oracle test
# tests/test_oracle_trl.py found overwrite_output_dir carried into trl 1.16.0 recipes). TRL's requirements name
# transformers 5 from 0.28.0 on; its TrlParser rejects a recipe key no dataclass declares.
TRANSFORMERS_5_FROM = "0.28.0"
GONE_IN_TRANSFORMERS_5 = frozenset({
    "adafactor", "fp16_backend", "fp16_opt_level", "fsdp_min_num_params", "fsdp_transformer_layer_cls_to_wrap",
    "group_by_length", "half_precision_backend", "include_inputs_for_metrics", "include_tokens_per_second",
    "jit_mode_eval", "mp_parameters", "no_cuda", "overwrite_output_dir", "past_index", "per_gpu_eval_batch_size",
    "per_gpu_train_batch_size", "push_to_hub_model_id", "push_to_hub_organization", "push_to_hub_token", "ray_scope",
    "save_safetensors", "torchdynamo", "tpu_metrics_debug", "tpu_num_cores", "use_ipex", "use_legacy_prediction_loop",
    "use_mps_device",
})


class _Writer:
    """Canonical model → a TRL recipe for one version, choosing batch knobs that keep the plan."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes

    def recipe(self) -> tuple[dict[str, Any], int, int, int]:
        s, version, notes = self.spec, self.version, self.notes
        recipe: dict[str, Any] = {}
        if s.references.model:
            recipe["model_name_or_path"] = s.references.model
        if isinstance(s.references.train_data, str):
            recipe["dataset_name"] = s.references.train_data
        elif s.references.train_data is not None:
            notes.warning("references.not-expressible", f"training data {s.references.train_data!r} is not a dataset "
                          "name; set dataset_name (or Open-R1's dataset_mixture) by hand",
                          target_keys=["dataset_name"])
        world, batch = self.batch_knobs()
        recipe.update(batch)
        recipe.update(self.algorithm())
        recipe.update(self.other())
        nodes = s.topology.nodes if s.topology.nodes and world % s.topology.nodes == 0 else 1
        if s.topology.training_gpus and s.topology.training_gpus != world:
            parallel = [f"{name} {size}" for name, size in (
                ("sequence parallel", s.topology.sequence_parallel_size), ("tensor parallel",
                 s.topology.tensor_parallel_size), ("pipeline parallel", s.topology.pipeline_parallel_size),
                ("context parallel", s.topology.context_parallel_size)) if size and size > 1]
            layout = ", ".join(parallel) or "no model parallelism"
            notes.warning("topology.gpus-changed",
                          f"the source trains on {s.topology.training_gpus} GPUs ({layout}); TRL GRPO runs one "
                          f"data-parallel process per GPU, so {world} processes keep the {world} data-parallel "
                          "ranks", source_keys=["topology.training_gpus"],
                          target_keys=["num_processes"])
        server_gpus = s.topology.rollout_gpus or 0
        if at_least(version, "0.18.0"):
            recipe["use_vllm"] = True
            recipe["vllm_mode"] = "server" if server_gpus else "colocate"
            if not server_gpus and s.topology.rollout_tensor_parallel_size:
                tp = s.topology.rollout_tensor_parallel_size
                recipe["vllm_tensor_parallel_size"] = tp if world % tp == 0 else 1
        elif at_least(version, "0.16.0"):
            recipe["use_vllm"] = True
            server_gpus = server_gpus or 1
        else:
            recipe["use_vllm"] = True
            recipe["vllm_device"] = "auto"
            server_gpus = 0  # in-process on GPU number `world`
        foreign = [e for e in s.extras if e.framework != "trl"]
        gone = []
        for extra in s.extras:
            if extra.framework == "trl":
                if extra.key in GONE_IN_TRANSFORMERS_5 and at_least(version, TRANSFORMERS_5_FROM):
                    gone.append(extra.key)
                else:
                    recipe.setdefault(extra.key, extra.value)
        if gone:
            notes.warning("keys.not-in-version", f"transformers 5's TrainingArguments has no {', '.join(gone)}, so "
                          f"TrlParser rejects a trl {version} recipe with it (trl ≥ {TRANSFORMERS_5_FROM} runs on "
                          "transformers 5); not written", source_keys=gone)
        if foreign:
            notes.info("keys.not-translated", f"{len(foreign)} {foreign[0].framework} key(s) with no TRL counterpart "
                       "are not written: " + ", ".join(e.key for e in foreign[:12])
                       + (" …" if len(foreign) > 12 else ""), source_keys=[e.key for e in foreign])
        return recipe, world, nodes, server_gpus

    def batch_knobs(self) -> tuple[int, dict[str, Any]]:
        plan, version, notes = self.spec.plan, self.version, self.notes
        world = plan.data_parallel_size or self.spec.topology.training_gpus or 8
        group = plan.samples_per_prompt or 8
        if group < 2:
            notes.warning("algorithm.group-too-small", f"TRL GRPO needs num_generations >= 2; the source samples "
                          f"{group} completion(s) per prompt, 2 is written", target_keys=["num_generations"])
            group = 2
        per_opt = Fraction(plan.samples_per_optimizer_step or world * (plan.micro_batch_per_device or 1))
        per_step = Fraction(plan.samples_per_step or per_opt)
        epochs = plan.epochs_per_step or 1
        knobs: dict[str, Any] = {"num_generations": group}
        if not at_least(version, "0.15.2"):
            # 0.14: per_device_train_batch_size counts prompts; a round is one micro-step.
            micro = Fraction(plan.micro_batch_per_device or per_opt / world)
            pdtbs = max(1, round(micro / group))
            gas = max(1, round(per_opt / (pdtbs * group * world)))
            knobs.update(per_device_train_batch_size=pdtbs, gradient_accumulation_steps=gas)
            return world, knobs
        pdtbs = self.choose_micro(world, per_opt, per_step)
        gas = per_opt / (pdtbs * world)
        if gas.denominator != 1:
            gas = Fraction(max(1, round(gas)))
            notes.warning("batch.not-expressible", f"{fmt(per_opt)} samples per optimizer step is not a multiple of "
                          f"{world} processes × {pdtbs}; gradient_accumulation_steps {gas} is written",
                          target_keys=["gradient_accumulation_steps"])
        knobs.update(per_device_train_batch_size=pdtbs, gradient_accumulation_steps=int(gas))
        if self.spec.framework != "trl":
            notes.info("units.per-device-vs-global",
                       f"TRL batches are per process: per_device_train_batch_size {pdtbs} completions × {world} "
                       f"processes × gradient_accumulation_steps {gas} = {fmt(per_opt)} samples per optimizer step",
                       source_keys=["plan.samples_per_optimizer_step"],
                       target_keys=["per_device_train_batch_size", "gradient_accumulation_steps"])
        if at_least(version, "0.18.0"):
            spg = per_step / (pdtbs * world)
            if spg.denominator != 1:
                spg = Fraction(max(1, round(spg)))
                notes.warning("batch.not-expressible", f"{fmt(per_step)} samples per step is not a multiple of "
                              f"{world} processes × {pdtbs}; steps_per_generation {spg} is written",
                              target_keys=["steps_per_generation"])
            knobs["steps_per_generation"] = int(spg)
        if at_least(version, "0.16.0"):
            knobs["num_iterations"] = epochs
        elif epochs != 1:
            notes.warning("batch.not-expressible", f"trl {version} has no num_iterations; {epochs} passes per "
                          "generation round cannot be written", target_keys=["num_iterations"])
        return world, knobs

    def choose_micro(self, world: int, per_opt: Fraction, per_step: Fraction) -> int:
        """The per-device batch: the source's micro-batch if it divides the global batches, else the closest."""
        wanted = self.spec.plan.micro_batch_per_device
        common = math.gcd(int(per_opt), int(per_step)) if per_opt.denominator == per_step.denominator == 1 else 0
        candidates = [d for d in range(1, common // world + 1) if common % (d * world) == 0] if common else []
        if wanted is not None and int(wanted) in candidates:
            return int(wanted)
        target = int(wanted) if wanted else 8
        if not candidates:
            return max(1, target)
        best = min(candidates, key=lambda d: (abs(d - target), -d))
        if wanted is not None:
            self.notes.warning("batch.micro-changed", f"a micro-batch of {fmt(wanted)} samples per device does not "
                               f"divide the batches over {world} processes; per_device_train_batch_size {best}",
                               target_keys=["per_device_train_batch_size"])
        else:
            self.notes.warning("batch.token-budget-not-expressible",
                               f"TRL has no token-budget micro-batching; per_device_train_batch_size {best} is written "
                               f"(the source packs up to {self.spec.token_budget.max_tokens_per_device} tokens)",
                               target_keys=["per_device_train_batch_size"])
        return best

    def algorithm(self) -> dict[str, Any]:
        a, version, notes = self.spec.algorithm, self.version, self.notes
        out: dict[str, Any] = {}
        if a.advantage_estimator not in (None, "grpo", "grpo_vectorized", "grpo_passk"):
            severity = "error" if a.advantage_estimator == "gae" else "warning"
            notes.add(severity, "algorithm.not-expressible",
                      f"TRL GRPOTrainer computes group-normalised (GRPO) advantages; the source uses "
                      f"'{a.advantage_estimator}'" + (", which needs a critic" if severity == "error" else ""),
                      source_keys=["algorithm.advantage_estimator"])
        if a.kl_placement in ("reward", "both"):
            notes.warning("algorithm.not-expressible", "TRL puts KL only in the loss (beta); the source's in-reward "
                          f"KL (coefficient {a.kl_coef}) is dropped", source_keys=["algorithm.kl_placement"],
                          target_keys=["beta"])
        out["beta"] = a.kl_coef if a.kl_placement in ("loss", "both") and a.kl_coef else 0.0
        if out["beta"] and a.kl_estimator not in (None, "k3"):
            notes.warning("algorithm.kl-estimator", f"TRL's KL term is the k3 estimator; the source uses "
                          f"{a.kl_estimator}", target_keys=["beta"])
        if at_least(version, "0.16.0"):
            if a.clip_ratio_low is not None:
                out["epsilon"] = a.clip_ratio_low
            if a.clip_ratio_high is not None and a.clip_ratio_high != a.clip_ratio_low:
                out["epsilon_high"] = a.clip_ratio_high
        elif a.clip_ratio_low is not None:
            notes.info("algorithm.not-expressible", f"trl {version} has no clipping knobs (epsilon from 0.16)",
                       target_keys=["epsilon"])
        if at_least(version, "0.22.2"):
            out["scale_rewards"] = "none" if a.advantage_std_normalization is False else (
                "batch" if a.advantage_normalization_scope == "batch" else "group")
        elif at_least(version, "0.16.0"):
            out["scale_rewards"] = a.advantage_std_normalization is not False
            if a.advantage_normalization_scope == "batch":
                notes.warning("algorithm.not-expressible", "batch-level std scaling needs trl 0.22+",
                              target_keys=["scale_rewards"])
        loss_type = self.loss_type()
        if loss_type:
            out["loss_type"] = loss_type
        if a.policy_loss == "gspo":
            if at_least(version, "0.20.0"):
                out["importance_sampling_level"] = "sequence"
            else:
                notes.warning("algorithm.not-expressible", "GSPO (sequence-level ratios) needs trl 0.20+")
        elif a.policy_loss not in (None, "vanilla"):
            notes.warning("algorithm.not-expressible", f"policy loss '{a.policy_loss}' has no TRL counterpart")
        if a.entropy_coef:
            if at_least(version, "1.10.0"):
                out["entropy_coef"] = a.entropy_coef
            else:
                notes.warning("algorithm.not-expressible", f"an entropy bonus ({a.entropy_coef}) needs trl 1.8+")
        return out

    def loss_type(self) -> str | None:
        a, version, notes = self.spec.algorithm, self.version, self.notes
        if not at_least(version, "0.17.0"):
            if a.loss_aggregation:
                notes.info("algorithm.loss-aggregation", f"trl {version} has no loss_type; its loss is "
                           + ("a local token mean" if at_least(version, "0.16.0") else "a per-sequence mean"),
                           target_keys=["loss_type"])
            return None
        wanted = (a.loss_aggregation or "token-mean", a.loss_normalizer_scope)
        available = {name: agg for name, agg in LOSS_TYPES.items() if name in ("grpo", "bnpo", "dr_grpo")
                     or (name == "dapo" and at_least(version, "0.22.2"))}
        for name, agg in available.items():
            if agg == wanted:
                return name
        for name, agg in available.items():
            if agg[0] == wanted[0]:
                notes.warning("algorithm.loss-normalizer-scope",
                              f"loss '{wanted[0]}' normalised over each {str(wanted[1]).replace('_', ' ')} has no exact "
                              f"TRL {version} loss_type; '{name}' normalises over each {agg[1].replace('_', ' ')}",
                              target_keys=["loss_type"])
                return name
        fallback = "dapo" if at_least(version, "0.22.2") else "bnpo"
        notes.warning("algorithm.not-expressible", f"loss aggregation '{wanted[0]}' has no TRL {version} loss_type; "
                      f"'{fallback}' is written", target_keys=["loss_type"])
        return fallback

    def other(self) -> dict[str, Any]:
        s, version, notes = self.spec, self.version, self.notes
        out: dict[str, Any] = {}
        if s.lengths.max_prompt_tokens is not None:
            if at_least(version, "0.26.0"):
                notes.warning("lengths.not-expressible", f"trl {version} does not truncate prompts "
                              f"(max_prompt_length {s.lengths.max_prompt_tokens} not written); filter the dataset",
                              source_keys=["lengths.max_prompt_tokens"])
            else:
                out["max_prompt_length"] = s.lengths.max_prompt_tokens
        if s.lengths.max_response_tokens is not None:
            out["max_completion_length"] = s.lengths.max_response_tokens
        if s.sampling.temperature is not None:
            out["temperature"] = s.sampling.temperature
        if at_least(version, "0.16.0"):
            if s.sampling.top_p is not None:
                out["top_p"] = s.sampling.top_p
            if s.sampling.top_k is not None:
                disabled = s.sampling.top_k <= 0
                out["top_k"] = (0 if at_least(version, "0.27.0") else None) if disabled else s.sampling.top_k
        o = s.optimizer
        if o.lr is not None:
            out["learning_rate"] = o.lr
        if o.lr_schedule:
            out["lr_scheduler_type"] = o.lr_schedule
        if o.warmup_steps is not None:
            steps = o.warmup_steps
            if o.warmup_unit == "steps":
                per_step = s.plan.optimizer_steps_per_step or 1
                steps = math.ceil(o.warmup_steps * per_step)
                notes.info("units.warmup", f"warmup of {o.warmup_steps} rollout steps = {steps} optimizer steps; "
                           "TRL counts warmup_steps in optimizer steps", target_keys=["warmup_steps"])
            out["warmup_steps"] = steps
        elif o.warmup_ratio is not None:
            out["warmup_ratio"] = o.warmup_ratio
        if o.weight_decay is not None:
            out["weight_decay"] = o.weight_decay
        if o.grad_clip is not None:
            out["max_grad_norm"] = o.grad_clip
        if s.run_length.dataset_passes is not None:
            out["num_train_epochs"] = s.run_length.dataset_passes
        if s.plan.total_steps is not None and s.plan.optimizer_steps_per_step:
            out["max_steps"] = math.ceil(s.plan.total_steps * Fraction(s.plan.optimizer_steps_per_step))
        if isinstance(s.references.reward, list):
            out["reward_funcs"] = list(s.references.reward)
            if s.references.reward_weights:
                out["reward_weights"] = list(s.references.reward_weights)
        elif s.references.reward:
            notes.warning("references.not-expressible", f"reward function {s.references.reward!r} is a file; Open-R1 "
                          "names reward functions from its registry (reward_funcs)", target_keys=["reward_funcs"])
        if s.asynchrony.max_steps_ahead:
            notes.warning("asynchrony.not-expressible", "TRL GRPOTrainer generates synchronously; the source's "
                          f"{s.asynchrony.max_steps_ahead}-step asynchrony is dropped")
        out["bf16"] = True
        return out
