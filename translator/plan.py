"""The canonical model: one training run in framework-neutral terms, every quantity in explicit units.

A *step* is always one rollout step (one generation round whose samples are trained on before the next
round); optimizer updates are *optimizer steps*; a *sample* is one completion. ``None`` means the config
does not determine the value. Derived quantities are computed in one place: :meth:`BatchPlan.complete`.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable
from dataclasses import field
from fractions import Fraction
from typing import Any

from translator.records import record

Number = int | Fraction


class _Section:
    """Base of the model's sections: while a reader runs, each assignment is reported to an observer
    (which records where the value came from; see translator.dialects.base.track_provenance)."""

    _observer: Callable[[str, str, Any], None] | None = None
    _section_name: str = ""

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        observer = type(self)._observer
        if observer is not None and not name.startswith("_"):
            observer(self._section_name, name, value)


@record
class BatchPlan(_Section):
    """The batch plan (docs/plan.md#the-batch-plan). Units are in the field docs."""

    prompts_per_step: Number | None = None  # prompts, global, per rollout step
    samples_per_prompt: int | None = None  # samples (completions) per prompt: the group size
    samples_per_step: Number | None = None  # samples, global: prompts_per_step × samples_per_prompt
    samples_per_optimizer_step: Number | None = None  # samples consumed by one optimizer update, global
    optimizer_steps_per_step: Number | None = None  # optimizer steps per rollout step, epochs included
    epochs_per_step: int | None = None  # passes over one rollout batch
    data_parallel_size: int | None = None  # training data-parallel ranks
    micro_batch_per_device: Number | None = None  # samples per forward/backward per DP rank
    grad_accum_steps: Number | None = None  # micro-batches per optimizer step per rank
    total_steps: int | None = None  # rollout steps in the run

    def complete(self) -> BatchPlan:
        """Fill the derived quantities that are still unknown from the ones that are known."""
        prompts, per_prompt = self.prompts_per_step, self.samples_per_prompt
        if self.samples_per_step is None and prompts is not None and per_prompt is not None:
            self.samples_per_step = prompts * per_prompt
        step, mini, epochs = self.samples_per_step, self.samples_per_optimizer_step, self.epochs_per_step
        if self.optimizer_steps_per_step is None and step is not None and mini and epochs is not None:
            # Frameworks that split a rollout into mini-batches run ceil(batches) updates per epoch.
            self.optimizer_steps_per_step = exact(epochs * ceil_fraction(step, mini))
        dp, micro = self.data_parallel_size, self.micro_batch_per_device
        if self.grad_accum_steps is None and micro and mini is not None and dp is not None:
            self.grad_accum_steps = exact(_fraction(mini) / dp / micro)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {f.name: to_json_number(getattr(self, f.name)) for f in dataclasses.fields(self)}


def ceil_fraction(numerator: Number, denominator: Number) -> Number:
    """ceil(a / b) for whole batches, the exact fraction when a / b is below one."""
    ratio = _fraction(numerator) / _fraction(denominator)
    return ratio if ratio < 1 else _fraction(math.ceil(ratio))


def _fraction(value: Any) -> Any:
    """Fraction(value) for a number; anything else (a count that depends on an unset variable) unchanged."""
    # Fraction takes every Real (through float or as_integer_ratio); its stub names only the concrete types.
    return Fraction(value) if isinstance(value, numbers.Real) else value  # type: ignore[call-overload]


def exact(value: Number | float | None) -> Number | None:
    """An int when the value is whole, else a Fraction."""
    if isinstance(value, float):
        value = Fraction(value).limit_denominator(1_000_000)
    if value is None or not isinstance(value, numbers.Real):
        return value
    value = Fraction(value)
    return int(value) if value.denominator == 1 else value


def quotient(numerator: Any, denominator: Any) -> Any:
    """numerator / denominator exactly (int when whole, else Fraction); a count that depends on an unset variable
    gives that count unchanged (it carries the unknown along)."""
    return exact(_fraction(numerator) / _fraction(denominator))


def to_json_number(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


@record
class Topology(_Section):
    """Where the run happens. Counts are GPUs unless stated."""

    nodes: int | None = None
    gpus_per_node: int | None = None
    training_gpus: int | None = None  # GPUs that run training processes
    rollout_gpus: int | None = None  # GPUs reserved for rollout engines only (0 when colocated)
    sequence_parallel_size: int | None = None  # Ulysses / ring attention degree (divides dp)
    tensor_parallel_size: int | None = None  # training tensor parallelism (divides dp)
    pipeline_parallel_size: int | None = None
    context_parallel_size: int | None = None
    rollout_tensor_parallel_size: int | None = None  # inference engine TP (does not divide dp)
    training_backend: str | None = None  # fsdp | megatron | deepspeed | ddp
    rollout_engines: int | None = None  # inference engines (vLLM instances), each rollout_tensor_parallel_size GPUs
    rollout_gpu_memory_fraction: float | None = None  # share of a GPU's memory the engine may take (vLLM)
    # whether the reference/critic/reward models share the training GPUs (OpenRLHF colocation) rather than
    # having GPUs of their own
    colocate_models: bool | None = None


@record
class TokenBudget(_Section):
    """Dynamic batching: micro-batches packed up to a token budget instead of a sample count."""

    dynamic_batching: bool | None = None
    # tokens (prompt + response) per micro-batch per DP rank (a whole sequence-parallel group), training
    max_tokens_per_device: int | None = None
    logprob_max_tokens_per_device: int | None = None  # the same for log-prob forward passes


@record
class Generation(_Section):
    """Over-sampling and filtering of generation rounds (DAPO dynamic sampling)."""

    prompts_per_round: int | None = None  # prompts generated per round, global (when it differs from the step)
    filter_groups: bool | None = None  # drop groups whose metric is constant
    filter_metric: str | None = None
    max_rounds_per_step: int | None = None  # 0 = unlimited
    logprob_micro_batch_per_device: int | None = None  # samples per log-prob forward per DP rank
    rollout_backend: str | None = None  # vllm | sglang | hf
    # colocate | server (TRL), sync | async (OpenRLHF), sync | colocate_async | separate_async (verl 0.9's v1 trainer)
    rollout_mode: str | None = None


@record
class RunLength(_Section):
    dataset_passes: float | None = None  # passes over the prompt dataset
    # rollout steps the run stops at unless its dataset passes end it sooner (the frameworks that stop at the first
    # limit reached); kept where plan.total_steps is not stated because the dataset may decide
    step_cap: int | None = None
    total_optimizer_steps: Number | None = None
    total_samples: int | None = None


@record
class Lengths(_Section):
    max_prompt_tokens: int | None = None
    max_response_tokens: int | None = None


@record
class Sampling(_Section):
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None  # -1 = disabled (vLLM's convention; TRL's 0/None and verl's -1 read as -1)


@record
class Optimizer(_Section):
    lr: float | None = None
    lr_schedule: str | None = None  # constant | cosine | linear | ...
    warmup_steps: int | None = None  # in warmup_unit
    warmup_unit: str | None = None  # "steps" (rollout steps) | "optimizer_steps"
    warmup_ratio: float | None = None  # fraction of the run
    weight_decay: float | None = None
    grad_clip: float | None = None  # max global grad norm
    # floor of a decaying schedule as a fraction of lr (verl min_lr_ratio, TRL cosine_with_min_lr's min_lr_rate)
    min_lr_ratio: float | None = None
    # recompute activations in the backward pass instead of keeping them (the policy's; memory, not results)
    gradient_checkpointing: bool | None = None


@record
class Algorithm(_Section):
    advantage_estimator: str | None = None  # gae | grpo | rloo | reinforce_plus_plus | remax | ...
    advantage_std_normalization: bool | None = None  # divide by the std (False = Dr. GRPO)
    advantage_normalization_scope: str | None = None  # group | batch
    kl_placement: str | None = None  # reward | loss | none
    kl_coef: float | None = None  # effective coefficient; 0.0 when kl_placement is none
    kl_estimator: str | None = None  # k1 | k2 | k3 | abs
    clip_ratio_low: float | None = None
    clip_ratio_high: float | None = None
    clip_ratio_dual: float | None = None  # dual-clip bound c for negative advantages
    entropy_coef: float | None = None
    # token-mean | token-sum | seq-mean-token-mean | seq-mean-token-sum | seq-mean-token-sum-norm
    loss_aggregation: str | None = None
    loss_normalizer_scope: str | None = None  # micro_batch | local_batch | optimizer_step
    policy_loss: str | None = None  # vanilla | gspo | ...
    gamma: float | None = None  # discount of future rewards (GAE, REINFORCE++ returns); 1 = none
    gae_lambda: float | None = None  # GAE's λ (bias/variance of the advantage), when the estimator is gae
    # reward-model scores normalised with running mean/std before use (OpenRLHF --normalize_reward)
    reward_normalization: bool | None = None


@record
class Critic(_Section):
    """The value model, when the advantage estimator needs one (GAE)."""

    enabled: bool | None = None
    samples_per_optimizer_step: Number | None = None  # samples per critic update, global
    epochs_per_step: int | None = None
    micro_batch_per_device: int | None = None  # samples per forward/backward per DP rank
    lr: float | None = None
    model: str | None = None
    value_clip: float | None = None  # the value loss clips new values to old ± this (PPO value clipping)


@record
class Asynchrony(_Section):
    max_steps_ahead: int | None = None  # rollout steps generation may run ahead of the policy (0 = on-policy)


@record
class References(_Section):
    model: str | None = None  # the policy to train: a Hub model id or a path
    tokenizer: str | None = None  # when it differs from the model


@record
class Reward(_Section):
    """Where the reward comes from. Several may be set at once (functions plus a reward model)."""

    function_path: str | None = None  # a Python file defining the reward function
    function_name: str | None = None  # the function in that file
    builtin: list[str] | None = None  # the framework's own scorers by name (Open-R1 reward_funcs, verifiers)
    weights: list[float] | None = None  # one per builtin scorer, when weighted
    model: str | None = None  # a reward model: Hub id or path
    remote_url: str | None = None  # an HTTP reward server


@record
class Data(_Section):
    """The prompts. A source is a local file or directory (parquet, jsonl, json: the path as written) or a Hub
    dataset id (``org/name``) whose split and config are given apart."""

    train_sources: list[str] | None = None
    train_split: str | None = None  # split of Hub sources ("train")
    train_subset: str | None = None  # Hub dataset config name
    train_weights: list[float] | None = None  # mixture: a fraction (≤ 1) or a count of prompts per source
    eval_sources: list[str] | None = None
    eval_split: str | None = None
    prompt_key: str | None = None  # column with the prompt
    answer_key: str | None = None  # column with the reference answer (ground truth)
    max_train_prompts: int | None = None  # prompts read from the training set at most (a run-length cap)
    max_eval_prompts: int | None = None
    # column with each prompt's images (multimodal input); None when the config names none (text prompts, or a
    # framework's default column left as it is)
    image_key: str | None = None
    apply_chat_template: bool | None = None  # prompts pass through the tokenizer's chat template
    chat_template: str | None = None  # a template (Jinja text or a named one) instead of the tokenizer's
    filter_overlong_prompts: bool | None = None  # prompts longer than lengths.max_prompt_tokens dropped up front


@record
class Checkpointing(_Section):
    """Saving and resuming. Cadences are in rollout steps."""

    every_steps: int | None = None  # rollout steps between checkpoints; 0 = never
    directory: str | None = None
    hf_format: bool | None = None  # also export the model in Hugging Face format
    keep_last: int | None = None  # checkpoints kept; None = all
    resume: str | None = None  # auto (the latest in directory) | never | a checkpoint path


@record
class Evaluation(_Section):
    every_steps: int | None = None  # rollout steps between evaluations; 0 = never
    before_training: bool | None = None
    # sampling of evaluation generations (0 = greedy), when the run evaluates
    temperature: float | None = None
    top_p: float | None = None
    samples_per_prompt: int | None = None


@record
class Logging(_Section):
    project: str | None = None
    run_name: str | None = None
    backends: list[str] | None = None  # console | wandb | tensorboard | swanlab | mlflow | ...
    entity: str | None = None  # W&B entity (team or user) the project belongs to


@record
class Launch(_Section):
    """How the run starts: how the processes find each other on several nodes, where a separate generation
    server runs, and the random seed."""

    main_process_host: str | None = None  # address of the node with rank 0 (accelerate main_process_ip, Ray head)
    main_process_port: int | None = None
    rollout_server_host: str | None = None  # TRL's `trl vllm-serve` host in server mode
    rollout_server_port: int | None = None
    seed: int | None = None  # the run's random seed (verl/EasyR1: data.seed, the seed of the prompt order)


SECTIONS: dict[str, type[_Section]] = {
    "plan": BatchPlan,
    "topology": Topology,
    "token_budget": TokenBudget,
    "generation": Generation,
    "run_length": RunLength,
    "lengths": Lengths,
    "sampling": Sampling,
    "optimizer": Optimizer,
    "algorithm": Algorithm,
    "critic": Critic,
    "asynchrony": Asynchrony,
    "references": References,
    "reward": Reward,
    "data": Data,
    "checkpointing": Checkpointing,
    "evaluation": Evaluation,
    "logging": Logging,
    "launch": Launch,
}


for _name, _cls in SECTIONS.items():
    _cls._section_name = _name


@record
class Derivation:
    """How one canonical value came about: the native keys it was read from and the arithmetic."""

    text: str
    keys: list[str] = field(default_factory=list)
    origin: str = "derived"  # config | default | derived | assumed | unknown (depends on a variable never set)


@record
class Extra:
    """A native key that has no canonical field, carried along so nothing is lost."""

    framework: str
    key: str
    value: Any


@record
class RunSpec:
    """The canonical model of one run."""

    framework: str = "rlconf"
    version: str | None = None
    plan: BatchPlan = field(default_factory=BatchPlan)
    topology: Topology = field(default_factory=Topology)
    token_budget: TokenBudget = field(default_factory=TokenBudget)
    generation: Generation = field(default_factory=Generation)
    run_length: RunLength = field(default_factory=RunLength)
    lengths: Lengths = field(default_factory=Lengths)
    sampling: Sampling = field(default_factory=Sampling)
    optimizer: Optimizer = field(default_factory=Optimizer)
    algorithm: Algorithm = field(default_factory=Algorithm)
    critic: Critic = field(default_factory=Critic)
    asynchrony: Asynchrony = field(default_factory=Asynchrony)
    references: References = field(default_factory=References)
    reward: Reward = field(default_factory=Reward)
    data: Data = field(default_factory=Data)
    checkpointing: Checkpointing = field(default_factory=Checkpointing)
    evaluation: Evaluation = field(default_factory=Evaluation)
    logging: Logging = field(default_factory=Logging)
    launch: Launch = field(default_factory=Launch)
    extras: list[Extra] = field(default_factory=list)
    derivations: dict[str, Derivation] = field(default_factory=dict)
    # Provenance for writers: the variables a source shell script never set, which its words keep as ${NAME}
    # for the shell to expand when it runs. Only these stay live in a written launch script; a spec read from
    # YAML, TOML, JSON or a plan file has none (never written to a plan file).
    shell_variables: list[str] = field(default_factory=list)

    def get(self, dotted: str) -> Any:
        section, name = dotted.split(".", 1)
        return getattr(getattr(self, section), name)

    def set(self, dotted: str, value: Any, derivation: Derivation | None = None) -> None:
        section, name = dotted.split(".", 1)
        setattr(getattr(self, section), name, value)
        if derivation is not None:
            self.derivations[dotted] = derivation

    def sections_dict(self) -> dict[str, dict[str, Any]]:
        """Every section as plain JSON-ready data (numbers as int or float)."""
        return {
            name: {k: to_json_number(v) for k, v in dataclasses.asdict(getattr(self, name)).items()}
            for name in SECTIONS
        }


def field_names(section: str) -> list[str]:
    return [f.name for f in dataclasses.fields(SECTIONS[section])]  # type: ignore[arg-type]  # each is a @record


PLAN_FIELDS: list[str] = field_names("plan")
