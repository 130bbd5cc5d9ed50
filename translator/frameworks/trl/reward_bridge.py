"""A reward function file of one framework, hooked into TRL's grpo script.

TRL's script imports each dotted ``reward_funcs`` entry (``module.function``, from the working directory) and calls
it as ``function(prompts=..., completions=..., completion_ids=..., **columns)`` (every other dataset column a
keyword argument, one value per completion) for a list of floats. A user's ``math.py`` written as ``math.fn``
would import Python's own ``math``; a file in another folder is not importable at all; and a verl or EasyR1
function expects another signature. So rlconf writes a small module of its own next to the recipe that loads
the user's file by its path and calls it with the source framework's signature.
"""

from __future__ import annotations

import importlib.machinery
import keyword
import os
import sys

BRIDGE_MODULE = "rlconf_reward"

# How each source framework calls its reward function, as Python run inside the bridge: `_fn` is the user's
# function, `_module` its module; `completions`, `kwargs` and the helpers below are in scope.
_CALLS = {
    # verl: compute_score(data_source, solution_str, ground_truth, extra_info) -> float, or a dict with "score"
    # (verl/utils/reward_score, NaiveRewardManager); the answer sits in the reward_model column's ground_truth.
    "verl": """    scores = []
    for i, completion in enumerate(completions):
        score = _fn(_column(kwargs, "data_source", i), _text(completion), _truth(kwargs, i),
                    _column(kwargs, "extra_info", i))
        scores.append(float(score["score"] if isinstance(score, dict) else score))
    return scores
""",
    # EasyR1: fn(reward_inputs: list[dict], **kwargs) -> list[dict] with "overall" (REWARD_TYPE "batch", the
    # default), or one dict in, one dict out (REWARD_TYPE "sequential"); each input has response,
    # response_length and ground_truth (verl/workers/reward/function.py).
    "easyr1": """    ids = kwargs.get("completion_ids")
    inputs = [{"response": _text(completion),
               "response_length": len(ids[i]) if ids is not None else len(_text(completion)),
               "ground_truth": _truth(kwargs, i)} for i, completion in enumerate(completions)]
    if getattr(_module, "REWARD_TYPE", "batch") == "sequential":
        results = [_fn(one) for one in inputs]
    else:
        results = _fn(inputs)
    return [float(result["overall"]) for result in results]
""",
    # TRL: the function already has TRL's signature.
    "trl": """    return _fn(completions=completions, **kwargs)
""",
}

_TEMPLATE = '''"""Written by rlconf: TRL's grpo script imports {bridge}.{name} (reward_funcs in recipe.yaml); it loads
{path!r} by its path (so no other module of that name is taken) and calls its {name} as {framework} does."""
import importlib.util
import os
import re

_PATH = re.sub(r"\\$\\{{({live})\\}}", lambda m: os.environ[m.group(1)], {path!r}) if {live!r} else {path!r}
_spec = importlib.util.spec_from_file_location("rlconf_user_reward", _PATH)
if _spec is None or _spec.loader is None:
    raise ImportError(f"rlconf: cannot load the reward function file {{_PATH!r}}")
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
_fn = getattr(_module, {name!r})
_ANSWER = {answer!r}


def _column(kwargs, name, i):
    values = kwargs.get(name)
    return values[i] if values is not None else None


def _text(completion):
    """A completion's text: TRL passes a string, or (conversational data) a list of messages."""
    if isinstance(completion, list):
        return completion[-1]["content"] if completion else ""
    return completion


def _truth(kwargs, i):
    """The reference answer: verl-style data keeps it in reward_model.ground_truth, other data in a column."""
    holder = _column(kwargs, "reward_model", i)
    if isinstance(holder, dict) and "ground_truth" in holder:
        return holder["ground_truth"]
    for key in (_ANSWER, "ground_truth", "answer", "solution"):
        if key and key in kwargs:
            return kwargs[key][i]
    return None


def {name}(completions, **kwargs):
{call}'''


def bridgeable(framework: str) -> bool:
    """Whether rlconf knows how ``framework`` calls its reward function (so a bridge can call it the same way)."""
    return framework in _CALLS


def importable_as_is(path: str, name: str) -> bool:
    """Whether ``module.name`` (the file's stem) imports ``path`` from the launch directory: the file is there (no
    folder), its stem is an identifier, and it names no standard-library module nor one installed here (either may
    already be imported, and importlib then returns that one)."""
    stem = path.removesuffix(".py")
    if not (
        "/" not in path
        and path.endswith(".py")
        and stem.isidentifier()
        and not keyword.iskeyword(stem)
        and name.isidentifier()
    ):
        return False
    if stem in sys.stdlib_module_names or stem in sys.builtin_module_names:
        return False
    installed = [p for p in sys.path if p and os.path.abspath(p) != os.getcwd()]
    return importlib.machinery.PathFinder.find_spec(stem, installed) is None


def bridge_source(framework: str, path: str, name: str, live: list[str], answer: str | None) -> str:
    """The bridge module's text: loads ``path`` (``${NAME}`` of a live variable read from the environment when
    the module is imported) and defines ``name`` with TRL's signature, calling the user's function as
    ``framework`` does."""
    return _TEMPLATE.format(
        bridge=BRIDGE_MODULE,
        name=name,
        path=path,
        framework=framework,
        live="|".join(live),
        answer=answer,
        call=_CALLS[framework],
    )
