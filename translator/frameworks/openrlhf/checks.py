"""OpenRLHF rules: what ``train_ppo_ray`` (and DeepSpeed under it) rejects at start-up, and what it silently changes.

Source: the constraint checks of ``cli/train_ppo_ray.py`` (``_validate_args`` up to 0.7.0, the ``__main__`` block
and ``train()``) in every release wheel 0.4.0–0.11.2 (0.4.0 read from 0.4.0.post2/.post3);
docs/frameworks/openrlhf.md §6 lists them with their messages. Units: ``rollout.batch_size`` counts prompts
(global, per rollout step; samples in 0.4.0–0.4.4), ``train.batch_size`` samples (global, per optimizer step), the
micro batches samples per GPU; dp = actor GPUs ÷ (ring attention × DeepSpeed TP). Errors carry the framework's own
message text, which named the flat flags up to 0.10.3 even after the 0.10.2 rename. Keys in findings and
suggestions are spelled the way the version's parser spells them (flat up to 0.10.1, dotted from 0.10.2); a
suggested value ``None`` means "drop the flag", ``False`` "leave the switch off".
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable
from typing import Any

from translator.checks.findings import (
    Finding,
    Suggestion,
    divisors,
    nearest,
    nearest_multiple,
)
from translator.dialects.base import Values, at_least, closest_key, newer_than
from translator.frameworks.openrlhf.dialect import (
    engines_compared,
    engines_type_error,
    flag_exists,
    group_assert_of,
    spelled,
)
from translator.frameworks.openrlhf.tables import (
    ALL_DOTTED,
    ALL_FLAT,
    COLOCATE_MEMORY_FORCED,
    DOTTED_SINCE,
    ENGINES_GE_UNTIL,
    ENGINES_GREATER,
    ESTIMATOR_SINCE,
    HF_GENERATE_UNTIL,
    PACKING_SINCE,
    PER_RANK_PROMPTS_UNTIL,
    POWER_OF_TWO_UNTIL,
    RBS_DIVISIBLE_SINCE,
    SAMPLE_DATASET_UNTIL,
)
from translator.plan import RunSpec

GAMMA_FORCED = ("rloo", "reinforce_baseline", "group_norm", "dr_grpo")  # experience_maker resets gamma to 1
GAMMA_FORCED_SINCE = "0.6.3"
COLOCATE_ALL_ASSERT_SINCE = "0.5.9"  # train(): actor GPUs = engines × TP under colocate_all_models
KL_COLOCATE_ASSERT_SINCE = "0.6.1"  # the actor/ref size assert applies only when init_kl_coef > 0
ROLLOUT_BATCHES_ASSERT_SINCE = "0.7.2"  # n × rbs // micro_rollout ≥ actor GPUs // ring
# --advantage_estimator's argparse choices, in the parser's order (the same list 0.8.0–0.11.1; flash_reinforce from
# ESTIMATOR_SINCE, i.e. 0.11.2).
ESTIMATOR_CHOICES = ("gae", "reinforce", "rloo", "reinforce_baseline", "group_norm", "dr_grpo", "flash_reinforce")
# Other frameworks' names (verl's, the papers') for an OpenRLHF estimator: the fix for an invalid choice.
ESTIMATOR_ALIASES = {
    "ppo": "gae",
    "grpo": "group_norm",
    "reinforce++": "reinforce",
    "reinforce_plus_plus": "reinforce",
    "reinforce_plus_plus_baseline": "reinforce_baseline",
    "drgrpo": "dr_grpo",
    "dr-grpo": "dr_grpo",
}
DYNAMIC_RANGE_SINCE = "0.8.3"  # 0.8.1's filtering assert compared --reward_clip_range instead
EVAL_MESSAGE_AGENT_SINCE = "0.10.4"  # the eval-dataset assert's text named the agent from 0.10.4, reworded in 0.11.0
VLM_SINCE = "0.10.0"  # --max_images_per_prompt and its asserts
THRESHOLD_ASSERT_SINCE = "0.11.2"  # is_correction_threshold became nargs="+" with a length assert
DOTTED_MESSAGES_SINCE = "0.10.4"  # assert texts switched to the dotted names one release after the rename


class _Run:
    """The flags of one launch line, read without side effects, with the quantities the rules share."""

    def __init__(self, native: Values, spec: RunSpec, version: str) -> None:
        self.native, self.spec, self.version = native, spec, version
        self.world = self.count("actor.num_nodes") * self.count("actor.num_gpus_per_node")
        self.ring, self.tp = self.count("ds.ring_attn_size", 1), self.count("ds.tensor_parallel_size", 1)
        self.dp = max(1, self.world // (self.ring * self.tp))
        self.rbs, self.n = self.count("rollout.batch_size"), self.count("rollout.n_samples_per_prompt", 1)
        self.tbs, self.micro = self.count("train.batch_size"), self.count("train.micro_batch_size", 1)
        self.rollout_micro = self.count("rollout.micro_batch_size", 1)
        self.prompts = int(spec.plan.prompts_per_step or self.rbs)  # vllm_generate_batch_size may decide it
        # 0.4.0–0.4.4: rollout_batch_size counts samples, the n copies of a prompt are in the dataset, not in a step
        self.sample_dataset = not newer_than(version, SAMPLE_DATASET_UNTIL)
        if self.sample_dataset:
            self.n = 1
            steps = spec.plan.samples_per_step  # floored to whole loader batches; 0 when update_timesteps is 0
            self.prompts = int(steps) if steps is not None else self.rbs
        self.samples = self.prompts * self.n  # samples per rollout step
        self.dynamic = self.on("train.dynamic_batch_enable")
        self.engines = self.count("vllm.num_engines", 0)
        self.vllm_tp = self.count("vllm.tensor_parallel_size", 1)
        self.colocate_all, self.asynchronous = self.on("train.colocate_all"), self.on("train.async_enable")
        self.estimator = str(self.raw("algo.advantage.estimator") or "gae")  # 0.5.0: no flag, always GAE
        self.per_rank = not newer_than(version, PER_RANK_PROMPTS_UNTIL)  # _validate_args era (≤ 0.7.0)
        self.filtering = self.on("algo.dynamic_filtering_enable")

    def key(self, internal: str) -> str:
        """The flag as this version's parser spells it."""
        return spelled(internal, self.version) or internal

    def raw(self, internal: str, default: Any = None) -> Any:
        if internal in self.native.values:
            return self.native.values[internal]
        return self.native.defaults.get(internal, default)

    def count(self, internal: str, default: int = 0) -> int:
        value = _number(self.raw(internal))
        return int(value) if value is not None and abs(value) < float("inf") else default

    def on(self, internal: str) -> bool:
        return self.raw(internal) in (True, "true", "True", 1)

    def dotted_messages(self) -> bool:
        return at_least(self.version, DOTTED_MESSAGES_SINCE)

    def finding(
        self, rule: str, severity: str, message: str, internals: list[str], fixes: list[tuple[dict[str, Any], str]]
    ) -> Finding:
        """A finding whose keys, values and suggested changes are spelled for this version."""
        keys = [self.key(k) for k in internals]
        values = {self.key(k): _plain(self.raw(k)) for k in internals}
        suggestions = [Suggestion({self.key(k): v for k, v in changes.items()}, text) for changes, text in fixes]
        return Finding(rule, severity, message, keys, values, suggestions)  # type: ignore[arg-type]


def _plain(value: Any) -> Any:
    """A flag's value as a number when it is one (argparse would convert it), else as written."""
    number = _number(value)
    return value if number is None else number


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value  # exact: float() of an integer past 1e308 raises OverflowError
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int of more than ~308 digits
        return None
    return int(number) if number.is_integer() else number


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    run = _Run(native, spec, version)
    findings: list[Finding] = []
    for rule in RULES:
        findings.extend(rule(run))
    return findings


# ---------------------------------------------------------------- flags and topology
def flag_scheme(run: _Run) -> list[Finding]:
    """0.10.2 renamed every flag with no alias: the other scheme's spelling is an argparse error (§1 item 1, §12 item
    1)."""
    written: dict[str, str] = getattr(run.native, "written", {})
    wrong = {
        internal: name
        for internal, name in written.items()
        if (own := spelled(internal, run.version)) and own != name and flag_exists(own, run.version)
    }
    if not wrong:
        return []
    words = []
    for internal, name in wrong.items():
        value = run.native.values[internal]
        words.append(
            f"--{name}" + ("" if value is True else " " + (" ".join(value) if isinstance(value, list) else str(value)))
        )
    scheme = "dotted" if at_least(run.version, DOTTED_SINCE) else "flat"
    changes: dict[str, Any] = {}
    for internal, name in wrong.items():
        changes[name] = None
        changes[run.key(internal)] = run.native.values[internal]
    renames = ", ".join(f"--{name} → --{run.key(internal)}" for internal, name in wrong.items())
    return [
        Finding(
            "openrlhf.flag-scheme",
            "error",
            f"unrecognized arguments: {' '.join(words)}",
            list(wrong.values()),
            {name: run.native.values[i] for i, name in wrong.items()},
            [Suggestion(changes, f"OpenRLHF {run.version} takes only {scheme} flags: {renames}")],
        )
    ]


def unknown_flag(run: _Run) -> list[Finding]:
    """A flag this version's parser does not have (in neither scheme): argparse's 'unrecognized arguments' (§1 item 1).
    The reader keeps such flags as extras, with the words after them as their values."""
    written = set(getattr(run.native, "written", {}).values())
    unknown = [
        (extra.key, extra.value)
        for extra in run.spec.extras
        if extra.key not in written and extra.key not in run.native.values and not flag_exists(extra.key, run.version)
    ]
    if not unknown:
        return []
    words = [
        f"--{name}"
        + ("" if value is True else " " + (" ".join(map(str, value)) if isinstance(value, list) else str(value)))
        for name, value in unknown
    ]
    known = [n for n in sorted(ALL_FLAT | ALL_DOTTED) if flag_exists(n, run.version)]
    drop = {name: None for name, _ in unknown}
    fixes = [
        Suggestion(
            drop, f"OpenRLHF {run.version}'s train_ppo_ray has no " + ", ".join(f"--{name}" for name, _ in unknown)
        )
    ]
    renames, renamed = {}, []
    for name, value in unknown:
        guess = closest_key(name, known)
        if guess and guess not in written and guess not in renames and value is not True:
            renames.update({name: None, guess: value})
            renamed.append(f"--{name} → --{guess}")
    if renames:
        fixes.append(
            Suggestion(
                {**drop, **renames}, f"the flag(s) meant, spelled as OpenRLHF {run.version} does: {', '.join(renamed)}"
            )
        )
    return [
        Finding(
            "openrlhf.unknown-flag",
            "error",
            f"unrecognized arguments: {' '.join(words)}",
            [name for name, _ in unknown],
            dict(unknown),
            fixes,
        )
    ]


def estimator_choice(run: _Run) -> list[Finding]:
    """--advantage_estimator is an argparse choice; a name from another framework (grpo) is rejected (§5.1)."""
    choices = [c for c in ESTIMATOR_CHOICES if c not in ESTIMATOR_SINCE or at_least(run.version, ESTIMATOR_SINCE[c])]
    if run.estimator in choices:
        return []
    meant = ESTIMATOR_ALIASES.get(run.estimator.lower()) or next(
        iter(difflib.get_close_matches(run.estimator.lower(), choices, n=1, cutoff=0.8)), None
    )
    group = group_assert_of(run.version, meant or "")[0]
    if meant not in choices or (meant in group and run.n <= 1):
        meant, why = ("group_norm", "GRPO") if run.n > 1 else ("reinforce", "REINFORCE++, which needs no group")
    else:
        why = f"OpenRLHF's name for {run.estimator}" if meant != run.estimator.lower() else "the choice meant"
    key = run.key("algo.advantage.estimator")
    return [
        run.finding(
            "openrlhf.invalid-estimator",
            "error",
            f"argument --{key}: invalid choice: {run.estimator!r} (choose from {', '.join(map(repr, choices))})",
            ["algo.advantage.estimator"],
            [({"algo.advantage.estimator": meant}, why)],
        )
    ]


def parallel_divides_gpus(run: _Run) -> list[Finding]:
    """ring attention × DeepSpeed TP groups must tile the actor GPUs; OpenRLHF builds them without a check."""
    group = run.ring * run.tp
    if run.world % group == 0 or run.world < group:
        return []
    nodes = run.count("actor.num_nodes", 1)
    step = group // math.gcd(group, nodes)  # GPUs per node must be a multiple of this
    fixes = []
    for per_node in nearest_multiple(run.count("actor.num_gpus_per_node"), step):
        if _keeps_batches(run, world=nodes * per_node):
            fixes.append(
                (
                    {"actor.num_gpus_per_node": per_node},
                    (
                        f"{nodes * per_node} actor GPUs = "
                        f"{nodes * per_node // group} data-parallel groups of ring {run.ring} × TP {run.tp}"
                    ),
                )
            )
            break
    ring, tp = math.gcd(run.world, run.ring), math.gcd(run.world // math.gcd(run.world, run.ring), run.tp)
    if _keeps_batches(run, ring=ring, tp=tp) or not fixes:
        fixes.append(
            (
                {"ds.ring_attn_size": ring, "ds.tensor_parallel_size": tp},
                f"keeps the {run.world} actor GPUs as {run.world // (ring * tp)} data-parallel ranks",
            )
        )
    return [
        run.finding(
            "openrlhf.parallel-divides-gpus",
            "error",
            f"{run.world} actor GPUs are not divisible by ring_attn_size {run.ring} × DeepSpeed tensor "
            f"parallel {run.tp} = {group}: the ranks left over get no ring/TP group and training "
            "cannot start (OpenRLHF does not check this)",
            ["actor.num_nodes", "actor.num_gpus_per_node", "ds.ring_attn_size", "ds.tensor_parallel_size"],
            fixes,
        )
    ]


def vllm_engines_required(run: _Run) -> list[Finding]:
    """From 0.8.0 there is no HF-generate fallback: without vLLM engines a run cannot roll out (§3, §8 rule 5). Up to
    0.7.5 the actor generates, but _validate_args of 0.5.0 and 0.5.6–0.7.0 compares the unset flag with 0."""
    if run.engines > 0:
        return []
    packing = run.on("ds.packing_samples") or run.ring > 1 or run.dynamic  # ring and dynamic batch force packing
    engines_key = run.key("vllm.num_engines")
    unset = run.raw("vllm.num_engines") is None
    if not newer_than(run.version, HF_GENERATE_UNTIL) and not packing:
        if not (unset and engines_compared(run.version)):
            return []
        return [
            run.finding(
                "openrlhf.vllm-engines-required",
                "error",
                engines_type_error(run.version, f"--{engines_key}"),
                ["vllm.num_engines"],
                [
                    ({"vllm.num_engines": max(1, run.world // run.vllm_tp)}, "vLLM engines for the rollout"),
                    ({"vllm.num_engines": 0}, "the actor generates (HF generate)"),
                ],
            )
        ]
    if packing and unset and not newer_than(run.version, ENGINES_GE_UNTIL):
        message = engines_type_error(run.version, f"--{engines_key}")  # the __main__ block compares it first
    elif packing and unset:
        # The flag defaults to None (0.8.0–0.11.2), so the packing assert's `args.vllm_num_engines > 0` raises a
        # TypeError before its own message can show (tests/test_oracle_openrlhf.py).
        message = (
            "'>' not supported between instances of 'NoneType' and 'int' (train_ppo_ray's packing check "
            f"compares --{engines_key}, not set, with 0: packing needs vLLM engines)"
        )
    elif packing:
        message = "Only support `--packing_samples` with vLLM."
    else:
        message = (
            f"--{engines_key} is not set: OpenRLHF generates only with vLLM engines, so the first rollout step fails"
        )
    colocated = run.colocate_all and not run.asynchronous
    if colocated and run.world % run.vllm_tp:  # colocate_all needs engines × TP = actor GPUs
        fix: dict[str, Any] = {"vllm.num_engines": run.world, "vllm.tensor_parallel_size": 1}
    else:
        fix = {"vllm.num_engines": max(1, run.world // run.vllm_tp)}
    engines, tp = fix["vllm.num_engines"], fix.get("vllm.tensor_parallel_size", run.vllm_tp)
    where = "on the actor GPUs (colocate_all)" if colocated else f"on {engines * tp} GPUs of their own"
    return [
        run.finding(
            "openrlhf.vllm-engines-required",
            "error",
            message,
            ["vllm.num_engines", "vllm.tensor_parallel_size"],
            [(fix, f"{engines} engine(s) × TP {tp} {where}")],
        )
    ]


def colocate_all_engines(run: _Run) -> list[Finding]:
    """Synchronous colocate_all puts one vLLM GPU on every actor GPU (§6 row 27)."""
    needed = run.engines * run.vllm_tp
    if (
        not (run.engines and run.colocate_all and not run.asynchronous)
        or needed == run.world
        or not at_least(run.version, COLOCATE_ALL_ASSERT_SINCE)
    ):
        return []
    fixes = []
    if run.world % run.vllm_tp == 0:
        fixes.append(
            (
                {"vllm.num_engines": run.world // run.vllm_tp},
                f"keeps vLLM TP {run.vllm_tp}: {run.world // run.vllm_tp} engines fill the {run.world} GPUs",
            )
        )
    if run.world % run.engines == 0:
        fixes.append(
            (
                {"vllm.tensor_parallel_size": run.world // run.engines},
                f"keeps {run.engines} engine(s), each over {run.world // run.engines} GPUs",
            )
        )
    if not fixes:
        fixes.append(({"vllm.num_engines": run.world, "vllm.tensor_parallel_size": 1}, "one engine per actor GPU"))
    return [
        run.finding(
            "openrlhf.colocate-all-engine-gpus",
            "error",
            "actor_num_nodes * actor_num_gpus_per_node must be equal to vllm_num_engines * "
            f"vllm_tensor_parallel_size, got {run.world} and {needed}",
            ["actor.num_nodes", "actor.num_gpus_per_node", "vllm.num_engines", "vllm.tensor_parallel_size"],
            fixes,
        )
    ]


def _same_size(run: _Run, rule: str, first: str, second: str, message: str) -> list[Finding]:
    """Two colocated model groups share one placement group, so their sizes must match (§6 rows 26, 28)."""
    sizes = [(run.count(f"{m}.num_nodes"), run.count(f"{m}.num_gpus_per_node")) for m in (first, second)]
    if sizes[0] == sizes[1]:
        return []
    return [
        run.finding(
            rule,
            "error",
            message,
            [f"{first}.num_nodes", f"{first}.num_gpus_per_node", f"{second}.num_nodes", f"{second}.num_gpus_per_node"],
            [
                (
                    {f"{second}.num_nodes": sizes[0][0], f"{second}.num_gpus_per_node": sizes[0][1]},
                    f"the {second} group takes the {first}'s {sizes[0][0]} × {sizes[0][1]} GPUs",
                )
            ],
        )
    ]


def colocate_actor_ref(run: _Run) -> list[Finding]:
    colocated = run.on("train.colocate_actor_ref") or run.colocate_all
    without_kl = (_number(run.raw("algo.kl.init_coef")) or 0) <= 0  # no reference model without KL (from 0.6.0)
    if not colocated or (without_kl and at_least(run.version, KL_COLOCATE_ASSERT_SINCE)):
        return []
    return _same_size(
        run,
        "openrlhf.colocate-actor-ref-sizes",
        "actor",
        "ref",
        "num_nodes and num_gpus_per_node must be the same when colocate actor and ref model.",
    )


def colocate_critic_reward(run: _Run) -> list[Finding]:
    if run.estimator != "gae" or not run.on("train.colocate_critic_reward"):  # only GAE has a critic
        return []
    return _same_size(
        run,
        "openrlhf.colocate-critic-reward-sizes",
        "critic",
        "reward",
        "num_nodes and num_gpus_per_node must be the same when colocate critic and reward model.",
    )


def tensor_parallel_bf16(run: _Run) -> list[Finding]:
    """DeepspeedStrategy asserts bf16 for AutoTP: ``--bf16`` up to 0.9.1, ``param_dtype bf16`` after (§6 row 29)."""
    if run.tp <= 1:
        return []
    if at_least(run.version, "0.9.2"):
        if str(run.raw("ds.param_dtype", "bf16")) == "bf16":
            return []
        fix: dict[str, Any] = {"ds.param_dtype": "bf16"}
    elif run.on("bf16"):
        return []
    else:
        fix = {"bf16": True}
    fixes: list[tuple[dict[str, Any], str]] = [(fix, f"keeps DeepSpeed tensor parallel {run.tp}")]
    if _keeps_batches(run, tp=1):
        fixes.append(
            ({"ds.tensor_parallel_size": 1}, (f"no DeepSpeed tensor parallelism; dp becomes {run.world // run.ring}"))
        )
    return [
        run.finding(
            "openrlhf.tensor-parallel-needs-bf16",
            "error",
            "BF16 is required for tensor parallel training",
            ["ds.tensor_parallel_size", next(iter(fix))],
            fixes,
        )
    ]


# ---------------------------------------------------------------- batch sizes
def _valid_train_batch(run: _Run, tbs: int, micro: int) -> bool:
    return tbs % (micro * run.dp) == 0 and (run.estimator != "gae" or tbs % (micro * _critic_dp(run)) == 0)


def _critic_dp(run: _Run) -> int:
    return max(1, run.count("critic.num_nodes") * run.count("critic.num_gpus_per_node") // (run.ring * run.tp))


def _batch_breaks(run: _Run, **changed: int) -> set[str]:
    """The batch checks that fail with some sizes changed (world, ring, tp, rbs, tbs, micro): a fix that changes
    the topology or the rollout must not break one that held before."""
    v = {"world": run.world, "ring": run.ring, "tp": run.tp, "rbs": run.rbs, "tbs": run.tbs, "micro": run.micro}
    v.update(changed)
    group = v["ring"] * v["tp"]
    dp = v["world"] // group
    broken = {"groups"} if v["world"] % group or not dp else set()
    effective = v["world"] // v["ring"] // (v["tp"] if at_least(run.version, "0.8.1") else 1)
    if run.n * v["rbs"] // run.rollout_micro < effective:
        broken.add("rollout")
    critic_dp = run.count("critic.num_nodes") * run.count("critic.num_gpus_per_node") // group
    if not run.dynamic and dp and v["tbs"] % (v["micro"] * dp):
        broken.add("train")
    if not run.dynamic and run.estimator == "gae" and critic_dp and v["tbs"] % (v["micro"] * critic_dp):
        broken.add("critic")
    return broken


def _keeps_batches(run: _Run, **changed: int) -> bool:
    return _batch_breaks(run, **changed) <= _batch_breaks(run)


def _train_batch_choices(run: _Run, micro: int) -> list[int]:
    """Valid train batches near the current one, preferring those that divide the rollout samples."""
    unit = math.lcm(micro * run.dp, micro * _critic_dp(run)) if run.estimator == "gae" else micro * run.dp
    whole = [m for m in divisors(run.samples) if m % unit == 0]
    return nearest(whole, run.tbs, 1) if whole else nearest_multiple(run.tbs, unit)[:1]


def _deepspeed_message(run: _Run, world: int) -> str:
    """DeepSpeed's own assert on ds_config train_batch_size = tbs·ring·tp and micro, GA floored by OpenRLHF."""
    train_batch = run.tbs * run.ring * run.tp
    accumulation = train_batch // run.micro // world
    if accumulation == 0:
        return "Gradient accumulation steps: 0 has to be greater than 0"
    return (
        "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
        f"gradient_acc_step * world_size {train_batch} != {run.micro} * {accumulation} * {world}"
    )


def train_batch_divisible(run: _Run) -> list[Finding]:
    """GA = tbs // micro // dp is floored without a check; DeepSpeed then rejects the sizes (§4, §6 row 35)."""
    if run.dynamic or run.tbs % (run.micro * run.dp) == 0:  # dynamic batching gives DeepSpeed micro 1, GA 1
        return []
    fixes = []
    local = run.tbs // run.dp if run.tbs % run.dp == 0 else 0
    micros = [m for m in divisors(local) if _valid_train_batch(run, run.tbs, m)] if local else []
    if micros:
        micro = nearest(micros, run.micro, 1)[0]
        fixes.append(
            (
                {"train.micro_batch_size": micro},
                (
                    f"keeps train batch {run.tbs} samples and {run.world} "
                    f"GPUs: {run.tbs // run.dp // micro} accumulation step(s) of {micro} per GPU"
                ),
            )
        )
    for tbs in _train_batch_choices(run, run.micro):
        fixes.append(
            (
                {"train.batch_size": tbs},
                (
                    f"keeps micro {run.micro} and {run.world} GPUs: "
                    f"{tbs // (run.micro * run.dp)} accumulation step(s), "
                    f"{run.samples / tbs:g} optimizer step(s) per rollout"
                ),
            )
        )
    return [
        run.finding(
            "openrlhf.train-batch-divisible",
            "error",
            _deepspeed_message(run, run.world),
            ["train.batch_size", "train.micro_batch_size", "actor.num_nodes", "actor.num_gpus_per_node"],
            fixes,
        )
    ]


def critic_train_batch_divisible(run: _Run) -> list[Finding]:
    """The GAE critic trains with the actor's batch sizes on its own ranks (§3 resources, inferred)."""
    critic_world = run.count("critic.num_nodes") * run.count("critic.num_gpus_per_node")
    if run.estimator != "gae" or run.dynamic or run.tbs % (run.micro * _critic_dp(run)) == 0:
        return []
    fixes = []
    if run.tbs % (run.micro * run.dp) == 0:
        fixes.append(
            (
                {
                    "critic.num_nodes": run.count("actor.num_nodes"),
                    "critic.num_gpus_per_node": run.count("actor.num_gpus_per_node"),
                },
                "the critic gets the actor's GPU count, whose ranks divide the train batch",
            )
        )
    for tbs in _train_batch_choices(run, run.micro):
        fixes.append(({"train.batch_size": tbs}, f"keeps micro {run.micro} and the GPU counts"))
    return [
        run.finding(
            "openrlhf.critic-train-batch-divisible",
            "error",
            _deepspeed_message(run, critic_world),
            ["train.batch_size", "train.micro_batch_size", "critic.num_nodes", "critic.num_gpus_per_node"],
            fixes,
        )
    ]


def too_few_rollout_batches(run: _Run) -> list[Finding]:
    """Every DP group needs one experience batch: n·rbs // micro_rollout ≥ effective actors (§6 row 25)."""
    effective = run.world // run.ring // (run.tp if at_least(run.version, "0.8.1") else 1)
    total = run.n * run.rbs
    if total // run.rollout_micro >= effective or not at_least(run.version, ROLLOUT_BATCHES_ASSERT_SINCE):
        return []
    fixes = []
    if total >= effective:  # smaller experience batches suffice
        micro = total // effective if total % effective == 0 else 1  # the largest m with m × effective | total
        fixes.append(
            (
                {"rollout.micro_batch_size": micro},
                (f"{total} samples = {total // micro} experience batches of {micro} for {effective} actor groups"),
            )
        )
    prompts = -(-effective * run.rollout_micro // run.n)
    fixes.append(
        (
            {"rollout.batch_size": prompts},
            (
                f"keeps experience batches of {run.rollout_micro}: {prompts} "
                f"prompts × {run.n} fill {effective} actor groups"
            ),
        )
    )
    return [
        run.finding(
            "openrlhf.too-few-rollout-batches",
            "error",
            "The number of sample batches must be greater than or equal to the effective number of actor processes.",
            ["rollout.micro_batch_size", "rollout.batch_size", "rollout.n_samples_per_prompt"],
            fixes,
        )
    ]


def oversampling_needs_async(run: _Run) -> list[Finding]:
    """From 0.10.0 a vLLM call larger than the rollout batch buffers the surplus, which needs the async queue."""
    gen = run.count("rollout.vllm_generate_batch_size")
    if not at_least(run.version, "0.10.0") or gen <= run.rbs or run.asynchronous:
        return []
    message = (
        "--rollout.vllm_generate_batch_size > --rollout.batch_size requires --train.async_enable"
        if run.dotted_messages()
        else "--vllm_generate_batch_size > --rollout_batch_size requires --async_train"
    )
    return [
        run.finding(
            "openrlhf.oversampling-needs-async",
            "error",
            message + " (over-sampling needs async queue to buffer extra batches).",
            ["rollout.vllm_generate_batch_size", "rollout.batch_size", "train.async_enable"],
            [
                (_async_on(run), (f"keeps over-sampling {gen} prompts per vLLM call, trained {run.rbs} per step")),
                ({"rollout.vllm_generate_batch_size": None}, f"one vLLM call of {run.rbs} prompts per step"),
            ],
        )
    ]


def _async_on(run: _Run) -> dict[str, Any]:
    """Switching async training on; sleeping vLLM engines are not allowed with it (§6 row 16)."""
    return {"train.async_enable": True} | ({"vllm.enable_sleep": False} if run.on("vllm.enable_sleep") else {})


def _sync_fits(run: _Run) -> bool:
    """Whether the run can go synchronous: nothing needs the async queue, and colocated vLLM fills the actor GPUs."""
    return (
        not run.on("train.partial_rollout_enable")
        and run.count("rollout.vllm_generate_batch_size") <= run.rbs
        and (not run.colocate_all or run.engines * run.vllm_tp == run.world)
    )


def _requires_async(run: _Run, rule: str, switch: str, message: str) -> list[Finding]:
    return [
        run.finding(
            rule,
            "error",
            message,
            [switch, "train.async_enable"],
            [
                ({switch: False}, f"synchronous training without --{run.key(switch)}"),
                (_async_on(run), "asynchronous training"),
            ],
        )
    ]


def partial_rollout_needs_async(run: _Run) -> list[Finding]:
    if not run.on("train.partial_rollout_enable") or run.asynchronous:
        return []
    message = (
        "--train.partial_rollout_enable requires --train.async_enable."
        if run.dotted_messages()
        else "--partial_rollout requires --async_train."
    )
    return _requires_async(run, "openrlhf.partial-rollout-needs-async", "train.partial_rollout_enable", message)


def async_vllm_sleep(run: _Run) -> list[Finding]:
    # enable_sleep is switched off without colocate_all before this assert is reached
    if not (run.asynchronous and run.on("vllm.enable_sleep") and run.colocate_all):
        return []
    flag = "--vllm.enable_sleep" if run.dotted_messages() else "--vllm_enable_sleep"
    return [
        run.finding(
            "openrlhf.async-vllm-sleep",
            "error",
            f"Async RLHF is not supported with {flag}.",
            ["train.async_enable", "vllm.enable_sleep"],
            [
                ({"vllm.enable_sleep": False}, "keeps asynchronous training; vLLM stays awake"),
                *(
                    [({"train.async_enable": False}, "synchronous training with sleeping vLLM engines")]
                    if _sync_fits(run)
                    else []
                ),
            ],
        )
    ]


# ---------------------------------------------------------------- algorithm
def group_estimator_samples(run: _Run) -> list[Finding]:
    """Group baselines need a group: n = 1 makes every advantage 0 (§5.1, §6 row 5)."""
    group, message = group_assert_of(run.version, run.estimator)
    if run.estimator not in group or run.n > 1:
        return []
    fixes: list[tuple[dict[str, Any], str]] = [
        ({"rollout.n_samples_per_prompt": 2}, f"keeps {run.rbs} prompts per step; groups of 2 samples")
    ]
    if not run.filtering:
        fixes.append(({"algo.advantage.estimator": "reinforce"}, "keeps the batch: REINFORCE++ needs no group"))
    return [
        run.finding(
            "openrlhf.group-estimator-needs-samples",
            "error",
            message,
            ["algo.advantage.estimator", "rollout.n_samples_per_prompt"],
            fixes,
        )
    ]


def dynamic_filtering(run: _Run) -> list[Finding]:
    """Dynamic filtering (0.8.1+) keeps groups by their mean score: it needs groups and a scoring function."""
    if not run.filtering:
        return []
    findings = []
    off = ({"algo.dynamic_filtering_enable": False}, "no dynamic filtering")
    # The first assert compares the range's ends; 0.8.1's compared --reward_clip_range (default (-10, 10)) instead.
    flag, default = (
        ("algo.dynamic_filtering_range", (0.0, 1.0))
        if at_least(run.version, DYNAMIC_RANGE_SINCE)
        else ("reward.clip_range", (-10.0, 10.0))
    )
    ends = run.raw(flag)
    ends = [_number(end) for end in ends] if isinstance(ends, (list, tuple)) and len(ends) == 2 else list(default)
    if None not in ends and ends[0] >= ends[1]:
        swap = ({flag: [ends[1], ends[0]]}, f"the range {ends[1]:g} to {ends[0]:g}, ends in order")
        findings.append(
            run.finding(
                "openrlhf.dynamic-filtering-range",
                "error",
                "reward_clip_range[0] must be less than reward_clip_range[1]",
                ["algo.dynamic_filtering_enable", flag],
                [
                    swap
                    if ends[0] > ends[1]
                    else ({flag: None}, f"the default range {default[0]:g} to {default[1]:g}"),
                    off,
                ],
            )
        )
    if run.n <= 1:
        findings.append(
            run.finding(
                "openrlhf.dynamic-filtering-needs-samples",
                "error",
                "n_samples_per_prompt must be greater than 1 when using dynamic filtering",
                ["algo.dynamic_filtering_enable", "rollout.n_samples_per_prompt"],
                [({"rollout.n_samples_per_prompt": 2}, f"keeps {run.rbs} prompts per step"), off],
            )
        )
    if not (run.raw("reward.remote_url") or run.raw("train.agent_func_path")):
        findings.append(
            run.finding(
                "openrlhf.dynamic-filtering-needs-remote-reward",
                "error",
                "remote_rm_url or agent_func_path must be specified when using dynamic filtering",
                ["algo.dynamic_filtering_enable", "reward.remote_url"],
                [off],
            )
        )
    return findings


def is_correction_threshold(run: _Run) -> list[Finding]:
    """0.11.2 takes one (HIGH) or two (LOW HIGH) threshold values (nargs="+"; §5.5, §6 row 3)."""
    values = run.raw("algo.advantage.is_correction_threshold")
    if not at_least(run.version, THRESHOLD_ASSERT_SINCE) or values is None:
        return []
    values = values if isinstance(values, list) else [values]
    if len(values) in (1, 2):
        return []
    numbers = [n for n in map(_number, values) if n is not None]
    if len(numbers) != len(values):  # argparse's type=float stops first, with its own message
        return []
    if str(run.raw("algo.advantage.is_correction_gating", "ratio")) == "ratio":
        fixes: list[tuple[dict[str, Any], str]] = [
            (
                {"algo.advantage.is_correction_threshold": [min(numbers), max(numbers)]},
                f"the outermost bounds written: LOW {min(numbers):g}, HIGH {max(numbers):g}",
            ),
            ({"algo.advantage.is_correction_threshold": None}, "the default bounds LOW 0.5, HIGH 5.0"),
        ]
    else:  # divergence gating takes an upper bound only (PolicyLoss), so not the two default bounds either
        fixes = [
            (
                {"algo.advantage.is_correction_threshold": [max(numbers)]},
                f"one upper bound {max(numbers):g}, as divergence gating takes",
            )
        ]
    return [
        run.finding(
            "openrlhf.is-correction-threshold",
            "error",
            "--algo.advantage.is_correction_threshold takes HIGH or LOW HIGH",
            ["algo.advantage.is_correction_threshold"],
            fixes,
        )
    ]


def eval_needs_remote_reward(run: _Run) -> list[Finding]:
    """Evaluation scores only with a remote reward or an agent (§6 row 18; the text changed in 0.10.4 and 0.11.0)."""
    if not run.raw("eval.dataset") or run.raw("reward.remote_url") or run.raw("train.agent_func_path"):
        return []
    if at_least(run.version, "0.11.0"):
        message = (
            "`--eval_dataset` requires either `--remote_rm_url` (for remote reward models) or "
            "`--agent_func_path` (for MultiTurnAgentExecutor workflows)."
        )
    elif at_least(run.version, EVAL_MESSAGE_AGENT_SINCE):
        message = "`--eval.dataset` requires `--reward.remote_url` or `--train.agent_func_path` (#1242)."
    else:
        message = "`--eval_dataset` is only supported with `--remote_rm_url`."
    return [
        run.finding(
            "openrlhf.eval-needs-remote-reward",
            "error",
            message,
            ["eval.dataset", "reward.remote_url", "train.agent_func_path"],
            [
                (
                    {"eval.dataset": None},
                    (
                        f"no evaluation; to evaluate, score with "
                        f"--{run.key('reward.remote_url')} or --{run.key('train.agent_func_path')} instead of a "
                        "reward model"
                    ),
                )
            ],
        )
    ]


def vlm_limits(run: _Run) -> list[Finding]:
    """max_images_per_prompt > 0 (VLM, 0.10.0+) allows no critic (GAE) and no --packing_samples as written: ring
    attention and dynamic batching switch packing on only after this check (§6 rows 6, 7)."""
    if not at_least(run.version, VLM_SINCE) or run.count("data.max_images_per_prompt") <= 0:
        return []
    findings = []
    if run.estimator == "gae":  # every other estimator has its critic dropped before the assert
        estimator = "reinforce_baseline" if run.n > 1 else "reinforce"
        findings.append(
            run.finding(
                "openrlhf.vlm-no-critic",
                "error",
                "VLM training does not support critic model. Use --advantage_estimator other than "
                "'gae' (e.g., reinforce_baseline, rloo, group_norm).",
                ["data.max_images_per_prompt", "algo.advantage.estimator"],
                [({"algo.advantage.estimator": estimator}, f"{estimator}: a baseline without a critic model")],
            )
        )
    if run.on("ds.packing_samples"):
        findings.append(
            run.finding(
                "openrlhf.vlm-no-packing",
                "error",
                "VLM training does not support --packing_samples. Packing collapses the batch "
                "dimension, breaking alignment between image tokens and pixel_values. VLM models "
                "also require model-computed position_ids (e.g., M-RoPE) which is incompatible "
                "with packing.",
                ["data.max_images_per_prompt", "ds.packing_samples"],
                [({"ds.packing_samples": False}, "padded batches, which keep images aligned")],
            )
        )
    return findings


def dual_clip(run: _Run) -> list[Finding]:
    value = _number(run.raw("actor.dual_clip"))
    if value is None or value > 1.0:
        return []
    return [
        run.finding(
            "openrlhf.dual-clip-range",
            "error",
            f"dual_clip must be > 1.0, got {float(value)}",
            ["actor.dual_clip"],
            [
                ({"actor.dual_clip": 3.0}, "the dual-clip PPO paper's c = 3"),
                ({"actor.dual_clip": None}, "no dual clip"),
            ],
        )
    ]


def gamma_forced(run: _Run) -> list[Finding]:
    gamma = _number(run.raw("algo.advantage.gamma"))
    if (
        run.estimator not in GAMMA_FORCED
        or gamma is None
        or gamma == 1
        or not at_least(run.version, GAMMA_FORCED_SINCE)
    ):
        return []
    return [
        run.finding(
            "openrlhf.gamma-ignored",
            "warning",
            "gamma is set to 1.0 for rloo, reinforce_baseline, and group_norm "
            f"(--{run.key('algo.advantage.gamma')} {gamma} is replaced for {run.estimator})",
            ["algo.advantage.gamma", "algo.advantage.estimator"],
            [({"algo.advantage.gamma": None}, "the discount the run really uses (1.0)")],
        )
    ]


# ---------------------------------------------------------------- releases up to 0.7.0 (_validate_args)
def _multiples(value: int, unit: int) -> list[int]:
    return [m for m in nearest_multiple(value, unit) if m > 0]


def rollout_per_rank(run: _Run) -> list[Finding]:
    """Up to 0.7.0 each actor rank loads rollout_batch_size // ranks prompts; 0.5.6–0.7.0 assert divisibility."""
    if run.sample_dataset:
        return update_timesteps(run)
    if not run.per_rank or run.world <= 0 or run.rbs % run.world == 0:
        return []
    fixes = [
        ({"rollout.batch_size": m}, f"{m // run.world} prompts on each of the {run.world} actor ranks")
        for m in _multiples(run.rbs, run.world)[:1]
    ]
    if not at_least(run.version, RBS_DIVISIBLE_SINCE):
        groups = run.world
        return [
            run.finding(
                "openrlhf.rollout-per-rank",
                "warning",
                f"--rollout_batch_size {run.rbs} is not divisible by the {groups} actor ranks: each rank "
                f"loads {run.rbs} // {groups} = {run.rbs // groups} prompts, {run.rbs // groups * groups} "
                "per step",
                ["rollout.batch_size", "actor.num_gpus_per_node"],
                fixes,
            )
        ]
    return [
        run.finding(
            "openrlhf.rollout-per-rank",
            "error",
            f"rollout_bach_size must be divisible by actor_world_size, got {run.rbs} and {run.world}",
            ["rollout.batch_size", "actor.num_nodes", "actor.num_gpus_per_node"],
            fixes,
        )
    ]


def update_timesteps(run: _Run) -> list[Finding]:
    """0.4.0–0.4.4: fit trains after update_timesteps = rollout_batch_size // (actor GPUs × micro_rollout_batch_size)
    loader batches of micro_rollout_batch_size samples per rank (trainer/ppo_trainer.py@v0.4.3); 0 divides by zero
    at the first batch (``steps % update_timesteps``), a remainder is left out of every step."""
    unit = run.world * run.rollout_micro
    if run.world <= 0 or unit <= 0 or run.rbs % unit == 0:
        return []
    fixes = [
        ({"rollout.batch_size": m}, f"{m // unit} loader batch(es) of {run.rollout_micro} samples on each rank")
        for m in _multiples(run.rbs, unit)[:1]
    ]
    keys = ["rollout.batch_size", "rollout.micro_batch_size", "actor.num_gpus_per_node"]
    if run.rbs < unit:
        fitting = [m for m in divisors(run.rbs // run.world if run.rbs >= run.world else 0) if m >= 1]
        if fitting:
            micro = max(fitting)
            fixes.append(
                (
                    {"rollout.micro_batch_size": micro},
                    f"{run.rbs // (run.world * micro)} loader batch(es) of {micro} samples on each rank",
                )
            )
        return [
            run.finding(
                "openrlhf.update-timesteps-zero",
                "error",
                f"integer modulo by zero (fit: update_timesteps = --rollout_batch_size {run.rbs} // ({run.world} "
                f"actor GPUs × --micro_rollout_batch_size {run.rollout_micro}) = 0)",
                keys,
                fixes,
            )
        ]
    steps = run.rbs // unit
    return [
        run.finding(
            "openrlhf.rollout-per-rank",
            "warning",
            f"--rollout_batch_size {run.rbs} is not divisible by {run.world} actor GPUs × "
            f"--micro_rollout_batch_size {run.rollout_micro} = {unit}: each rank trains after {steps} loader "
            f"batch(es), {steps * unit} samples per step",
            keys,
            fixes,
        )
    ]


def packing_local_reward(run: _Run) -> list[Finding]:
    """0.4.4 alone refuses packing with a remote reward (cli/train_ppo_ray.py@v0.4.4 __main__; gone in 0.4.5)."""
    if run.version != PACKING_SINCE or not run.on("ds.packing_samples") or not run.raw("reward.remote_url"):
        return []
    if run.raw("vllm.num_engines") is None or run.engines <= 0:
        return []  # the vLLM assert (or the comparison before it) stops the run first (vllm_engines_required)
    return [
        run.finding(
            "openrlhf.packing-needs-local-reward",
            "error",
            "Only support `--packing_samples` with local reward models.",
            ["ds.packing_samples", "reward.remote_url"],
            [({"ds.packing_samples": False}, "no sample packing")],
        )
    ]


def power_of_two(run: _Run) -> list[Finding]:
    """0.5.0–0.5.5 assert power-of-2 actor (and critic) world sizes."""
    if newer_than(run.version, POWER_OF_TWO_UNTIL):
        return []
    findings = []
    critic = run.estimator == "gae" or not at_least(run.version, "0.5.1")  # 0.5.1 checks the critic only if used
    for model in ("actor", "critic") if critic else ("actor",):
        world = run.count(f"{model}.num_nodes", 1) * run.count(f"{model}.num_gpus_per_node", 8)
        if world <= 0 or world & (world - 1) == 0:
            continue
        nodes = max(1, run.count(f"{model}.num_nodes", 1))
        per_node = max(1, 1 << ((world // nodes).bit_length() - 1))
        findings.append(
            run.finding(
                f"openrlhf.{model}-power-of-two",
                "error",
                f"{model}_world_size must be power of 2, got {world}",
                [f"{model}.num_nodes", f"{model}.num_gpus_per_node"],
                [
                    (
                        {f"{model}.num_gpus_per_node": per_node},
                        f"{nodes * per_node} {model} GPUs (OpenRLHF 0.5.6 dropped this assert)",
                    )
                ],
            )
        )
    return findings


def zero3_needs_vllm(run: _Run) -> list[Finding]:
    # unset engines fail the comparison first (vllm_engines_required)
    if not run.per_rank or run.count("ds.zero_stage", 2) != 3 or run.engines > 0 or run.raw("vllm.num_engines") is None:
        return []
    return [
        run.finding(
            "openrlhf.zero3-needs-vllm",
            "error",
            "ZeRO-3 is only supported when vLLM enabled",
            ["ds.zero_stage", "vllm.num_engines"],
            [
                ({"vllm.num_engines": max(1, run.world // run.vllm_tp)}, "vLLM engines for the rollout"),
                ({"ds.zero_stage": 2}, "ZeRO-2"),
            ],
        )
    ]


def engines_divide_actor(run: _Run) -> list[Finding]:
    """0.5.0: engines ≤ actor GPUs; 0.5.6–0.5.9: actor GPUs divisible by the engines; 0.6.0–0.7.0: either way."""
    if not run.per_rank or run.engines <= 0 or run.world <= 0:
        return []
    if not at_least(run.version, RBS_DIVISIBLE_SINCE):
        first, last = ENGINES_GREATER
        if not at_least(run.version, first) or newer_than(run.version, last) or run.world >= run.engines:
            return []
        message = f"actor_world_size must be greater than vllm_num_engines, got {run.world} and {run.engines}"
    else:
        if run.world % run.engines == 0 or (at_least(run.version, "0.6.0") and run.engines % run.world == 0):
            return []
        message = f"actor_world_size must be divisible by vllm_num_engines, got {run.world} and {run.engines}"
    fitting = max(d for d in divisors(run.world) if d <= run.engines)
    return [
        run.finding(
            "openrlhf.engines-divide-actor",
            "error",
            message,
            ["actor.num_nodes", "actor.num_gpus_per_node", "vllm.num_engines"],
            [({"vllm.num_engines": fitting}, f"{fitting} engine(s): {run.world // fitting} actor ranks each")],
        )
    ]


def critic_divides_actor(run: _Run) -> list[Finding]:
    """Up to 0.7.0 the critic's world size must divide the actor's (only with a critic from 0.5.1)."""
    if not run.per_rank or run.world <= 0 or (run.estimator != "gae" and at_least(run.version, "0.5.1")):
        return []
    critic = run.count("critic.num_nodes", 1) * run.count("critic.num_gpus_per_node", 8)
    if critic and run.world % critic == 0:
        return []
    fitting = max(d for d in divisors(run.world) if d <= max(1, critic))
    return [
        run.finding(
            "openrlhf.critic-divides-actor",
            "error",
            f"actor_world_size must be divisible by critic_world_size, got {run.world} and {critic}",
            ["actor.num_gpus_per_node", "critic.num_nodes", "critic.num_gpus_per_node"],
            [({"critic.num_nodes": 1, "critic.num_gpus_per_node": fitting}, f"{fitting} critic GPU(s)")],
        )
    ]


def colocate_memory_forced(run: _Run) -> list[Finding]:
    """0.5.8–0.6.0 lower vllm_gpu_memory_utilization ≥ 0.9 to 0.4 under colocate_all_models (train())."""
    first, last = COLOCATE_MEMORY_FORCED
    fraction = _number(run.raw("vllm.gpu_memory_utilization"))
    if (
        not run.colocate_all
        or fraction is None
        or fraction < 0.9
        or not at_least(run.version, first)
        or newer_than(run.version, last)
    ):
        return []
    return [
        run.finding(
            "openrlhf.colocate-memory-forced",
            "warning",
            "Set args.vllm_gpu_memory_utilization to 0.4 for colocate_all_models!",
            ["vllm.gpu_memory_utilization", "train.colocate_all"],
            [({"vllm.gpu_memory_utilization": 0.4}, "the share vLLM really gets")],
        )
    ]


# ---------------------------------------------------------------- silent changes
def _generate_batch_decides(run: _Run) -> bool:
    """Whether vllm_generate_batch_size can set the prompts per step: the dataloader batch in 0.8.x (without
    filtering), the vLLM call from 0.10.0; read by nothing in 0.9.1–0.9.10 (§3, §5.4)."""
    if at_least(run.version, "0.10.0"):
        return True
    return not at_least(run.version, "0.9.1") and not run.filtering


def rollout_whole_train_batches(run: _Run) -> list[Finding]:
    """Nothing checks rbs·n ÷ tbs; the floors drop or carry samples (§4, §12 item 5)."""
    if not run.tbs or not run.micro * run.dp:
        return []  # a train batch (or micro-batch) of 0 is OpenRLHF's own error, reported by another rule
    if run.samples % run.tbs == 0 or (not run.dynamic and run.tbs % (run.micro * run.dp)):
        return []  # an indivisible train batch is train-batch-divisible's error, whose fixes divide the samples
    steps = run.samples // run.tbs
    if run.dynamic:
        how = f"dynamic batching runs {run.samples} // {run.tbs} = {steps} optimizer step(s) per epoch" + (
            ", so nothing is trained"
            if steps == 0
            else f" and leaves {run.samples - steps * run.tbs} samples untrained"
        )
    else:
        local, accumulation = run.samples // run.dp, run.tbs // run.micro // run.dp
        how = (
            f"each of the {run.dp} ranks trains on {local} samples as {local // run.micro} micro-batch(es) of "
            f"{run.micro}, i.e. {local // run.micro / accumulation:g} optimizer step(s) of {accumulation} "
            "micro-batches per epoch, and DeepSpeed carries the remainder into the next rollout step"
        )
    unit = run.dp if run.dynamic else run.micro * run.dp
    fixes = []
    whole = [
        m for m in divisors(run.samples) if m % unit == 0 and (run.dynamic or _valid_train_batch(run, m, run.micro))
    ]
    if whole:
        tbs = nearest(whole, run.tbs, 1)[0]
        fixes.append(
            (
                {"train.batch_size": tbs},
                (
                    f"keeps {run.prompts} prompts × {run.n} per step and the GPUs: "
                    f"{run.samples // tbs} optimizer step(s) of {tbs} samples"
                ),
            )
        )
    prompts = nearest_multiple(run.prompts, run.tbs // math.gcd(run.tbs, run.n))[0]
    changes: dict[str, Any] = {"rollout.batch_size": prompts}
    gen = run.count("rollout.vllm_generate_batch_size")
    if gen and _generate_batch_decides(run) and (run.prompts != run.rbs or gen < prompts):
        changes["rollout.vllm_generate_batch_size"] = None  # else it would decide the prompts per step
    if _keeps_batches(run, rbs=prompts) or not fixes:
        fixes.append(
            (
                changes,
                (
                    f"keeps train batch {run.tbs} and n {run.n}: {prompts} prompts per step, "
                    f"{prompts * run.n // run.tbs} optimizer step(s) per rollout"
                ),
            )
        )
    return [
        run.finding(
            "openrlhf.rollout-not-whole-train-batches",
            "warning",
            f"{run.samples} rollout samples ({run.prompts} prompts × {run.n}) are not a whole number of "
            f"train batches of {run.tbs}: OpenRLHF does not check this; {how}",
            ["rollout.batch_size", "rollout.n_samples_per_prompt", "train.batch_size"],
            fixes,
        )
    ]


def dynamic_batch_per_rank(run: _Run) -> list[Finding]:
    """Dynamic batching takes train.batch_size // dp samples per rank and optimizer step (replay_buffer.py)."""
    if not run.dynamic or run.tbs % run.dp == 0:
        return []
    tbs = nearest_multiple(run.tbs, run.dp)[0]
    return [
        run.finding(
            "openrlhf.dynamic-train-batch-per-rank",
            "warning",
            f"--{run.key('train.batch_size')} {run.tbs} is not divisible by {run.dp} data-parallel ranks: "
            f"with dynamic batching each rank takes {run.tbs} // {run.dp} = {run.tbs // run.dp} samples "
            f"per optimizer step ({run.tbs // run.dp * run.dp} in all)",
            ["train.batch_size"],
            [({"train.batch_size": tbs}, f"{tbs // run.dp} samples per rank and optimizer step")],
        )
    ]


def uneven_rollout_shards(run: _Run) -> list[Finding]:
    """Experiences of micro_rollout samples are dealt to the ranks in whole chunks of ceil(len / dp) (§3)."""
    total = run.n * run.rbs
    if (
        run.dynamic or total // run.rollout_micro < run.dp or total % (run.rollout_micro * run.dp) == 0 or run.per_rank
    ):  # up to 0.7.0 each rank makes experiences of its own prompts
        return []
    fixes = []
    fits = [m for m in divisors(total // run.dp) if m <= run.rollout_micro] if total % run.dp == 0 else []
    if fits:
        fixes.append(
            ({"rollout.micro_batch_size": max(fits)}, (f"{total // run.dp} samples on each of the {run.dp} ranks"))
        )
    unit = run.rollout_micro * run.dp
    prompts = nearest_multiple(run.rbs, unit // math.gcd(unit, run.n))[0]
    if not fits or _keeps_batches(run, rbs=prompts):
        fixes.append(
            (
                {"rollout.batch_size": prompts},
                (
                    f"keeps experience batches of {run.rollout_micro}: "
                    f"{prompts * run.n // run.dp} samples on each of the {run.dp} ranks"
                ),
            )
        )
    return [
        run.finding(
            "openrlhf.uneven-rollout-shards",
            "warning",
            f"{total} rollout samples in experiences of --{run.key('rollout.micro_batch_size')} "
            f"{run.rollout_micro} do not split evenly over {run.dp} data-parallel ranks: ranks train on "
            "different numbers of micro-batches",
            ["rollout.micro_batch_size", "rollout.batch_size"],
            fixes,
        )
    ]


def generate_batch_size(run: _Run) -> list[Finding]:
    """vllm_generate_batch_size changed meaning twice (§3, §5.4)."""
    gen = run.count("rollout.vllm_generate_batch_size")
    if not gen or gen == run.rbs:
        return []
    gen_key, rbs_key = run.key("rollout.vllm_generate_batch_size"), run.key("rollout.batch_size")
    keys = ["rollout.vllm_generate_batch_size", "rollout.batch_size"]
    if at_least(run.version, "0.9.1") and not at_least(run.version, "0.10.0"):
        return [
            run.finding(
                "openrlhf.generate-batch-ignored",
                "warning",
                f"--{gen_key} {gen} is read by nothing in OpenRLHF {run.version}: each step draws "
                f"--{rbs_key} {run.rbs} prompts",
                keys,
                [({"rollout.vllm_generate_batch_size": None}, "the flag has no effect in this version")],
            )
        ]
    is_step = (not at_least(run.version, "0.9.1") and not run.filtering) or (
        at_least(run.version, "0.10.0") and gen < run.rbs
    )
    if not is_step:
        return []
    return [
        run.finding(
            "openrlhf.generate-batch-is-step",
            "warning",
            f"--{gen_key} {gen} ≠ --{rbs_key} {run.rbs}: each rollout step generates and trains on {gen} "
            f"prompts, not {run.rbs}",
            keys,
            [
                *(
                    [
                        (
                            {"rollout.batch_size": gen, "rollout.vllm_generate_batch_size": None},
                            f"keeps the {gen} prompts per step the run really trains on",
                        )
                    ]
                    if _keeps_batches(run, rbs=gen)
                    else []
                ),
                ({"rollout.vllm_generate_batch_size": None}, f"{run.rbs} prompts per step, as written"),
            ],
        )
    ]


def vllm_sleep_ignored(run: _Run) -> list[Finding]:
    if not run.on("vllm.enable_sleep") or run.colocate_all:
        return []
    message = (
        "Set args.vllm.enable_sleep to False when args.train.colocate_all is disabled."
        if at_least(run.version, DOTTED_SINCE)
        else "Set args.vllm_enable_sleep to False when args.colocate_all_models is disabled."
    )
    return [
        run.finding(
            "openrlhf.vllm-sleep-ignored",
            "warning",
            message,
            ["vllm.enable_sleep", "train.colocate_all"],
            [({"vllm.enable_sleep": False}, "the engines stay awake, as they do anyway")],
        )
    ]


def colocate_async(run: _Run) -> list[Finding]:
    if not (run.colocate_all and run.asynchronous):
        return []
    return [
        run.finding(
            "openrlhf.colocate-all-async",
            "warning",
            "[Warning] Using --colocate_all_models in async RLHF only colocates DeepSpeed models. "
            f"(the {run.engines} vLLM engine(s) take {run.engines * run.vllm_tp} GPUs of their own)",
            ["train.colocate_all", "train.async_enable"],
            [
                (
                    {"train.colocate_all": False, "train.colocate_actor_ref": True},
                    "states what runs: actor and reference share GPUs, vLLM has GPUs of its own",
                ),
                *(
                    [({"train.async_enable": False}, "synchronous: vLLM shares the actor GPUs")]
                    if _sync_fits(run)
                    else []
                ),
            ],
        )
    ]


RULES: tuple[Callable[[_Run], list[Finding]], ...] = (
    flag_scheme,
    unknown_flag,
    estimator_choice,
    power_of_two,
    rollout_per_rank,
    packing_local_reward,
    zero3_needs_vllm,
    engines_divide_actor,
    critic_divides_actor,
    colocate_memory_forced,
    parallel_divides_gpus,
    vllm_engines_required,
    colocate_all_engines,
    colocate_actor_ref,
    colocate_critic_reward,
    tensor_parallel_bf16,
    train_batch_divisible,
    critic_train_batch_divisible,
    too_few_rollout_batches,
    oversampling_needs_async,
    partial_rollout_needs_async,
    async_vllm_sleep,
    group_estimator_samples,
    is_correction_threshold,
    vlm_limits,
    dynamic_filtering,
    eval_needs_remote_reward,
    dual_clip,
    gamma_forced,
    rollout_whole_train_batches,
    dynamic_batch_per_rank,
    uneven_rollout_shards,
    generate_batch_size,
    vllm_sleep_ignored,
    colocate_async,
)
