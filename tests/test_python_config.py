"""The static reader of a training script's GRPOConfig(...) call (translator/sources/pyconfig.py): literals, module
constants and their arithmetic are read; anything else is unknown with its line; the script is never run."""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from tests.conftest import CASES, COMPUTED_AT_RUN, case_id
from translator.errors import ConfigError
from translator.sources.files import Source
from translator.sources.pyconfig import read_config

CLASSES = ("GRPOConfig", "UnslothGRPOConfig")
CONSUMER = ("GRPOTrainer", "args")


def read(text: str) -> dict[str, object]:
    config = read_config(Source(text, "train.py"), CLASSES, CONSUMER)
    assert config.call is not None
    return config.call.values


def test_literals() -> None:
    # Every keyword is a literal: read as written (1e-5 is the float 0.00001; -1 through unary minus).
    values = read(
        "from trl import GRPOConfig\nargs = GRPOConfig(per_device_train_batch_size=6, learning_rate=1e-5,\n"
        '    report_to="none", bf16=True, top_k=-1, reward_weights=[1.0, 0.5], output_dir=None)\n'
    )
    assert values == {
        "per_device_train_batch_size": 6,
        "learning_rate": 1e-5,
        "report_to": "none",
        "bf16": True,
        "top_k": -1,
        "reward_weights": [1.0, 0.5],
        "output_dir": None,
    }


def test_module_constants_and_arithmetic() -> None:
    # GROUP = 8; BATCH = GROUP // 2 = 4; per_device_train_batch_size = BATCH * 3 = 12;
    # gradient_accumulation_steps = 16 // BATCH = 4; max_steps = STEPS + 50 = 250 + 50 = 300;
    # learning_rate = 5e-6 * 2 = 1e-5. The function's local GROUP = 2 does not rebind the module's GROUP.
    text = (
        "import trl\nGROUP = 8\nBATCH = GROUP // 2\nSTEPS: int = 250\n"
        "def helper():\n    GROUP = 2\n    return GROUP\n"
        "config = trl.GRPOConfig(num_generations=GROUP, per_device_train_batch_size=BATCH * 3,\n"
        "    gradient_accumulation_steps=16 // BATCH, max_steps=STEPS + 50, learning_rate=5e-6 * 2)\n"
    )
    assert read(text) == {
        "num_generations": 8,
        "per_device_train_batch_size": 12,
        "gradient_accumulation_steps": 4,
        "max_steps": 300,
        "learning_rate": pytest.approx(1e-5),
    }


def test_constants_imported_from_a_module_beside_the_script_are_read(tmp_path: Path) -> None:
    # python src/train.py puts src/ first on sys.path, so `from config import ARGS` is src/config.py's ARGS; its
    # values read the module's own LENGTH (512). A name the script binds itself, read by an imported value, leaves
    # that value unknown (the script's GROUP is not config.py's).
    (tmp_path / "config.py").write_text(
        "LENGTH = 512\nGROUP = 4\nARGS = {'num_generations': 8, 'max_completion_length': LENGTH, 'max_steps': 250}\n"
        "OTHER = {'num_generations': GROUP}\n"
    )
    script = tmp_path / "train.py"
    script.write_text("from config import ARGS\nfrom trl import GRPOConfig\nconfig = GRPOConfig(**ARGS)\n")
    found = read_config(Source(script.read_text(), str(script), base_dir=str(tmp_path)), ["GRPOConfig"])
    assert found.call is not None and found.call.values == {
        "num_generations": 8,
        "max_completion_length": 512,
        "max_steps": 250,
    }
    script.write_text("from config import OTHER\nfrom trl import GRPOConfig\nGROUP = 2\nconfig = GRPOConfig(**OTHER)\n")
    found = read_config(Source(script.read_text(), str(script), base_dir=str(tmp_path)), ["GRPOConfig"])
    assert found.call is not None and found.call.values == {} and "**OTHER" in found.call.unknown


@pytest.mark.parametrize(
    "prelude,value,why",
    [
        ("def get_bs():\n    return 4\n", "get_bs()", "'get_bs()' is computed when the script runs"),
        ("BS = 4\nBS = 8\n", "BS", "'BS' is bound more than once or not by a plain assignment"),
        ("import os\n", "int(os.environ['BS'])", "is computed when the script runs"),
        ("", "UNDEFINED", "'UNDEFINED' is not bound at module level"),
        ("BS = 4\ndef f():\n    global BS\n    BS = 2\n", "BS", "'BS' is bound more than once"),
        ("for BS in (2, 4):\n    pass\n", "BS", "'BS' is bound more than once"),
    ],
)
def test_a_value_computed_at_run_time_is_unknown_with_its_line(prelude: str, value: str, why: str) -> None:
    # The keyword sits on the line after the call's opening line: the prelude's line count + 2.
    text = f"{prelude}args = GRPOConfig(\n    per_device_train_batch_size={value}, num_generations=8)\n"
    line = prelude.count("\n") + 2
    config = read_config(Source(text, "train.py"), CLASSES, CONSUMER)
    assert config.call is not None
    assert config.call.values == {"num_generations": 8}
    reason = config.call.unknown["per_device_train_batch_size"]
    assert reason.startswith(f"train.py:{line}: ") and why in reason


def test_of_two_config_calls_the_one_the_trainer_receives_is_read() -> None:
    # eval_args (line 2) is not passed to GRPOTrainer; train_args (line 3) is, as args=: its batch 4 is read.
    text = (
        "from trl import GRPOConfig, GRPOTrainer\n"
        "eval_args = GRPOConfig(per_device_train_batch_size=16)\n"
        "train_args = GRPOConfig(per_device_train_batch_size=4)\n"
        "GRPOTrainer(model=m, args=train_args).train()\n"
    )
    assert read(text) == {"per_device_train_batch_size": 4}
    # Passed inline instead of through a name: the same.
    inline = text.replace("args=train_args", "args=GRPOConfig(per_device_train_batch_size=2)")
    assert read(inline) == {"per_device_train_batch_size": 2}


def test_two_config_calls_and_no_trainer_is_an_error_naming_the_lines() -> None:
    text = "a = GRPOConfig(per_device_train_batch_size=1)\nb = GRPOConfig(per_device_train_batch_size=2)\n"
    with pytest.raises(ConfigError) as error:
        read_config(Source(text, "train.py"), CLASSES, CONSUMER)
    assert "lines 1, 2" in error.value.message and error.value.line == 1


def test_not_python_is_an_error_with_the_line() -> None:
    with pytest.raises(ConfigError) as error:
        read_config(Source("x = GRPOConfig(\n  per_device_train_batch_size=\n", "train.py"), CLASSES, CONSUMER)
    assert error.value.file == "train.py" and error.value.line is not None


def test_the_script_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    script = tmp_path / "train_grpo.py"
    script.write_text(
        f"open({str(marker)!r}, 'w').write('x')\nimport trl\n"
        "args = trl.GRPOConfig(per_device_train_batch_size=4, num_generations=8, gradient_accumulation_steps=2)\n"
    )
    explanation = translator.explain(script)
    assert not marker.exists()
    # TRL (no unsloth import), one process (a script run as written): spg = GAS 2; generation batch = 4 × 1 × 2 = 8
    # completions = 1 prompt of 8; micro-batch 4; samples per optimizer step = 4 × 1 × 2 = 8.
    assert explanation.framework == "trl"
    assert explanation.plan["prompts_per_step"] == 1
    assert explanation.plan["samples_per_optimizer_step"] == 8
    assert explanation.plan["micro_batch_per_device"] == 4
    # the file does not say how it is launched: one process is assumed, and so are the counts resting on it
    levels = {name: explanation.certainty[name].level for name in ("data_parallel_size", "prompts_per_step")}
    assert levels == {"data_parallel_size": "assumed", "prompts_per_step": "assumed"}


def test_an_unread_batch_value_is_asked_for_and_can_be_passed(tmp_path: Path) -> None:
    script = tmp_path / "train_grpo.py"
    script.write_text(
        "import os\nfrom trl import GRPOConfig\n"
        "args = GRPOConfig(per_device_train_batch_size=int(os.environ['BS']), num_generations=8,\n"
        "    max_completion_length=max_len())\n"
    )
    # The batch is needed for the plan: every count built on it is unknown, naming what to pass; the group (8) is
    # still read.
    unread = translator.explain(script)
    assert unread.plan["micro_batch_per_device"] is None and unread.plan["prompts_per_step"] is None
    assert unread.plan["samples_per_prompt"] == 8
    why = unread.certainty["micro_batch_per_device"]
    assert why.level == "unknown" and "--env per_device_train_batch_size" in f"{why.why} {why.hint}"
    # Given: 4 completions × 1 process × GAS 1 (TRL's default) = 4, not a multiple of 8 → TRL's own check notes it;
    # with 16 instead: 16 / 8 = 2 prompts per step, micro-batch 16.
    explanation = translator.explain(script, env={"per_device_train_batch_size": "16"})
    assert explanation.plan["prompts_per_step"] == 2 and explanation.plan["micro_batch_per_device"] == 16
    # The length is not needed for the plan: unknown, with its line (4) and what to pass.
    notes = [n.message for n in explanation.notes if n.code == "input.python-value-not-read"]
    assert len(notes) == 1 and notes[0].startswith(f"{script}:4: ")
    assert "--env max_completion_length=VALUE" in notes[0]


@pytest.mark.parametrize(
    "imports,framework",
    [
        ("from unsloth import FastLanguageModel\nfrom trl import GRPOConfig\n", "unsloth"),
        ("import unsloth\nimport trl\n", "unsloth"),
        ("from trl import GRPOConfig\nfrom unsloth import FastLanguageModel\n", "trl"),  # imported too late to patch
        ("from trl import GRPOConfig\n", "trl"),
    ],
)
def test_unsloth_imported_before_trl_makes_it_the_unsloth_variant(tmp_path: Path, imports: str, framework: str) -> None:
    script = tmp_path / "train.py"
    script.write_text(imports + "args = GRPOConfig(per_device_train_batch_size=8, num_generations=8)\n")
    assert translator.explain(script).framework == framework


def _overrides(text: str, fields: frozenset[str]) -> list[tuple[str, object, bool, bool]]:
    from translator.sources.pyconfig import overrides

    return [(o.key, o.value, o.why is None, o.conditional) for o in overrides(Source(text, "train.py"), fields)]


def test_fields_set_after_parsing_are_read_in_order_with_their_condition() -> None:
    text = (
        "from omegaconf import OmegaConf, open_dict\n"
        "GROUP = 4\n"
        "def main(args, config):\n"
        "    args.num_generations = GROUP\n"  # a module constant: read
        "    setattr(args, 'gradient_accumulation_steps', 2 * 3)\n"  # arithmetic of literals: read
        "    with open_dict(config):\n"
        "        config.data.train_batch_size = 64\n"  # a with's body always runs
        "    if args.long:\n"
        "        args.per_device_train_batch_size = 2\n"  # under an if: conditional
        "    args.max_steps *= 2\n"  # changes the value it had: not read
        "    args.logging_steps, args.save_steps = 1, 2\n"  # unpacked: not read
        "    OmegaConf.update(config, 'actor_rollout_ref.rollout.n', args.n)\n"  # computed: not read
        "    self_like.config.data.max_prompt_length = 512\n"  # the longest tail that is a field
        "    args.output_dir = 'out'\n"  # not a field asked for
    )
    fields = frozenset(
        {
            "num_generations",
            "gradient_accumulation_steps",
            "data.train_batch_size",
            "per_device_train_batch_size",
            "max_steps",
            "logging_steps",
            "save_steps",
            "actor_rollout_ref.rollout.n",
            "data.max_prompt_length",
        }
    )
    assert _overrides(text, fields) == [
        ("num_generations", 4, True, False),
        ("gradient_accumulation_steps", 6, True, False),
        ("data.train_batch_size", 64, True, False),
        ("per_device_train_batch_size", 2, True, True),
        ("max_steps", None, False, False),
        ("logging_steps", None, False, False),
        ("save_steps", None, False, False),
        ("actor_rollout_ref.rollout.n", None, False, False),
        ("data.max_prompt_length", 512, True, False),
    ]


@pytest.mark.parametrize("name", sorted(COMPUTED_AT_RUN))
def test_a_count_the_launched_code_computes_stops_a_translation(name: str) -> None:
    # The fixture's prompts (verl, EasyR1) or micro-batch (TRL) are set by code that runs with the launch: a
    # written config would have to state a number nobody knows, so translate refuses with exit 2, naming the line.
    case = next(c for c in CASES if case_id(c) == name)
    target = "trl" if case.framework != "trl" else "verl"
    with pytest.raises(ConfigError) as refused:
        translator.translate(translator.load(case.path, **case.load_kwargs()), to=target)
    assert "computed at" in str(refused.value) or "--env" in f"{refused.value} {refused.value.hint}"


def test_a_scripts_own_options_feed_its_config_call() -> None:
    # --bs 3 goes to dest "per_device" (int); --flag is a store_true switch; --lr keeps its default 1e-6 (not on the
    # line); --layers takes nargs="+", several words: not one value, so args.layers stays unread (unknown)
    text = (
        "import argparse\nfrom trl import GRPOConfig\n\ndef get_args():\n    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--bs", dest="per_device", type=int, default=1)\n'
        '    p.add_argument("--lr", type=float, default=1e-6)\n'
        '    p.add_argument("--flag", action="store_true")\n'
        '    p.add_argument("--layers", nargs="+", type=int, default=[1])\n'
        "    return p.parse_args()\n\nargs = get_args()\n"
        "GRPOConfig(per_device_train_batch_size=args.per_device, learning_rate=args.lr, bf16=args.flag,"
        " num_generations=args.layers)\n"
    )
    config = read_config(Source(text, "train.py"), ["GRPOConfig"], argv=["--bs", "3", "--flag", "--layers", "1", "2"])
    assert config.own_arguments and config.call is not None
    assert config.call.values == {"per_device_train_batch_size": 3, "learning_rate": 1e-6, "bf16": True}
    assert "num_generations" in config.call.unknown


def test_options_parsed_inside_main_take_their_defaults(tmp_path: Path) -> None:
    # args = parse_args() inside main(), --num-generations defaulting to 4 and read into GRPOConfig: run as
    # written, num_generations = per-device 4, accumulation 1 (a required --model does not matter to the batch)
    script = tmp_path / "train.py"
    script.write_text(
        "import argparse\nfrom trl import GRPOConfig\n\n\ndef parse_args():\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument('--model', required=True)\n"
        "    parser.add_argument('--num-generations', type=int, default=4)\n    return parser.parse_args()\n\n\n"
        "def main():\n    args = parse_args()\n"
        "    config = GRPOConfig(output_dir='o', num_generations=args.num_generations,"
        " per_device_train_batch_size=args.num_generations, gradient_accumulation_steps=1)\n"
    )
    plan = translator.explain(str(script), framework="trl@1.16.0").spec.plan
    assert (plan.samples_per_prompt, plan.micro_batch_per_device, plan.grad_accum_steps) == (4, 4, 1)


def _config_script(tmp_path: Path, arguments: str) -> Path:
    script = tmp_path / "train.py"
    script.write_text(f"from trl import GRPOConfig\n\nconfig = GRPOConfig(output_dir='o', {arguments})\n")
    return script


def test_a_start_up_error_at_every_world_size_refuses_a_script_of_assumed_size(tmp_path: Path) -> None:
    # trl 0.18.0 GRPOConfig.__post_init__ (grpo_config.py:537-546): generation_batch_size 1 given, the valid group
    # sizes are the divisors ≥ 2 of 1, none, so num_generations 4 raises ValueError whatever the process count:
    # refused although the world size (one process, as written) is only assumed
    script = _config_script(
        tmp_path,
        "per_device_train_batch_size=1, gradient_accumulation_steps=4, num_generations=4, generation_batch_size=1",
    )
    with pytest.raises(ConfigError, match="evenly divisible by the number of generations"):
        translator.explain(str(script), framework="trl@0.18.0")


def test_a_start_up_error_of_the_assumed_world_size_only_is_not_refused(tmp_path: Path) -> None:
    # num_generations 3, 1 completion per device per micro-step, 1 micro-step per generation: the generation batch
    # is the process count, 1 as assumed (3 is not a divisor of 1: an error), but 3 processes give 3: it may run
    script = _config_script(tmp_path, "per_device_train_batch_size=1, gradient_accumulation_steps=1, num_generations=3")
    explanation = translator.explain(str(script), framework="trl@0.18.0")
    assert explanation.spec.plan.samples_per_prompt == 3
    assert explanation.certainty["data_parallel_size"].level == "assumed"
    # --num-processes states what was assumed: read, and at 3 processes 1 prompt × 3 per generation round
    stated = translator.explain(str(script), framework="trl@0.18.0", num_processes=3)
    assert stated.certainty["data_parallel_size"].level != "assumed"
    assert stated.spec.plan.prompts_per_step == 1


_HYDRA_TRAIN = """import hydra
from trl import GRPOConfig, GRPOTrainer


@hydra.main(version_base=None, config_path="config", config_name="train")
def main(cfg):
    grpo = cfg.training.grpo
    args = GRPOConfig(
        output_dir="out",
        seed=int(cfg.seed),
        per_device_train_batch_size=cfg.training.grpo.per_device,
        gradient_accumulation_steps=cfg["training"]["grpo"].accumulation,
        num_generations=cfg.training.grpo.get("group", 2),
        steps_per_generation=cfg.training.grpo.get("rounds", 2),
        max_steps=cfg.training.grpo.max_steps,
        **cfg.training.extra,
    )
    GRPOTrainer(model="m", args=args, reward_funcs=[]).train()


if __name__ == "__main__":
    main()
"""

# config/train.yaml, composed by @hydra.main: _self_ after the defaults, so its own values win over group files;
# max_steps interpolates another key; extra is unpacked into GRPOConfig whole.
_HYDRA_CONFIG = """defaults:
  - _self_
seed: 7
training:
  grpo:
    per_device: 8
    accumulation: 4
    group: 8
    max_steps: ${training.steps}
  steps: 120
  extra:
    num_iterations: 2
"""


def test_a_hydra_script_building_its_config_from_the_composed_config_is_read_with_the_overrides(
    tmp_path: Path,
) -> None:
    # trl 1.16 (grpo_config.py __post_init__): generation_batch_size = per_device 8 × 2 processes × steps_per_generation
    # (rounds, absent: the .get default 2) = 32 completions = 4 prompts × num_generations 8; the launch's Hydra
    # override training.grpo.accumulation=2 beats the file's 4, so an optimizer step is 8 × 2 × 2 = 32 completions;
    # a round spans 2 micro-steps per process, trained num_iterations 2 times: 2 × 2 / 2 = 2 optimizer steps per
    # round; max_steps ${training.steps} = 120 optimizer steps → 60 rounds.
    (tmp_path / ".git").mkdir()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "train.yaml").write_text(_HYDRA_CONFIG)
    (tmp_path / "train.py").write_text(_HYDRA_TRAIN)
    (tmp_path / "run.sh").write_text(
        "accelerate launch --num_processes 2 train.py training.grpo.accumulation=2 +run_name=x\n"
    )
    explanation = translator.explain(str(tmp_path / "run.sh"), framework="trl@1.16.0")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (4, 8, 32)
    assert (plan.samples_per_optimizer_step, plan.grad_accum_steps, plan.epochs_per_step) == (32, 2, 2)
    assert (plan.optimizer_steps_per_step, plan.total_steps) == (2, 60)
    assert not any(n.code == "keys.unknown" for n in explanation.notes)  # the config's keys are not TRL's flags
    assert any("Hydra overrides" in n.message for n in explanation.notes if n.code == "input.script-arguments")


def test_a_chain_the_composed_config_lacks_is_unknown() -> None:
    text = _HYDRA_TRAIN.replace("cfg.training.grpo.per_device", "cfg.training.grpo.missing")
    config = read_config(Source(text, "train.py"), ["GRPOConfig"], argv=[], compose=lambda words: {"seed": 1})
    assert config.composed_by_hydra and config.call is not None
    assert config.call.values["seed"] == 1
    assert "per_device_train_batch_size" in config.call.unknown


_STEPS_SCRIPT = """import argparse
from trl import GRPOConfig


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--test", action="store_true")
    args = parser.parse_args()
    if args.test:
        max_steps = 3
    elif args.steps:
        max_steps = args.steps
    else:
        max_steps = 300
    group = 8
    config = GRPOConfig(
        output_dir="o",
        per_device_train_batch_size=2,
        gradient_accumulation_steps=4,
        num_generations=group,
        max_steps=max_steps,
    )
    return config


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(("words", "steps"), [("--steps 120", 120), ("--test --steps 120", 3), ("", 300)])
def test_a_local_name_an_if_chain_on_the_options_binds_is_read(tmp_path: Path, words: str, steps: int) -> None:
    # main() binds max_steps by an if-chain on its own options (--test: 3, else --steps, else 300) and group = 8
    # before GRPOConfig: trl 1.16 with 1 process, 2 completions × 4 accumulation = 8 = 1 prompt × 8 per round, one
    # optimizer step per round, so the run is max_steps rounds.
    (tmp_path / "train.py").write_text(_STEPS_SCRIPT)
    (tmp_path / "run.sh").write_text(f"python train.py {words}\n")
    plan = translator.explain(str(tmp_path / "run.sh"), framework="trl@1.16.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.optimizer_steps_per_step) == (1, 8, 1)
    assert plan.total_steps == steps


def test_the_parsed_options_passed_to_a_function_are_read_there(tmp_path: Path) -> None:
    # args = parser.parse_args() at module level, then main(args): inside, max_steps = args.steps * 2 if
    # args.double else args.steps; --steps 7 --double gives 14 optimizer steps, one per generation round (trl 1.16,
    # 1 process: 2 completions × 4 accumulation = 8 = 1 prompt × 8): 14 steps
    (tmp_path / "train.py").write_text(
        "import argparse\nfrom trl import GRPOConfig\n\n\ndef main(args):\n"
        "    steps = args.steps * 2 if args.double else args.steps\n"
        "    return GRPOConfig(output_dir='o', per_device_train_batch_size=2, gradient_accumulation_steps=4,\n"
        "                      num_generations=8, max_steps=steps)\n\n\nif __name__ == '__main__':\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument('--steps', type=int, default=10)\n"
        "    parser.add_argument('--double', action='store_true')\n    args = parser.parse_args()\n    main(args)\n"
    )
    (tmp_path / "run.sh").write_text("python train.py --steps 7 --double\n")
    assert translator.explain(str(tmp_path / "run.sh"), framework="trl@1.16.0").spec.plan.total_steps == 14
