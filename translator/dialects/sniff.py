"""How each framework's files look, as data, so detection imports only the dialect that matches.

A script matches by its launcher line; a YAML file by its key structure. Detection asks the frameworks in
the registry's order (EasyR1 before verl: both launch a `verl.trainer` module; Open-Instruct before TRL:
both may run a `grpo.py`).
"""
from __future__ import annotations

import re
from typing import Any


class _Lazy:
    """A regular expression compiled when first used: detection stops at the first framework that matches, so
    reading one file compiles one or two of these (about 0.1 ms each) rather than all of them."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags, self._compiled = pattern, flags, None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str, *span: int) -> re.Match[str] | None:
        return self.compiled().search(text, *span)

    def __getattr__(self, name: str) -> Any:  # the rest of re.Pattern
        return getattr(self.compiled(), name)


SCRIPT_PATTERNS: dict[str, Any] = {
    "easyr1": _Lazy(r"-m\s+verl\.trainer\.main(\s|$)|verl/trainer/main\.py(\s|$)"),
    # verl's entry points, and forks' or recipes' own ones that take its overrides (recipe.prime.main_prime)
    "verl": _Lazy(r"-m\s+(verl\.trainer\.main_ppo(_v0)?|(verl\.)?recipe\.\w+\.(src\.)?main_\w+|[\w.]+\.main_ppo(_\w+)?"
                  r"|[\w.]+\.fully_async_main)\b|verl/trainer/main_ppo\.py|(^|[\s/])main_ppo\w*\.py"),
    "open-instruct": _Lazy(r"(grpo_fast|grpo_vllm_thread_ray_gtrl|ppo_vllm_thread_ray_gtrl|ppo_fast)\.py"
                           r"|open_instruct/(grpo|ppo)\.py"),
    # Open-R1's grpo.py, TRL's scripts, and forks' own GRPO scripts (VLM-R1's grpo_rec.py, grpo_jsonl.py)
    "trl": _Lazy(r"accelerate\s+launch|trl\s+(grpo|vllm-serve)|grpo\w*\.py"),
    "openrlhf": _Lazy(r"openrlhf\.cli\.train_ppo_ray|openrlhf/cli/train_ppo_ray\.py"),
}
# A launch of a module or file rlconf does not list (a fork's own entry point) is told by its arguments: each
# framework's own argument namespace. Searched only when no entry point above matched, and only in a script
# that runs python (directly or behind torchrun, deepspeed, accelerate launch, python -m torch.distributed.run).
# The same expressions tell, word by word, which program of a command takes them (program_arguments below).
ARGUMENT_PATTERNS: dict[str, Any] = {
    "easyr1": _Lazy(r"^(worker\.(actor|rollout|ref|reward)\.\w|config=\S+\.ya?ml$)"),
    "verl": _Lazy(r"^\+{0,2}(actor_rollout_ref\.\w|critic\.\w+\.|data\.(train|max_prompt|max_response)_\w+="
                  r"|trainer\.(n_gpus_per_node|nnodes|total_epochs)=|algorithm\.adv_estimator=)"),
    "open-instruct": _Lazy(r"^--(num_learners_per_node|dataset_mixer_list|num_unique_prompts_rollout"
                           r"|num_samples_per_prompt_rollout)(=|$)"),
    # GRPOConfig's own fields (no other framework has them): a fork's GRPO script under another file name
    "trl": _Lazy(r"^--(num_generations|max_completion_length|reward_funcs)(=|$)"),
    "openrlhf": _Lazy(r"^--(actor_num_gpus_per_node|actor_num_nodes|micro_train_batch_size|n_samples_per_prompt"
                      r"|micro_rollout_batch_size|(actor|rollout|train|ref|critic)\.\w+)(=|$)"),
}
_ARGUMENT_SEARCH = {name: _Lazy(r"(?:^|[\s'\"])" + pattern.pattern[1:].replace("$)", "(?=[\\s'\"]|$))"), re.M)
                    for name, pattern in ARGUMENT_PATTERNS.items()}
PYTHON_LAUNCH = _Lazy(r"^[^#\n]*(^|[\s/;&|(\"'])(python[\d.]*|torchrun|deepspeed|accelerate)(\s|$)", re.M)
TRL_RECIPE_KEYS = _Lazy(r"^(per_device_train_batch_size|num_generations|model_name_or_path|"
                        r"gradient_accumulation_steps|reward_funcs|use_vllm|beta)\s*:", re.M)
ACCELERATE_KEYS = _Lazy(r"^(distributed_type|compute_environment)\s*:", re.M)
YAML_PATTERNS: dict[str, Any] = {
    "easyr1": _Lazy(r"^worker\s*:", re.M),
    "verl": _Lazy(r"^(actor_rollout_ref|critic|algorithm)\s*:|^\s*-\s*ppo_trainer\b", re.M),
    # grpo_fast.py's dataclass fields (ArgumentParserPlus reads a YAML of them); asked before TRL, whose recipe
    # keys (model_name_or_path, beta, per_device_train_batch_size) such a file has too
    "open-instruct": _Lazy(r"^(dataset_mixer_list|num_learners_per_node|num_unique_prompts_rollout"
                           r"|num_samples_per_prompt_rollout)\s*:", re.M),
    "trl": _Lazy(f"{TRL_RECIPE_KEYS.pattern}|{ACCELERATE_KEYS.pattern}", re.M),
}
YAML_SUFFIXES = (".yaml", ".yml")
PLAN_SUFFIXES = (".toml", ".json")


def matches_arguments(framework: str, text: str, suffix: str) -> bool:
    """Whether a script runs python with arguments in the framework's namespace (a fork's own entry point)."""
    pattern = _ARGUMENT_SEARCH.get(framework)
    return (suffix not in YAML_SUFFIXES + PLAN_SUFFIXES and pattern is not None
            and bool(PYTHON_LAUNCH.search(text)) and bool(pattern.search(text)))


def program_arguments(framework: str, argv: list[str], start: int) -> bool:
    """Whether the words after ``argv[start]`` (the program) include one of the framework's own arguments."""
    pattern = ARGUMENT_PATTERNS.get(framework)
    if pattern is None:
        return False
    if framework == "verl" and any(ARGUMENT_PATTERNS["easyr1"].search(w) for w in argv[start + 1:]):
        return False  # EasyR1's worker.* / config= namespace: EasyR1 (it, too, keeps data.* and trainer.*)
    return any(pattern.search(word) for word in argv[start + 1:])


def known_script(text: str) -> bool:
    """Whether a script launches some framework's training: a known entry point, or a fork's told by its arguments."""
    return any(p.search(text) for p in SCRIPT_PATTERNS.values()) or any(
        matches_arguments(name, text, ".sh") for name in ARGUMENT_PATTERNS)


def matches(framework: str, text: str, suffix: str) -> bool:
    """Whether a file with this text and suffix looks like the framework's config."""
    if framework == "rlconf":
        return suffix in PLAN_SUFFIXES or text.lstrip().startswith("{")
    if suffix in YAML_SUFFIXES:
        pattern = YAML_PATTERNS.get(framework)
    elif suffix in PLAN_SUFFIXES:
        return False
    else:
        pattern = SCRIPT_PATTERNS.get(framework)
    return bool(pattern and pattern.search(text))
