"""slime (translator/frameworks/slime, docs/frameworks/slime.md): its checks with slime's messages per release, the
written launch.sh, and (with RLCONF_SLIME_SRC naming a slime checkout) slime's own start-up code run on what rlconf
writes."""

from __future__ import annotations

import ast
import logging
import os
import shlex
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest

import translator
from tests.conftest import CASES, FIXTURES, case_id, expect_finding, findings_of, read_back, translatable
from translator.api import check
from translator.errors import ConfigError
from translator.frameworks.slime.tables import DEFAULTS
from translator.sources.files import Source

SLIME = FIXTURES / "slime"


def script(*flags: str, entry: str = "train.py") -> Source:
    text = "ray job submit --address=http://127.0.0.1:8265 -- python3 " + entry + " " + " ".join(flags) + "\n"
    return Source(text, "launch.sh", None)


BASE = [
    "--actor-num-nodes",
    "1",
    "--actor-num-gpus-per-node",
    "8",
    "--colocate",
    "--num-rollout",
    "10",
    "--rollout-batch-size",
    "32",
    "--n-samples-per-prompt",
    "8",
]


def test_gbs_and_steps_that_disagree_stop_with_slimes_message() -> None:
    # 32 × 8 = 256 samples // 2 steps = 128 ≠ 64 (slime/utils/arguments.py:1907-1915@v0.3.1)
    report = check(SLIME / "gbs_steps_conflict.sh", framework="slime@0.3.1")
    finding = expect_finding(
        report,
        "slime.gbs-identity",
        "error",
        "global_batch_size 64 is not equal to rollout_batch_size 32 * n_samples_per_prompt 8 "
        "// num_steps_per_rollout 2",
    )
    # 256 // 4 = 64 keeps the explicit batch
    assert finding.suggestions[0].changes == {"num-steps-per-rollout": 4}


def test_no_batch_key_stops_up_to_0_2_1_and_takes_megatrons_default_after() -> None:
    # ≤ 0.2.1: rbs × n % None raises before Megatron could fill gbs in (slime/utils/arguments.py:1518@v0.2.1)
    old = check(SLIME / "no_gbs_v021.sh", framework="slime@0.2.1")
    expect_finding(old, "slime.gbs-none", "error", "unsupported operand type(s) for %: 'int' and 'NoneType'")
    # 0.2.2 on: the same script runs with gbs = micro 2 × DP 4 = 8, a warning only
    new = check(SLIME / "no_gbs_v021.sh", framework="slime@0.2.2")
    assert not new.errors
    assert len(findings_of(new, "slime.megatron-default-gbs")) == 1
    assert translator.explain(SLIME / "no_gbs_v021.sh", framework="slime@0.2.2").plan["samples_per_optimizer_step"] == 8


def test_rollout_not_a_multiple_of_gbs_is_refused_only_up_to_0_2_1() -> None:
    # 32 × 8 = 256 samples, gbs 96: 256 % 96 = 64 (the assertion of ≤ 0.2.1); later releases run 256 // 96 = 2
    # optimizer steps and leave 64 samples untrained (a warning)
    flags = (*BASE, "--global-batch-size", "96")
    old = check(script(*flags), framework="slime@0.2.1")
    expect_finding(
        old,
        "slime.rollout-multiple-of-gbs",
        "error",
        "rollout_batch_size 32 * n_samples_per_prompt 8 is not a multiple of global_batch_size 96",
    )
    new = check(script(*flags), framework="slime@0.3.1")
    assert [f.rule for f in new.errors] == []
    assert len(findings_of(new, "slime.remainder-dropped")) == 1
    assert translator.explain(script(*flags), framework="slime@0.3.1").plan["optimizer_steps_per_step"] == 2


@pytest.mark.parametrize(
    "flags,rule,message",
    [
        (
            ["--global-batch-size", "256", "--over-sampling-batch-size", "16"],
            "slime.over-sampling",
            "over_sampling_batch_size 16 should be greater than or equal to rollout_batch_size 32",
        ),
        (
            ["--global-batch-size", "256", "--use-dynamic-batch-size"],
            "slime.dynamic-needs-max-tokens",
            "max_tokens_per_gpu must be set when use_dynamic_batch_size is set",
        ),
        (
            # gbs 100 over micro 1 × DP 8: 100 % 8 = 4 (Megatron's ConstantNumMicroBatches)
            ["--global-batch-size", "100"],
            "slime.micro-batch-calculator",
            "global batch size (100) is not divisible by micro batch size (1) times data parallel size (8)",
        ),
        (
            ["--global-batch-size", "256", "--kl-coef", "0.1", "--use-kl-loss", "--kl-loss-coef", "0.01"],
            "slime.one-kl",
            "Only one of kl_coef and kl_loss_coef can be set",
        ),
        (
            ["--global-batch-size", "256", "--save-interval", "5"],
            "slime.save-needs-dir",
            "'--save' is required when save_interval is set.",
        ),
        (
            ["--global-batch-size", "256", "--advantage-estimator", "reinforce_plus_plus"],
            "slime.reinforce-pp-normalization",
            "The 'reinforce_plus_plus' and 'reinforce_plus_plus_baseline' advantage estimators require advantage "
            "normalization. Please add `--normalize-advantages` to your command.",
        ),
    ],
)
def test_start_up_checks_carry_slimes_messages(flags: list[str], rule: str, message: str) -> None:
    report = check(script(*BASE, *flags), framework="slime@0.3.1")
    expect_finding(report, rule, "error", message)


def test_eval_datasets_may_come_from_an_eval_config() -> None:
    # _resolve_eval_datasets reads --eval-config or --eval-prompt-data (slime/utils/arguments.py:1671-1715@v0.3.1)
    flags = [*BASE, "--global-batch-size", "256", "--eval-interval", "5"]
    assert findings_of(check(script(*flags), framework="slime@0.3.1"), "slime.eval-needs-data")
    fixed = check(script(*flags, "--eval-config", "eval.yaml"), framework="slime@0.3.1")
    assert not findings_of(fixed, "slime.eval-needs-data")


def test_run_length_and_async_colocation() -> None:
    no_length = [f for f in BASE if f not in ("--num-rollout", "10")]
    report = check(script(*no_length, "--global-batch-size", "256"), framework="slime")
    expect_finding(
        report,
        "slime.run-length",
        "error",
        "num_epoch is not set, but num_rollout is not set, please set --num-rollout or --num-epoch",
    )
    report = check(script(*BASE, "--global-batch-size", "256", entry="train_async.py"), framework="slime")
    expect_finding(report, "slime.async-colocate", "error", "Colocation is not supported for async training.")


def test_the_0_3_1_checks_do_not_apply_to_older_releases() -> None:
    report = check(script(*BASE, "--global-batch-size", "256", "--save-interval", "5"), framework="slime@0.2.4")
    assert not findings_of(report, "slime.save-needs-dir")


def test_written_launch_states_both_batch_flags_quoted() -> None:
    # megatron_default_gbs: 16 × 4 = 64 samples, Megatron's gbs 8 → written explicitly: --global-batch-size 8 and
    # --num-steps-per-rollout 64 // 8 = 8; read back, the plan is the same
    source = translator.load(SLIME / "megatron_default_gbs.sh", framework="slime@0.3.1")
    written = translator.translate(source, to="slime@0.3.1")
    text = written.files["launch.sh"]
    words = shlex.split(text.replace("\\\n", " "), comments=True)
    assert words[words.index("--global-batch-size") + 1] == "8"
    assert words[words.index("--num-steps-per-rollout") + 1] == "8"
    assert written.plan == source.plan


def test_a_value_with_shell_characters_is_one_quoted_word() -> None:
    source = translator.load(
        script(*BASE, "--global-batch-size", "256", "--hf-checkpoint", "'/models/a b;$(rm -rf x)'"), framework="slime"
    )
    text = translator.translate(source, to="slime").files["launch.sh"]
    words = shlex.split(text.replace("\\\n", " "), comments=True)
    assert words[words.index("--hf-checkpoint") + 1] == "/models/a b;$(rm -rf x)"


def test_verl_mini_batch_that_does_not_split_the_rollout_is_written_as_equal_batches() -> None:
    # verl: 64 prompts × 4 = 256 samples, mini-batch 24 prompts = 96 samples → ceil(256 / 96) = 3 updates (the last
    # short). slime cuts equal batches gbs = 256 // steps that DP 8 divides: 256 // 3 = 85 (no), 256 // 2 = 128 and
    # 256 // 4 = 64 split exactly; 128 is nearer 96 (|128 - 96| = 32 = |64 - 96|, the larger wins the tie) → 2 steps.
    verl = Source(
        "python3 -m verl.trainer.main_ppo data.train_batch_size=64 actor_rollout_ref.rollout.n=4 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=24 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 "
        "trainer.n_gpus_per_node=8 trainer.nnodes=1 trainer.total_training_steps=10\n",
        "run.sh",
        None,
    )
    written = translator.translate(verl, to="slime@0.3.1", framework="verl@0.7.1")
    assert written.plan["samples_per_optimizer_step"] == 128 and written.plan["optimizer_steps_per_step"] == 2
    assert any(n.code == "batch.not-expressible" for n in written.notes)
    assert not check(read_back(written), framework="slime@0.3.1").errors


def test_async_source_writes_train_async() -> None:
    source = translator.load(SLIME / "async_dynamic_two_nodes.sh", framework="slime@0.3.1")
    text = translator.translate(source, to="slime").files["launch.sh"]
    assert "python3 train_async.py" in text and "--colocate" not in text


# ---------------------------------------------------------------- slime's own start-up code (oracle)

# The flags whose statements in slime_validate_args the oracle runs: the batch derivation and its checks
# (slime.md §5 rows 1-4). Statements touching any other attribute are left out (they need SGLang or Megatron).
ORACLE_NAMES = {
    "num_steps_per_rollout",
    "global_batch_size",
    "rollout_batch_size",
    "n_samples_per_prompt",
    "over_sampling_batch_size",
    "num_epoch",
    "num_rollout",
    "rollout_global_dataset",
    "use_dynamic_batch_size",
    "max_tokens_per_gpu",
    "log_probs_max_tokens_per_gpu",
    "grpo_std_normalization",
}


def validate_statements(path: Path, function_name: str, names: set[str]) -> list[ast.stmt]:
    """The top-level statements of a validation function (in a fork too) that touch only ``args.<names>``."""
    tree = ast.parse(path.read_text())
    function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function_name)
    chosen = []
    for statement in function.body:
        used = {
            n.attr
            for n in ast.walk(statement)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "args"
        }
        if used and used <= names:
            chosen.append(statement)
    return chosen


def _slime_statements(src: Path) -> list[ast.stmt]:
    return validate_statements(src / "slime" / "utils" / "arguments.py", "slime_validate_args", ORACLE_NAMES)


def _namespace(flags: dict[str, Any]) -> Namespace:
    def value(key: str, raw: Any) -> Any:
        if isinstance(raw, str):
            for convert in (int, float):
                try:
                    return convert(raw)
                except ValueError:
                    pass
        return raw

    merged = {**DEFAULTS, **flags}
    names = {k.replace("-", "_"): value(k, v) for k, v in merged.items()}
    names["grpo_std_normalization"] = not names.pop("disable_grpo_std_normalization", False)
    names["rollout_global_dataset"] = True  # slime's default (--disable-rollout-global-dataset turns it off)
    return Namespace(**names)


def run_slime(src: Path, flags: dict[str, Any]) -> None:
    """slime_validate_args' batch statements, as slime wrote them, on a namespace of ``flags``."""
    module = ast.Module(body=_slime_statements(src), type_ignores=[])
    code = compile(ast.fix_missing_locations(module), "slime_validate_args", "exec")
    exec(code, {"args": _namespace(flags), "logger": logging.getLogger("slime-oracle")})


def written_flags(text: str) -> dict[str, Any]:
    explanation = translator.load(Source(text, "launch.sh", None), framework="slime")
    assert explanation.native is not None
    return dict(explanation.native.values)


SLIME_SRC = os.environ.get("RLCONF_SLIME_SRC")
needs_src = pytest.mark.skipif(not SLIME_SRC, reason="RLCONF_SLIME_SRC names no slime checkout")


@needs_src
def test_oracle_runs_slimes_own_statements_and_agrees_on_the_conflict() -> None:
    src = Path(SLIME_SRC or "")
    assert len(_slime_statements(src)) >= 4  # gbs/steps, n 1, over-sampling default and check, run length
    flags = written_flags((SLIME / "gbs_steps_conflict.sh").read_text())
    with pytest.raises(AssertionError) as raised:
        run_slime(src, flags)
    expected = (
        "global_batch_size 64 is not equal to rollout_batch_size 32 * n_samples_per_prompt 8 // num_steps_per_rollout 2"
    )
    assert str(raised.value) == expected


@needs_src
@pytest.mark.parametrize("case", [c for c in CASES if translatable(c)], ids=case_id)
def test_oracle_accepts_what_rlconf_writes(case: Any) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    written = translator.translate(source, to="slime")
    if source.plan["prompts_per_step"] is None:
        # Nothing to write for --rollout-batch-size (argparse requires it): the note says the user must add it.
        assert any("--rollout-batch-size" in n.message for n in written.notes if n.code == "batch.not-expressible")
        return
    run_slime(Path(SLIME_SRC or ""), written_flags(written.files["launch.sh"]))


def test_a_flag_takes_one_value_and_an_unset_array_after_it_is_not_its_value() -> None:
    # argparse gives --eps-clip (no nargs) one value; ${MODEL_ARGS} (an array from a file rlconf cannot follow) is
    # another word of the command, noted, not a second value of --eps-clip.
    script = (
        "python3 train.py --actor-num-nodes 1 --actor-num-gpus-per-node 8 --rollout-batch-size 32 "
        "--n-samples-per-prompt 8 --global-batch-size 256 --eps-clip 0.2 ${MODEL_ARGS[@]}\n"
    )
    explanation = translator.load(Source(script, "run.sh"), framework="slime@0.3.1")
    assert explanation.spec.algorithm.clip_ratio_low == 0.2
    assert "slime.unexpanded-array" in {n.code for n in explanation.notes}


@pytest.mark.parametrize(
    ("sourced", "read"),
    [
        # slime's own model file (a container's checkout, not in the project): architecture flags only
        ("/slime/scripts/models/qwen3-4B.sh", True),
        # any other file that is not in the project may set any flag: the open quantities stay unknown
        ("/slime/scripts/run-qwen3-4B.sh", False),
        # a model file the project itself should hold but lacks: not slime's installed one
        ("scripts/models/qwen3-4B.sh", False),
        ("/cluster/env.sh", False),
    ],
)
def test_an_unread_model_file_of_slimes_own_holds_no_plan_flag(sourced: str, read: bool) -> None:
    text = (
        f"source {sourced}\npython3 train.py --actor-num-nodes 1 --actor-num-gpus-per-node 8 --rollout-batch-size "
        "32 --n-samples-per-prompt 8 --global-batch-size 128 ${MODEL_ARGS[@]}\n"
    )
    explanation = translator.load(Source(text, "run.sh"), framework="slime@0.3.1")
    # 32 × 8 = 256 samples per step, 128 per update: 2 updates per step, unless MODEL_ARGS may hold another flag
    assert explanation.plan["optimizer_steps_per_step"] == (2 if read else None)


def test_sglang_flags_take_the_words_after_them() -> None:
    # --sglang-* flags are SGLang's ServerArgs under a prefix (slime/backends/sglang_utils/arguments.py
    # add_sglang_arguments@v0.3.1); --sglang-cuda-graph-bs takes a list (nargs="+" in SGLang), so 1 2 4 8 are its
    # values, not stray words. A slime flag of one value followed by two words still has a stray word.
    explained = translator.load(
        script(*BASE, "--global-batch-size", "256", "--sglang-cuda-graph-bs", "1", "2", "4", "8"), framework="slime"
    )
    assert not [n for n in explained.notes if n.code == "keys.unrecognised-argument"]
    stray = translator.load(script(*BASE, "--global-batch-size", "256", "7"), framework="slime")
    assert [n.message for n in stray.notes if n.code == "keys.unrecognised-argument"] == [
        "launch.sh:1: '7' is not a --flag; train.py takes no positional arguments"
    ]


def _slime_project(root: Path) -> Path:
    """A project keeping its own copy of slime (written here, not in the repository: a bare train.py there would be
    what other scripts' `python3 train.py` finds): the copy's arguments add --expand-steps, its rollout sizes the
    optimizer batch from what was collected when that flag is on; two custom generate functions."""
    files = {
        "slime/__init__.py": "",
        "slime/utils/__init__.py": "",
        "slime/ray/__init__.py": "",
        "slime/utils/arguments.py": (
            "def add_rollout_arguments(parser):\n"
            '    parser.add_argument("--rollout-batch-size", type=int)\n'
            '    parser.add_argument("--expand-steps", "--expand_steps", dest="expand_steps", action="store_true")\n'
        ),
        "slime/ray/rollout.py": (
            "class RolloutManager:\n    def convert(self, data):\n"
            '        expand = getattr(self.args, "expand_steps", False)\n        if expand:\n'
            "            self.global_batch_size = len(data) // 2\n        return data\n"
        ),
        "train.py": (
            "from slime.ray.rollout import RolloutManager\nfrom slime.utils.arguments import add_rollout_arguments\n"
        ),
        "one_sample.py": (
            "async def _finish(sample):\n    return sample\n\n\n"
            "async def generate(args, sample, sampling_params):\n    if sample.prompt is None:\n"
            "        return [sample]\n    done = await _finish(sample)\n    return done\n"
        ),
        "annotated.py": (
            "from agent_loop import run_episode\n\n\n"
            "async def generate(args, sample, sampling_params) -> Sample:\n"
            "    return await run_episode(args, sample, sampling_params, max_turns=8)\n"
        ),
        "fan_out.py": (
            "async def generate(args, sample, sampling_params):\n    turns = [sample]\n"
            "    for _ in range(3):\n        turns.append(sample)\n    return turns\n"
        ),
    }
    (root / ".git").mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    launch = (
        "python3 train.py --rollout-batch-size 16 --n-samples-per-prompt 8 --global-batch-size 64 "
        "--actor-num-nodes 1 --actor-num-gpus-per-node 4 --tensor-model-parallel-size 1 --micro-batch-size 2"
    )
    (root / "expand.sh").write_text(f"{launch} --expand-steps\n")
    for name in ("one_sample", "annotated", "fan_out"):
        (root / f"{name}.sh").write_text(f"{launch} --custom-generate-function-path {name}.generate\n")
    return root


@pytest.mark.parametrize(
    ("body", "changed"),
    [
        ("    args.n_samples_per_prompt = args.k + 1\n    return base(args, rollout_id)\n", "rollout.py:5"),
        (
            "    out = base(args, rollout_id)\n    out.samples = [g[:1] for g in out.samples]\n    return out\n",
            "rollout.py:6",
        ),
        ("    return base(args, rollout_id)\n", None),
    ],
)
def test_a_rollout_function_of_the_project_that_regroups_leaves_the_group_unknown(
    tmp_path: Path, body: str, changed: str | None
) -> None:
    # --rollout-function-path plugins.opsd.generate_rollout (re-exported by the package, which imports its rollout
    # module): one that sets n_samples_per_prompt on the arguments or replaces the samples it returns decides the
    # group itself, so the samples per prompt and per step and the optimizer steps are unknown (--global-batch-size
    # 64 still fixes each optimizer step); one that only calls slime's keeps the plan: 16 × 8 = 128, 2 steps of 64.
    root = _slime_project(tmp_path)
    # slime's own rollout module in the project's copy sets flags in its own checks: the framework's code, not the
    # project's rollout function, so it decides nothing here
    (root / "slime" / "rollout").mkdir(parents=True, exist_ok=True)
    (root / "slime" / "rollout" / "sglang_rollout.py").write_text(
        "def generate_rollout(args, rollout_id):\n    args.global_batch_size = args.rollout_batch_size\n"
    )
    (root / "plugins" / "opsd").mkdir(parents=True)
    (root / "plugins" / "__init__.py").write_text("")
    (root / "plugins" / "opsd" / "__init__.py").write_text(
        "from . import rollout as _rollout\n\n\n"
        "def generate_rollout(args, rollout_id):\n    return _rollout.generate_rollout(args, rollout_id)\n"
    )
    (root / "plugins" / "opsd" / "rollout.py").write_text(
        "from slime.rollout.sglang_rollout import generate_rollout as base\n\n\n"
        "def generate_rollout(args, rollout_id):\n" + body
    )
    script = root / "opsd.sh"
    script.write_text(
        (root / "one_sample.sh")
        .read_text()
        .replace(
            "--custom-generate-function-path one_sample.generate",
            "--rollout-function-path plugins.opsd.generate_rollout",
        )
    )
    explanation = translator.explain(str(script), "slime@0.3.1")
    plan = explanation.spec.plan
    if changed is None:
        assert (plan.samples_per_prompt, plan.samples_per_step, plan.optimizer_steps_per_step) == (8, 128, 2)
        return
    assert plan.samples_per_prompt is None and plan.samples_per_step is None and plan.optimizer_steps_per_step is None
    assert (plan.prompts_per_step, plan.samples_per_optimizer_step) == (16, 64)
    note = next(n for n in explanation.notes if n.code == "slime.custom-generate")
    assert f"plugins/opsd/{changed}" in note.message


def test_a_custom_generate_function_that_returns_one_sample_keeps_the_group(tmp_path: Path) -> None:
    # one_sample.generate returns [sample], or what _finish returns: its `sample`: n 8 samples per prompt.
    # 16 × 8 = 128 samples, gbs 64 → 2 optimizer steps; DP = 4 GPUs ÷ TP 1; accumulation 64 ÷ (micro 2 × DP 4) = 8.
    plan = translator.explain(str(_slime_project(tmp_path) / "one_sample.sh"), "slime@0.3.1").spec.plan
    assert (plan.samples_per_prompt, plan.samples_per_step, plan.optimizer_steps_per_step) == (8, 128, 2)
    assert (plan.data_parallel_size, plan.grad_accum_steps) == (4, 8)


def test_a_custom_generate_function_annotated_to_return_a_sample_keeps_the_group(tmp_path: Path) -> None:
    # annotated.generate returns what an imported helper returns, and states `-> Sample`: one sample per call, so
    # the plan is one_sample's (16 × 8 = 128 samples, 2 optimizer steps of 64)
    plan = translator.explain(str(_slime_project(tmp_path) / "annotated.sh"), "slime@0.3.1").spec.plan
    assert (plan.samples_per_prompt, plan.samples_per_step, plan.optimizer_steps_per_step) == (8, 128, 2)


def test_a_custom_generate_function_that_may_return_several_samples_leaves_the_group_unknown(tmp_path: Path) -> None:
    # fan_out.generate returns a list it grows (one sample per turn, line 5): slime flattens it into the step, so
    # the samples per prompt and per step, and the optimizer steps, are unknown; --global-batch-size 64 still fixes
    # each optimizer step (64 samples, accumulation 64 ÷ (2 × 4) = 8).
    explanation = translator.explain(str(_slime_project(tmp_path) / "fan_out.sh"), "slime@0.3.1")
    plan = explanation.spec.plan
    assert plan.samples_per_prompt is None and plan.samples_per_step is None and plan.optimizer_steps_per_step is None
    assert (plan.prompts_per_step, plan.samples_per_optimizer_step, plan.grad_accum_steps) == (16, 64, 8)
    note = next(n for n in explanation.notes if n.code == "slime.custom-generate")
    assert "fan_out.py:5" in note.message


def test_a_flag_of_the_projects_own_copy_that_sizes_batches_leaves_them_unknown(tmp_path: Path) -> None:
    # --expand-steps is defined by the copy's slime/utils/arguments.py, by no slime release; the copy's rollout
    # reads it (getattr(self.args, "expand_steps", False)) and then sets global_batch_size from what was collected
    explanation = translator.explain(str(_slime_project(tmp_path) / "expand.sh"), "slime@0.3.1")
    assert explanation.spec.plan.samples_per_optimizer_step is None
    note = next(n for n in explanation.notes if n.code == "framework.fork-batch-key")
    assert "'expand_steps'" in note.message and "slime/ray/rollout.py:5" in note.message


def _job(pythonpath: str, module: str) -> str:
    """A ray job submission of the project's train.py with the job's PYTHONPATH and a custom generate module."""
    return (
        'ray job submit --address="http://127.0.0.1:8265" '
        f'--runtime-env-json=\'{{"env_vars": {{"PYTHONPATH": "{pythonpath}"}}}}\' -- '
        "python3 train.py --rollout-batch-size 16 --n-samples-per-prompt 8 --global-batch-size 64 "
        f"--actor-num-nodes 1 --actor-num-gpus-per-node 4 --custom-generate-function-path {module}.generate\n"
    )


def test_a_function_module_the_job_cannot_import_is_refused(tmp_path: Path) -> None:
    # slime imports --custom-generate-function-path's module in the job (load_function, slime/utils/misc.py:39
    # @v0.3.1); the job's sys.path is train.py's folder (the project root) and its PYTHONPATH. search/agent.py is in
    # the project, but neither the root nor /opt/Megatron-LM:tools holds agent.py: ModuleNotFoundError, exit 2.
    root = _slime_project(tmp_path)
    (root / "search").mkdir()
    (root / "search" / "agent.py").write_text("async def generate(args, sample, sampling_params):\n    return sample\n")
    (root / "tools").mkdir()
    (root / "job.sh").write_text(_job("/opt/Megatron-LM:tools", "agent"))
    with pytest.raises(ConfigError, match=r"module agent is search/agent\.py in the project.*ModuleNotFoundError"):
        translator.explain(str(root / "job.sh"), "slime@0.3.1")
    # the same module on the job's PYTHONPATH is read: 16 × 8 = 128 samples, 2 optimizer steps of 64
    (root / "reached.sh").write_text(_job("/opt/Megatron-LM:search", "agent"))
    plan = translator.explain(str(root / "reached.sh"), "slime@0.3.1").spec.plan
    assert (plan.samples_per_step, plan.optimizer_steps_per_step) == (128, 2)
    # a PYTHONPATH that extends the cluster's own ($PYTHONPATH, which Ray expands) may reach it: not refused, and
    # the function read is then none rlconf can place, so the samples per step are unknown, not n's 128
    (root / "open.sh").write_text(_job("$PYTHONPATH:tools", "agent"))
    assert translator.explain(str(root / "open.sh"), "slime@0.3.1").spec.plan.samples_per_step is None
