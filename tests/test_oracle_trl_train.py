"""Oracle: TRL's own GRPOTrainer trains on a recipe rlconf wrote, on one CPU process, and does what rlconf's plan
says: each generation round draws prompts_per_step prompts × samples_per_prompt completions (samples_per_step in
all), hands all of them to the user's reward function, and is followed by optimizer_steps_per_step optimizer steps of
grad_accum_steps micro-batches each.

tests/test_oracle_trl.py shows that TRL parses every written recipe into the planned numbers; this file runs them. For
two fixtures of every source framework, rlconf translates the source to ``trl@1.16.0+transformers<installed>`` with a
world size of 1 (a real training run here has one process and no process group), and TRL loads the written recipe
and launch-line flags as in that file (``load_with_trl``; its world-size patch returns 1, which is what a single
process has anyway). The world size is made 1 in the source, so that the recipe is rlconf's translation of a real
one-process run of the source, never a multi-process recipe run at another size:

- a recipe that leaves the world size open (TRL recipe-only fixtures) is read with ``num_processes=1`` (the CLI's
  ``--num-processes 1``);
- a source that states one process is taken as it is (Open-Instruct's single-GPU debug script);
- otherwise the one setting in the source that gives the number of training GPUs is set to 1 (``Pick.edits``: each
  text occurs exactly once; the edited text is read as the fixture, from the fixture's folder, so its siblings are
  the same). Every other setting is the source's: the global batch sizes stay, so the per-process numbers grow.

Then only what cannot run here, none of it a batch key, is overridden on the launch line (flags win over the
recipe): no vLLM (transformers' ``generate`` instead), no bf16 (``--use_cpu true``), completions of 8 tokens,
max_steps for the rounds to run, no reporting, checkpoints or evaluation, seed 0. The model is a randomly
initialised two-layer Llama with a 96-word word-level tokenizer, both saved to tmp_path and loaded by TRL from that
folder as the recipe's model_name_or_path would be (HF_HUB_OFFLINE is set: nothing comes from the Hub); the dataset
is an in-memory ``prompt`` column of distinct prompts, more than the run uses. The reward functions stand in for
the recipe's ``reward_funcs``: a dotted path (TRL's own grpo script) is a module of that name written to tmp_path and
imported as TRL's script imports it; an Open-R1 registry name (Open-R1 is not installable here) or no name at all is
a recorder of that name. Each records every call: the trainer's step, the prompts and the completions.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import CASES, Case, case_id
from translator import translate
from translator.sources.files import Source

pytestmark = pytest.mark.oracle

pytest.importorskip("torch", reason="torch is not installed (.ci/run installs a CPU torch)")
pytest.importorskip("trl", reason="TRL is not installed (.ci/run installs trl==1.16.0)")
# trl brings transformers, accelerate and datasets; tokenizers comes with transformers.
import torch
import transformers
from datasets import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    TrainerCallback,
)
from trl import GRPOTrainer

from tests.test_oracle_trl import launch_line, load_with_trl

TARGET = f"trl@1.16.0+transformers{transformers.__version__}"
# The recipe keys that make TRL's batch plan (docs/frameworks/trl.md §1): the run keeps them as written.
BATCH_KEYS = (
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "num_generations",
    "steps_per_generation",
    "generation_batch_size",
    "num_iterations",
)
COMPLETION_TOKENS = 8


@dataclasses.dataclass(frozen=True)
class Pick:
    """A fixture (``framework/name``) and how its world size is made 1 (module docstring)."""

    case: str
    edits: tuple[tuple[str, str], ...] = ()
    num_processes: int | None = None


def gpus(old: str, new: str) -> tuple[tuple[str, str], ...]:
    return ((old, new),)


PICKS = [
    # TRL: recipes read alone; the world size is --num-processes 1. The second is read as TRL 0.14 (pdtbs counts
    # prompts there, one round per micro-step) and written for 1.16 (pdtbs counts completions): 8 rounds of one
    # prompt per optimizer step.
    Pick("trl/recipe_only_no_world_size", num_processes=1),
    Pick("trl/trl014_defaults_recipe_only", num_processes=1),
    # Open-Instruct: a one-GPU script as it is; a learner layout of 4 + 4 GPUs made one learner.
    Pick("open-instruct/debug_single_gpu_uv"),
    Pick("open-instruct/grpo_fast_run_parts", gpus("--num_learners_per_node 4 4", "--num_learners_per_node 1")),
    # verl: trainer.n_gpus_per_node (nnodes is 1 in both).
    Pick("verl/vendored_v01_n_agent", gpus("trainer.n_gpus_per_node=4", "trainer.n_gpus_per_node=1")),
    Pick("verl/v04_reward_model_defaults", gpus("trainer.n_gpus_per_node=4", "trainer.n_gpus_per_node=1")),
    # EasyR1: trainer.n_gpus_per_node on the launch line (nnodes 1). The first names a reward function file, which
    # rlconf writes for TRL's own grpo script as a dotted import path.
    Pick("easyr1/head_run_parts_local_data", gpus("trainer.n_gpus_per_node=2", "trainer.n_gpus_per_node=1")),
    Pick("easyr1/v032_no_reward_function", gpus("trainer.n_gpus_per_node=4", "trainer.n_gpus_per_node=1")),
    # OpenRLHF: the actor's GPUs (the reference model's too, which OpenRLHF requires to match when colocated).
    Pick(
        "openrlhf/reinforce_baseline_lr_horizon_v072",
        (
            ("--actor_num_gpus_per_node 4", "--actor_num_gpus_per_node 1"),
            ("--ref_num_gpus_per_node 4", "--ref_num_gpus_per_node 1"),
        ),
    ),
    # DeepSpeed tensor parallelism 2 over 8 actor GPUs (4 data-parallel ranks) made 2 GPUs, one rank: 400
    # samples per round, 2 epochs, 128 per update: 6.25 optimizer steps per round, so rounds straddle steps.
    Pick(
        "openrlhf/ds_tp_rounding_v0910",
        (
            ("--actor_num_gpus_per_node 8", "--actor_num_gpus_per_node 2"),
            ("--ref_num_gpus_per_node 8", "--ref_num_gpus_per_node 2"),
        ),
    ),
]


def pick_id(pick: Pick) -> str:
    return pick.case


def fixture(pick: Pick) -> Case:
    return next(case for case in CASES if case_id(case) == pick.case)


def one_process_source(pick: Pick) -> tuple[Source, dict[str, Any]]:
    """The fixture with its world size made 1, and the load options of the fixture (module docstring)."""
    case = fixture(pick)
    text = case.path.read_text()
    for old, new in pick.edits:
        assert text.count(old) == 1, (pick.case, old)
        text = text.replace(old, new)
    options = case.load_kwargs()
    if pick.num_processes is not None:
        options["num_processes"] = pick.num_processes
    return Source(text, case.path.name, case.path.parent), options


# ---------------------------------------------------------------- the tiny model, tokenizer, data, rewards
@pytest.fixture(scope="module", autouse=True)
def one_thread() -> Any:
    """One torch thread: for a model this small, intra-op threads only wait on each other, and on a busy machine
    (CI's 2 cores) they made a run some fifteen times slower."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random two-layer Llama (hidden 16, 2 heads) and a word-level tokenizer of 96 words, saved as one folder."""
    folder = tmp_path_factory.mktemp("tiny-llama")
    vocab = {"<pad>": 0, "<eos>": 1, "<bos>": 2, "<unk>": 3, **{f"w{i}": i + 4 for i in range(92)}}
    words = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    words.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    PreTrainedTokenizerFast(
        tokenizer_object=words, pad_token="<pad>", eos_token="<eos>", bos_token="<bos>", unk_token="<unk>"
    ).save_pretrained(folder)
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        pad_token_id=0,
        eos_token_id=1,
        bos_token_id=2,
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder


def prompts(count: int) -> Dataset:
    """``count`` distinct prompts of two words: i written in base 92 (distinct up to 92² = 8464 prompts)."""
    assert count <= 92 * 92
    return Dataset.from_dict({"prompt": [f"w{i % 92} w{i // 92}" for i in range(count)]})


@dataclasses.dataclass
class Call:
    step: int  # trainer_state.global_step when called: the optimizer steps already taken
    prompts: list[str]
    completions: list[str]


class Recorder:
    """A reward function that records its calls (TRL names it by ``__name__`` in its logs)."""

    def __init__(self, name: str) -> None:
        self.__name__ = name
        self.calls: list[Call] = []

    def __call__(self, prompts: list[str], completions: list[str], trainer_state: Any, **_: Any) -> list[float]:
        self.calls.append(Call(trainer_state.global_step, list(prompts), list(completions)))
        return [float(len(c)) for c in completions]  # any number: the advantages need not mean anything here


MODULE = """\
from tests.test_oracle_trl_train import Recorder

{name} = Recorder({name!r})
"""


def reward_functions(names: list[str], script: str, where: Path, monkeypatch: pytest.MonkeyPatch) -> list[Recorder]:
    """The stand-ins for the recipe's reward_funcs (module docstring); a dotted path is imported the way
    trl/scripts/grpo.py@v1.16.0 imports it (its folder on sys.path, importlib, getattr)."""
    funcs = []
    for name in names or ["reward"]:
        if script == "trl.scripts.grpo" and "." in name:
            module, attribute = name.rsplit(".", 1)
            path = where.joinpath(*module.split(".")).with_suffix(".py")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(MODULE.format(name=attribute))
            monkeypatch.syspath_prepend(str(where))
            monkeypatch.delitem(sys.modules, module, raising=False)
            funcs.append(getattr(importlib.import_module(module), attribute))
        else:
            funcs.append(Recorder(name))
    return funcs


class Steps(TrainerCallback):
    """Counts optimizer steps and the micro-steps that do not end one (transformers' Trainer calls on_step_end after
    an optimizer step and on_substep_end after every other micro-batch)."""

    def __init__(self) -> None:
        self.optimizer = 0
        self.accumulating = 0

    def on_step_end(self, *_: Any, **__: Any) -> None:
        self.optimizer += 1

    def on_substep_end(self, *_: Any, **__: Any) -> None:
        self.accumulating += 1


def steps_to_run(optimizer_steps_per_round: Fraction) -> int:
    """Optimizer steps to run: one when a step takes several rounds (the rounds within it are counted); else the
    steps of one round and one more, so that the second round is seen starting after exactly the first's steps."""
    return 1 if optimizer_steps_per_round < 1 else math.floor(optimizer_steps_per_round) + 1


# ---------------------------------------------------------------- the run
@pytest.mark.parametrize("pick", PICKS, ids=pick_id)
def test_one_process_training_follows_the_plan(
    pick: Pick, tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, options = one_process_source(pick)
    translation = translate(source, to=TARGET, **options)
    for name, text in translation.files.items():
        (tmp_path / name).write_text(text)
    world, script, recipe, flags = launch_line(translation.files["launch.sh"])
    plan = translation.plan
    assert world == plan["data_parallel_size"] == 1, (world, plan["data_parallel_size"])
    written = yaml.safe_load(translation.files["recipe.yaml"])

    per_round = Fraction(plan["optimizer_steps_per_step"]).limit_denominator(1000)
    steps = steps_to_run(per_round)
    # Round i starts after i · optimizer_steps_per_step optimizer steps, so the rounds started within the run are
    # those with i · optimizer_steps_per_step < steps.
    rounds = math.ceil(steps / per_round)
    overrides = [
        "--use_vllm",
        "false",
        "--bf16",
        "false",
        "--max_completion_length",
        str(COMPLETION_TOKENS),
        "--max_steps",
        str(steps),
        "--report_to",
        "none",
        "--save_strategy",
        "no",
        "--eval_strategy",
        "no",
        "--eval_on_start",
        "false",
        "--logging_steps",
        "1",
        "--seed",
        "0",
    ]
    config, _, _ = load_with_trl(tmp_path / recipe, [*flags, *overrides], 1, monkeypatch, tmp_path / "out", script)
    for key in BATCH_KEYS:
        if key in written:
            assert getattr(config, key) == written[key], key

    funcs = reward_functions(written.get("reward_funcs") or [], script, tmp_path, monkeypatch)
    counted = Steps()
    # More distinct prompts than the run draws, so that no epoch ends inside it (an epoch's end forces an
    # optimizer step) and every prompt of a round is a new one.
    data = prompts(math.ceil((rounds + 1) * Fraction(plan["prompts_per_step"]).limit_denominator(1000)) + 1)
    transformers.set_seed(0)
    trainer = GRPOTrainer(
        model=str(tiny_model), reward_funcs=funcs, args=config, train_dataset=data, callbacks=[counted]
    )
    trainer.train()

    # Optimizer steps: the trainer's own count, and one per callback.
    assert trainer.state.global_step == counted.optimizer == steps
    # Micro-batches per optimizer step: grad_accum_steps.
    assert counted.accumulating + counted.optimizer == steps * plan["grad_accum_steps"]
    for func in funcs:
        # One call per round, all of the round's completions at once (one process: the global batch).
        assert len(func.calls) == rounds, (func.__name__, [c.step for c in func.calls])
        for index, call in enumerate(func.calls):
            # Round `index` starts after index · optimizer_steps_per_step optimizer steps (the whole ones taken).
            assert call.step == math.floor(index * per_round), (index, call.step)
            assert len(call.completions) == len(call.prompts) == plan["samples_per_step"]
            groups = Counter(call.prompts)
            assert len(groups) == plan["prompts_per_step"]
            assert set(groups.values()) == {plan["samples_per_prompt"]}
