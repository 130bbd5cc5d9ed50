"""Miles' Python drivers (translator/frameworks/slime/driver.py over translator/sources/pydriver.py): the static
string evaluator, the launch it hands the slime argument reader, and (with RLCONF_MILES_SRC naming a Miles v0.1.0
checkout) six of Miles' own drivers against plans derived by hand from their source, and every run*.py read
without a crash. The fixtures fixtures/miles/driver_*.py (tests/test_fixtures.py) cover each shape with a driver of
our own."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from translator.cli import main
from translator.dialects import registry
from translator.dialects.base import ReadOptions
from translator.errors import ConfigError
from translator.sources.files import Source
from translator.sources.pydriver import Evaluator, Text, Unknown, dataclass_fields, module_scope, run_function

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "miles"


def evaluate(code: str, **fields: object) -> tuple[dict[str, object], Evaluator]:
    """Run ``build(args)`` of ``code`` with ``fields`` as the config's values; its local names at the end."""
    tree = ast.parse(code)
    evaluator = Evaluator(
        "d.py", dict(fields), functions={f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    )
    function = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "build")
    scope: dict[str, object] = {}
    evaluator.run(function.body, scope)  # `args.x` reads the fields (args is a config name)
    return scope, evaluator


def rendered(value: object) -> str:
    return value.render() if isinstance(value, Text) else str(value)


# ---------------------------------------------------------------- the evaluator


def test_literals_fstrings_and_augmented_concatenation_follow_the_defaults() -> None:
    code = """
def build(args):
    debug = args.mode != "normal"
    x = "--a 1 " "--b 2 "
    x += f"--c {args.n * 2} --d {4 if debug else 8} "
    if args.flag:
        x += "--e "
    if not args.flag:
        x += "--f "
"""
    # mode "normal" → debug False → 8; n 3 → 6; flag True → --e, not --f
    scope, _ = evaluate(code, mode="normal", n=3, flag=True)
    assert scope["x"] == "--a 1 --b 2 --c 6 --d 8 --e "


def test_a_match_takes_the_case_the_defaults_select() -> None:
    code = """
def build(args):
    match (args.hw, args.nodes):
        case ("H100", 1):
            x = "--tp 4 "
        case ("GB200" | "GB300", 1 | 2):
            x = "--tp 2 "
        case _:
            x = "--tp 8 "
"""
    assert evaluate(code, hw="GB300", nodes=2)[0]["x"] == "--tp 2 "
    assert evaluate(code, hw="H100", nodes=1)[0]["x"] == "--tp 4 "
    assert evaluate(code, hw="H100", nodes=4)[0]["x"] == "--tp 8 "


def test_an_unknown_call_makes_only_its_own_words_unknown() -> None:
    code = """
def build(args):
    x = f"--rollout-batch-size {pick()} --n-samples-per-prompt 8 "
"""
    value = evaluate(code)[0]["x"]
    assert isinstance(value, Text)
    assert value.render() == "--rollout-batch-size ${unknown_L3} --n-samples-per-prompt 8 "
    assert [u.origin for u in value.unknowns] == ["d.py:3"]
    assert "pick()" in value.unknowns[0].why


def test_an_if_whose_test_is_unknown_keeps_the_common_words() -> None:
    code = """
def build(args):
    x = "--a 1 "
    if probe():
        x += "--b 2 "
"""
    # the branches leave "--a 1 " and "--a 1 --b 2 ": "--a 1 " is known, what may follow it is not
    value = evaluate(code)[0]["x"]
    assert isinstance(value, Text) and value.pieces[0] == "--a 1 " and isinstance(value.pieces[1], Unknown)
    assert "line 4" in value.pieces[1].why


@pytest.mark.parametrize(
    "expression,expected",
    [
        ("2 ** 10", 1024),
        ('f"{1.5!r:>5}"', "  1.5"),  # repr, then right-aligned in 5
        ('"-".join(["a", "b"]) + "c" * 2', "a-bcc"),
        ("max(2, 8 // 3)", 2),
        ("10 ** 10 ** 9", None),  # a power that would not finish: unknown, not computed
        ('"x" * 10 ** 9', None),  # a gigabyte of text: unknown
        ("(9 ** 64) ** 64", None),  # 9**64 has 203 bits; its 64th power 13,000: past MAX_INT_BITS (256), unknown
        ('f"{3:zz}"', None),  # a format the value does not take
    ],
)
def test_expressions_are_computed_within_bounds(expression: str, expected: object) -> None:
    value = Evaluator("d.py", {}).value(ast.parse(expression, mode="eval").body, {})
    if expected is None:
        assert isinstance(value, (Unknown, Text)) and not isinstance(value, str)
    else:
        assert value == expected


def test_a_function_of_the_module_is_run_with_the_config() -> None:
    code = """
def _layout(args, pp=2):
    if args.gpus == 8:
        return f"--tp 4 --pp {pp} "
    raise NotImplementedError

def build(args):
    x = _layout(args)
    y = _layout(args, pp=1)
"""
    scope, _ = evaluate(code, gpus=8)
    assert (scope["x"], scope["y"]) == ("--tp 4 --pp 2 ", "--tp 4 --pp 1 ")
    raised = evaluate(code, gpus=4)[0]["x"]
    assert isinstance(raised, Unknown) and "raises (line 5)" in raised.why


def test_a_recipe_table_of_the_module_is_read_through_a_property() -> None:
    code = """
@dataclass(frozen=True)
class _Recipe:
    tp: int
    max_tokens: int
    rollouts: int = 3000

_RECIPES = {"small": _Recipe(2, 9216), "large": _Recipe(8, 20480, rollouts=5)}

@dataclass
class ScriptArgs(U.ExecuteTrainConfig):
    model: str = "large"

    @property
    def recipe(self):
        return _RECIPES[self.model]

def build(args):
    x = f"--tp {args.recipe.tp} --num-rollout {args.num_rollout or args.recipe.rollouts} "
"""
    tree = ast.parse(code)
    evaluator = Evaluator("d.py", {"num_rollout": 0})
    evaluator.classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef) and c.name == "_Recipe"}
    scope = module_scope(tree, evaluator)
    evaluator.module = scope
    config, _ = dataclass_fields(tree, evaluator, "ExecuteTrainConfig", scope)
    assert config is not None
    evaluator.properties = {f.name: f for f in config.body if isinstance(f, ast.FunctionDef)}
    local: dict[str, object] = {}
    evaluator.run(next(f for f in tree.body if isinstance(f, ast.FunctionDef)).body, local)
    # model "large" → _Recipe(8, 20480, rollouts=5): tp 8; num_rollout 0 is falsy → the recipe's 5
    assert local["x"] == "--tp 8 --num-rollout 5 "


def test_dataclass_defaults_post_init_and_a_raise_the_defaults_reach() -> None:
    code = """
@dataclass
class ScriptArgs(U.ExecuteTrainConfig):
    hardware: str = "H100"
    tp: int = field(default=2)
    run_id: str = U.create_run_id()

    def __post_init__(self):
        self.cp = 1 if self.tp > 1 else 2
        if self.hardware == "B200":
            raise ValueError("no")
"""
    tree = ast.parse(code)
    evaluator = Evaluator("d.py", {})
    config, annotations = dataclass_fields(tree, evaluator, "ExecuteTrainConfig")
    assert config is not None and annotations == {"hardware": "str", "tp": "int", "run_id": "str"}
    post = next(f for f in config.body if isinstance(f, ast.FunctionDef))
    assert run_function(evaluator, post, {}, "ScriptArgs") is None
    assert (evaluator.fields["tp"], evaluator.fields["cp"]) == (2, 1)
    assert isinstance(evaluator.fields["run_id"], Unknown)  # a call: never a guessed value
    evaluator.fields["hardware"] = "B200"
    assert run_function(evaluator, post, {}, "ScriptArgs") == "d.py:11"


# ---------------------------------------------------------------- a driver read as a Miles launch

DRIVER = """import miles.utils.external_utils.command_utils as U
from dataclasses import dataclass

@dataclass
class ScriptArgs(U.ExecuteTrainConfig):
    batch: int = 32

def execute(args: ScriptArgs):
    train_args = (
        f"--rollout-batch-size {args.batch} --n-samples-per-prompt 8 --global-batch-size 64 "
        f"--lr {lr_of(args)} "
        "--actor-num-nodes 1 --actor-num-gpus-per-node 4 --colocate --train-backend fsdp --micro-batch-size 2 "
    )
    U.execute_train(train_args=train_args, config=args, num_gpus_per_node=4, megatron_model_type=None)
"""


def test_a_driver_piece_rlconf_cannot_compute_leaves_its_flag_unknown_with_its_line() -> None:
    explanation = translator.load(Source(DRIVER, "run_x.py"), framework="miles@0.1.0")
    # 32 × 8 = 256 samples; gbs 64 → 4 steps; FSDP DP 4 → 64 / (2 × 4) = 8
    plan = explanation.plan
    assert (plan["prompts_per_step"], plan["samples_per_optimizer_step"], plan["grad_accum_steps"]) == (32, 64, 8)
    assert explanation.spec.get("optimizer.lr") is None  # --lr's value is lr_of(args): unknown, not Miles' default
    unread = [n.message for n in explanation.notes if n.code == "miles.driver-unread"]
    assert len(unread) == 1 and unread[0].startswith("run_x.py:11: 'lr_of(args)'")


LOOSE = DRIVER.replace('f"--lr {lr_of(args)} "', 'f"--lr 1e-6 {layout_flags(args)} "')


def test_a_piece_that_may_hold_flags_leaves_the_plan_flags_the_rest_lacks_unknown() -> None:
    explanation = translator.load(Source(LOOSE, "run_x.py"), framework="miles@0.1.0")
    # layout_flags(args) stands as words of its own: it may set --global-batch-size's companions, the parallel
    # sizes, --num-rollout…; those the known words lack are unknown (not their defaults), those they give are read
    plan = explanation.plan
    assert (plan["prompts_per_step"], plan["samples_per_prompt"]) == (32, 8)
    assert plan["total_steps"] is None  # --num-rollout is absent from the known words
    # --num-steps-per-rollout may be in the piece, but --global-batch-size 64 is given: Miles keeps 256 / 64 = 4
    # optimizer steps or refuses a steps count that disagrees (miles/utils/arguments.py:3431-3439@v0.1.0)
    assert plan["optimizer_steps_per_step"] == 4
    note = next(n.message for n in explanation.notes if n.code == "miles.driver-open-flags")
    assert "--num-rollout" in note and "--rollout-batch-size" not in note
    # the piece's text given as --env unknown_L<line>=TEXT: read as written (line 11 holds the piece)
    given = translator.load(Source(LOOSE, "run_x.py"), framework="miles@0.1.0", env={"unknown_L11": "--num-rollout 50"})
    # --num-rollout 50; the other open flags take their defaults now that the piece is known
    assert (given.plan["total_steps"], given.plan["data_parallel_size"]) == (50, 4)  # FSDP: 1 × 4 actor GPUs


def test_pieces_joined_without_spaces_before_a_flag_still_end_their_words() -> None:
    # "{a}{b}--num-rollout 7": two chunks of flags and a flag, joined as drivers join whole chunks
    glued = DRIVER.replace('f"--lr {lr_of(args)} "', 'f"--lr 1e-6 {rollout_flags(args)}{more()}--num-rollout 7 "')
    explanation = translator.load(Source(glued, "run_x.py"), framework="miles@0.1.0")
    assert explanation.plan["total_steps"] == 7  # --num-rollout is its own word, not glued to the pieces
    assert explanation.plan["prompts_per_step"] == 32  # given in the known words
    # two different pieces of line 11: one name each, so --env can give each its text
    unread = [n.message for n in explanation.notes if n.code == "miles.driver-unread"]
    line_11 = [m.split(": ")[1] for m in unread if m.startswith("run_x.py:11:")]
    assert [m.split("'")[1] for m in line_11] == ["rollout_flags(args)", "more()"]
    both = translator.load(
        Source(glued, "run_x.py"),
        framework="miles@0.1.0",
        env={"unknown_L11": "--num-steps-per-rollout 4", "unknown_L11_2": "--micro-batch-size 4"},
    )
    # 32 × 8 = 256 samples, 4 steps of gbs 64 (given, and 256 // 4); the piece's --micro-batch-size 4 comes before
    # the driver's --micro-batch-size 2 (line 12), and argparse keeps the last: FSDP DP 4 → 64 / (2 × 4) = 8
    assert (both.plan["optimizer_steps_per_step"], both.plan["grad_accum_steps"]) == (4, 8)


def test_each_flag_comes_from_the_line_of_the_literal_that_writes_it() -> None:
    reading = registry.get("miles").read(Source(DRIVER, "run_x.py"), ReadOptions(version="0.1.0"))
    assert reading.native is not None
    origins = reading.native.origins
    # DRIVER's lines: 10 the f-string with the batch flags, 11 --lr, 12 the placement and backend, 14 the call
    assert (origins["rollout-batch-size"], origins["global-batch-size"]) == ("run_x.py:10", "run_x.py:10")
    assert (origins["lr"], origins["micro-batch-size"], origins["train-backend"]) == (
        "run_x.py:11",
        "run_x.py:12",
        "run_x.py:12",
    )


def test_env_sets_a_dataclass_field() -> None:
    # --env batch=16: 16 × 8 = 128 samples; gbs 64 → 2 optimizer steps
    explanation = translator.load(Source(DRIVER, "run_x.py"), framework="miles@0.1.0", env={"batch": "16"})
    assert (explanation.plan["prompts_per_step"], explanation.plan["optimizer_steps_per_step"]) == (16, 2)
    assert any("set by --env: batch" in n.message for n in explanation.notes if n.code == "miles.driver-defaults")


# The backend's flags come from an `if` on an environment variable: both branches start with --train-backend, so
# the text they differ in follows that flag, and holds more flags (TP, dynamic batching) than its value.
BRANCHED = (
    DRIVER.replace(
        "def execute(args: ScriptArgs):\n",
        'BACKEND = os.environ.get("MY_BACKEND", "Megatron").lower()\n\n'
        "def execute(args: ScriptArgs):\n"
        '    if BACKEND == "megatron":\n'
        '        backend = "--train-backend megatron --tensor-model-parallel-size 4 "\n'
        "    else:\n"
        '        backend = "--train-backend fsdp "\n',
    )
    .replace("--colocate --train-backend fsdp", "--colocate {backend}")
    .replace('"--actor-num-nodes 1', 'f"--actor-num-nodes 1')
    .replace("import miles", "import os\nimport miles")
)


def test_a_piece_an_undecided_if_adds_after_a_flag_may_hold_more_flags() -> None:
    # the default "Megatron".lower() is "megatron": TP 4 on 4 GPUs → DP 1; 64 samples ÷ (1 rank × micro 2) = 32
    decided = translator.load(Source(BRANCHED, "run_x.py"), framework="miles@0.1.0")
    assert (decided.plan["data_parallel_size"], decided.plan["grad_accum_steps"]) == (1, 32)
    # a value rlconf cannot read (a call): the branch is undecided, so TP (and DP) are unknown, not TP 1's DP 4
    undecided = BRANCHED.replace('os.environ.get("MY_BACKEND", "Megatron").lower()', "pick_backend()")
    explanation = translator.load(Source(undecided, "run_x.py"), framework="miles@0.1.0")
    assert explanation.plan["data_parallel_size"] is None and explanation.plan["prompts_per_step"] == 32
    # an undecided `if` whose every way adds no plan flag (a path, here from rstrip of a field) leaves the plan known
    traced = BRANCHED.replace(
        "    U.execute_train(",
        '    traces = args.save_dir.rstrip("/") + "/traces"\n'
        "    if pick_tracing():\n"
        '        train_args += f"--dump-details {traces} "\n'
        "    U.execute_train(",
    ).replace("    batch: int = 32\n", '    batch: int = 32\n    save_dir: str = "/ckpt/"\n')
    explanation = translator.load(Source(traced, "run_x.py"), framework="miles@0.1.0")
    assert (explanation.plan["data_parallel_size"], explanation.plan["grad_accum_steps"]) == (1, 32)


# A typer app that is a group (a callback, or several commands): click takes a command first, so `python FILE`
# alone stops with "Missing command." (exit 2); `python FILE train` runs train, which reaches execute_train.
TYPER = (
    "import typer\n"
    + DRIVER.replace("def execute(", "def _execute(")
    + """
app = typer.Typer()

@app.command()
def prepare(args: ScriptArgs):
    print("download")

@app.command()
def train(args: ScriptArgs):
    _execute(args)

if __name__ == "__main__":
    app()
"""
)


def test_a_typer_group_driver_needs_its_command() -> None:
    with pytest.raises(ConfigError, match=r"no command stops: its typer app is a group \(commands: prepare, train\)"):
        translator.load(Source(TYPER, "run_x.py"), framework="miles@0.1.0")
    # 32 prompts × 8 = 256 samples, gbs 64 → 4 optimizer steps (DRIVER's defaults, reached through train)
    trained = translator.load(Source(TYPER, "run_x.py"), framework="miles@0.1.0", env={"1": "train"})
    assert (trained.plan["prompts_per_step"], trained.plan["optimizer_steps_per_step"]) == (32, 4)
    with pytest.raises(ConfigError, match="command prepare never reaches execute_train"):
        translator.load(Source(TYPER, "run_x.py"), framework="miles@0.1.0", env={"1": "prepare"})
    # one command and no callback: typer runs it with no command word
    single = TYPER.replace('@app.command()\ndef prepare(args: ScriptArgs):\n    print("download")\n\n', "")
    assert translator.load(Source(single, "run_x.py"), framework="miles@0.1.0").plan["prompts_per_step"] == 32


def test_env_chooses_a_branch_and_a_raise_it_reaches_is_refused() -> None:
    moe = FIXTURES / "driver_moe_expert_parallel.py"
    # hardware GB200: 4 GPUs per node (NUM_GPUS_OF_HARDWARE), case ("GB200" | "GB300", 1 | 2): TP 2 → DP 4 / 2 = 2
    gb200 = translator.load(str(moe), env={"hardware": "GB200"})
    assert (gb200.spec.get("topology.training_gpus"), gb200.spec.get("topology.tensor_parallel_size")) == (4, 2)
    # hardware B200 with one node matches no case: `case _: raise NotImplementedError` (line 44)
    with pytest.raises(ConfigError, match=r"stops at a raise \(.*driver_moe_expert_parallel.py:44\)"):
        translator.load(str(moe), env={"hardware": "B200"})


def test_the_cli_explains_a_driver_without_from_and_refuses_one_that_never_launches(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["explain", str(FIXTURES / "driver_fsdp.py")])
    assert result.exit_code == 0 and "16 prompts per step" in result.stdout
    never = tmp_path / "run_never.py"
    never.write_text(DRIVER.replace("    U.execute_train(", "    if args.batch > 99:\n        U.execute_train("))
    result = CliRunner().invoke(main, ["explain", str(never)])
    assert result.exit_code == 2 and "never reaches execute_train" in result.stderr


def test_a_driver_launching_through_another_helper_is_refused_at_the_call(tmp_path: Path) -> None:
    # execute_train_npu: no Miles release defines it (command_utils.py@v0.1.0 has execute_train only), so the
    # driver's import fails; the refusal names the call's line (line 14 of DRIVER)
    npu = tmp_path / "run_npu.py"
    npu.write_text(DRIVER.replace("U.execute_train(", "U.execute_train_npu("))
    result = CliRunner().invoke(main, ["explain", str(npu)])
    assert result.exit_code == 2
    assert "run_npu.py:14" in result.stderr and "launches through execute_train_npu" in result.stderr


SELF_RUN = """import subprocess

from miles.utils.external_utils.model_args_utils import shell_safe_model_args

cmd = "ray job submit -- python3 train.py --rollout-batch-size 8 --n-samples-per-prompt 4 "
cmd += "--global-batch-size 32 --num-rollout 9"
subprocess.run(["bash", "-c", cmd], shell=False)
"""


def test_a_script_running_its_own_command_is_read_from_the_words_after_train_py(tmp_path: Path) -> None:
    # no execute_train: the command subprocess.run is given; 8 prompts × 4 = 32 samples, gbs 32 → 1 update
    script = tmp_path / "run_minimal.py"
    script.write_text(SELF_RUN)
    plan = translator.explain(str(script)).plan
    assert (plan["prompts_per_step"], plan["samples_per_step"], plan["optimizer_steps_per_step"]) == (8, 32, 1)
    # a command that does not run train.py is no launch: refused, saying what rlconf reads
    script.write_text(SELF_RUN.replace("python3 train.py", "python3 tools/convert.py"))
    result = CliRunner().invoke(main, ["explain", str(script), "--from", "miles@0.1.0"])
    assert result.exit_code == 2 and "runs no command it builds with python3 train.py" in result.stderr


# ---------------------------------------------------------------- Miles' own drivers (oracle checkout)

MILES_SRC = os.environ.get("RLCONF_MILES_SRC")
needs_src = pytest.mark.skipif(not MILES_SRC, reason="RLCONF_MILES_SRC names no Miles checkout")

PLAN_NAMES = (
    "prompts_per_step",
    "samples_per_prompt",
    "samples_per_optimizer_step",
    "data_parallel_size",
    "total_steps",
)
# Worked out by hand from Miles v0.1.0 (file:line), with the defaults (`python <driver>` with no options):
# (driver, (prompts, samples per prompt, samples per optimizer step, DP, total steps), training backend)
MILES_DRIVERS = [
    # Megatron dense. mode "normal" (l.16); model Qwen3-4B → TP 2, PP 1, CP 4 (l.47-49); actor GPUs per node =
    # TP × PP × CP = 8 (l.93-96), num_nodes 1; --rollout-batch-size 32, -n 8, --global-batch-size 256,
    # --num-rollout 3000 (l.129-134, not debug); DP = 8 / 8 = 1.
    ("scripts/run_qwen3_4b.py", (32, 8, 256, 1, 3000), "megatron"),
    # FSDP. num_gpus_per_node 4, num_rollout 100 (l.23-24); rbs 32, n 8, gbs 256 (l.52-56); --train-backend fsdp
    # (l.104); --actor-num-nodes 1 × --actor-num-gpus-per-node 4 (l.114-115) → DP 4.
    ("scripts/run_qwen3_0_6b_fsdp.py", (32, 8, 256, 4, 100), "fsdp"),
    # MoE with EP. hardware H100 (l.20) → 8 GPUs (l.40); colocated: --actor-num-gpus-per-node 8 (l.214); match
    # (H100, 1) → TP 4, PP 1, CP 1, EP 8 (l.294-300); rbs 32, n 8, gbs 256, num-rollout 3000 (l.148-153); DP 8/4 = 2.
    ("scripts/run_qwen3_30b_a3b.py", (32, 8, 256, 2, 3000), "megatron"),
    # LoRA. num_gpus_per_node 8 (l.82); num_rollout 10, rbs 8, n 8, gbs 64 (l.95-99); _get_parallel_config: TP 2,
    # PP 1, CP 1, EP 8, micro 1 (l.121-132); actor 1 × 8 (l.205); DP = 8 / 2 = 4.
    # A typer group (a callback, l.243): `python run_qwen3_5_35b_a3b_lora.py train` (--env 1=train).
    ("scripts/run_qwen3_5_35b_a3b_lora.py", (8, 8, 64, 4, 10), "megatron"),
    # Multi-node. actor_num_nodes 8, num_gpus_per_node 8 (l.51-52) → 64 actor GPUs (l.205-206); TP 8, PP 4, CP 2
    # (l.139-142) → DP 1; rbs 128, n 8 (l.119-120), --num-steps-per-rollout 4 (l.125) → gbs 1024 // 4 = 256;
    # num_rollout 3000 (l.56).
    ("scripts/run_glm45_355b_a32b_8node.py", (128, 8, 256, 1, 3000), "megatron"),
    # examples/. PPO: num_gpus_per_node 4 (l.24); rbs 8, n 8, gbs 32, num-rollout 300 (l.66-71); TP 1, PP 2, CP 2
    # (l.76-78); actor 1 × 4 (l.126-127) → DP 4 / 4 = 1.
    ("examples/ppo/run_qwen3_4b_ppo.py", (8, 8, 32, 1, 300), "megatron"),
    # No execute_train: the module-level command goes to subprocess.run (l.144). rbs 32, n 8, gbs 256, num-rollout
    # 3000 (l.35-41); TP 2, PP 1, CP 1 (l.54-57); actor 1 × 8 (l.94-95), Megatron by default → DP 8 / 2 = 4.
    ("examples/experimental/formal_math/single_round/run_minimal.py", (32, 8, 256, 4, 3000), "megatron"),
]


TYPER_GROUPS = {"scripts/run_qwen3_5_35b_a3b_lora.py"}  # run with a command: `python FILE train`


@needs_src
@pytest.mark.parametrize("driver,expected,backend", MILES_DRIVERS, ids=[d[0] for d in MILES_DRIVERS])
def test_miles_drivers_read_to_the_plans_worked_out_by_hand(
    driver: str, expected: tuple[int, ...], backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(str(MILES_SRC))
    command = {"1": "train"} if driver in TYPER_GROUPS else {}
    explanation = translator.load(driver, env=command)
    assert explanation.framework == "miles"
    assert tuple(explanation.plan[name] for name in PLAN_NAMES) == expected
    assert explanation.spec.get("topology.training_backend") == backend


@needs_src
def test_every_miles_driver_is_read_or_refused_with_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(str(MILES_SRC))
    drivers = sorted(str(p) for top in ("scripts", "examples") for p in Path(".").glob(f"{top}/**/run*.py"))
    assert drivers
    codes = {d: CliRunner().invoke(main, ["explain", d]).exit_code for d in drivers}
    assert {d: c for d, c in codes.items() if c not in (0, 2)} == {}  # 3 would be a crash
