"""Open-Instruct forks (translator/frameworks/open_instruct/forks.py): the project's own copy of the launched program
is compared with upstream's plan-forming statements per snapshot band (docs/launch-scripts.md "Forks of
Open-Instruct"). The four shapes with a plan are fixtures (fixtures/open-instruct/fork_*.expect.yaml); here: the
signatures themselves, where a copy is looked for, a renamed program, the second reading a band mismatch asks for,
and (with ``$RLCONF_OPEN_INSTRUCT_SRC``) upstream's own files at every snapshot."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

import translator
from translator.frameworks.open_instruct.forks import DECIDES, bands, digest, statements
from translator.frameworks.open_instruct.tables import PROGRAMS, VERSIONS

FORKS = Path(__file__).resolve().parent.parent / "fixtures" / "open-instruct" / "forks"
SCRIPT = "python open_instruct/{program} --num_unique_prompts_rollout 32 --num_samples_per_prompt_rollout 8 " + (
    "--num_mini_batches 2 --num_learners_per_node 4 --vllm_num_engines 4 --total_episodes 256000 "
    "--model_name_or_path m\n"
)


def _signatures(code: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(s.signature, s.kinds) for s in statements(ast.parse(textwrap.dedent(code)))]


def test_a_statement_is_cut_to_its_shape_and_kinds() -> None:
    code = """
        def main(args):
            args.num_training_steps = args.total_episodes // (
                args.num_unique_prompts_rollout * args.num_samples_per_prompt_rollout
            )
            config = SamplingParams(temperature=args.temperature, n=args.num_samples_per_prompt_rollout)
            for epoch in range(self.args.num_epochs):
                pass
    """
    # dotted names to their last part; the step count reads the run length (steps), U (size) and S (group); n= is
    # the group size; the epoch loop's head alone (its body holds nothing)
    assert _signatures(code) == [
        (
            "num_training_steps = total_episodes // (num_unique_prompts_rollout * num_samples_per_prompt_rollout)",
            ("steps", "size", "group"),
        ),
        ("config = SamplingParams(temperature=temperature, n=num_samples_per_prompt_rollout)", ("group",)),
        ("for epoch in range(num_epochs)", ("epochs",)),
    ]


def test_checks_logs_metrics_and_evaluation_form_nothing() -> None:
    code = """
        def main(args):
            if args.num_mini_batches > 8:
                raise ValueError(f"too many: {args.num_mini_batches}")
            logger.info(f"{args.num_unique_prompts_rollout} prompts")
            metrics = {"episode": args.num_samples_per_prompt_rollout}
            eval_freq = max(1, args.num_training_steps // 10)
            bundles = [{"GPU": n, "CPU": n * 7} for n in args.actor_num_gpus_per_node]  # placement: CPUs per GPU

        def evaluate(args):
            queries = [q for q in queries for _ in range(args.num_samples_per_prompt_rollout)]
    """
    assert _signatures(code) == []


def test_a_string_or_a_receiver_does_not_change_the_signature() -> None:
    # another DeepSpeed key's name and a renamed config object: the same statement. Kinds: the assignment sets a
    # key named *batch_size* (translator/sources/code.py: a size), and it reads per_device_train_batch_size (update)
    one = _signatures("ds_config['train_micro_batch_size_per_gpu'] = args.per_device_train_batch_size")
    two = _signatures("ds_config['train_batch_size'] = self.cfg.per_device_train_batch_size")
    assert one == two == [("ds_config['…'] = per_device_train_batch_size", ("size", "update"))]


def test_a_lazily_imported_helper_and_an_explicit_base_init_are_upstreams_calls() -> None:
    # a copy that imports at run time (so Ray can pickle its actor) calls get_train_ds_config through a local name,
    # and its base class's __init__ with self: the same statements as upstream's direct call and super().__init__
    lazy = """
        def load(self, args):
            local_utils = __import__("open_instruct.utils", fromlist=[""])
            local_get_train_ds_config = getattr(local_utils, "get_train_ds_config")
            ds_config = local_get_train_ds_config(stage=args.deepspeed_stage, bf16=True)
            ds_config["train_micro_batch_size_per_gpu"] = args.per_device_train_batch_size
            RayProcess.__init__(self, world_size, rank, local_rank, master_addr, master_port)
    """
    direct = """
        def load(self, args):
            ds_config = get_train_ds_config(stage=args.deepspeed_stage, bf16=True)
            ds_config["train_micro_batch_size_per_gpu"] = args.per_device_train_batch_size
            super().__init__(world_size, rank, local_rank, master_addr, master_port)
    """
    assert _signatures(lazy) == _signatures(direct) and _signatures(direct)
    # an alias of anything else (a plain attribute) keeps its own name
    call = "ds_config = {}(size=args.per_device_train_batch_size)\n"
    other = "def load(self, args):\n    get = self.helpers.get_train_ds_config\n    " + call.format("get")
    upstream = "def load(self, args):\n    " + call.format("get_train_ds_config")
    assert _signatures(other) and _signatures(upstream) and _signatures(other) != _signatures(upstream)


def test_every_kind_decides_plan_quantities() -> None:
    from translator.plan import PLAN_FIELDS

    for kind, names in DECIDES.items():
        assert names and set(names) <= set(PLAN_FIELDS), kind
    # num_mini_batches is a count: a statement about the group never decides the optimizer steps per step
    assert "optimizer_steps_per_step" not in DECIDES["group"]


def test_the_table_covers_each_program_from_its_first_version() -> None:
    # every version a program exists in has a band of its statements (grpo.py, added 2026-03-19, also in the
    # 2026.03.01 band, whose last days hold it)
    table = bands()
    for program, (_, first, last) in PROGRAMS.items():
        versions = {v for v in VERSIONS if v >= first and (last is None or v <= last)}
        assert {b.version for b in table if b.file == program} >= versions, program
    assert all(len(d) == 10 for b in table for d in b.digests)


def _project(root: Path, copy_from: Path | None, program: str = "grpo_fast.py") -> Path:
    """A project (a .git folder marks its top) with scripts/run.sh launching open_instruct/<program>."""
    (root / ".git").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "scripts" / "run.sh").write_text(SCRIPT.format(program=program))
    if copy_from is not None:
        (root / "open_instruct").mkdir()
        shutil.copy(copy_from, root / "open_instruct" / program)
    return root / "scripts" / "run.sh"


def test_a_copy_elsewhere_in_the_project_is_not_taken(tmp_path: Path) -> None:
    # the launch script sits in the project's top-level scripts/; another copy lies in vendor/other/open_instruct/:
    # not the folder the script runs from nor one above it, so no copy is compared and the plan is upstream's
    script = _project(tmp_path, None)
    (tmp_path / "vendor" / "other" / "open_instruct").mkdir(parents=True)
    shutil.copy(
        FORKS / "extra_axis" / "open_instruct" / "grpo_fast.py", tmp_path / "vendor/other/open_instruct/grpo_fast.py"
    )
    explanation = translator.explain(script, framework="open-instruct@2025.06.02")
    assert not {n.code for n in explanation.notes} & {"framework.fork-batch-code", "framework.fork-verified"}
    assert explanation.plan["samples_per_prompt"] == 8


def test_a_copy_above_the_scripts_folder_is_found(tmp_path: Path) -> None:
    # scripts/run.sh runs open_instruct/grpo_fast.py from the project's top (the folder above scripts/)
    script = _project(tmp_path, FORKS / "extra_axis" / "open_instruct" / "grpo_fast.py")
    explanation = translator.explain(script, framework="open-instruct@2025.06.02")
    assert "framework.fork-batch-code" in {n.code for n in explanation.notes}
    assert explanation.plan["samples_per_prompt"] is None
    assert explanation.plan["prompts_per_step"] == 32


def test_a_renamed_program_is_compared_with_grpo_fast(tmp_path: Path) -> None:
    # open_instruct/my_grpo.py is no Open-Instruct program: read as grpo_fast.py (framework.fork makes every quantity
    # assumed); its statements are all upstream's (the fixture's verified copy), so the plan is no longer assumed
    # for the fork, only for the data: from 2025.04.12 to active_sampling, zero-std groups are dropped without refill,
    # so the samples an optimizer step trains are at most U x S / num_mini_batches (assumed: no group dropped)
    script = _project(tmp_path, FORKS / "copy" / "open_instruct" / "grpo_fast.py", program="my_grpo.py")
    explanation = translator.explain(script, framework="open-instruct@2025.06.02")
    codes = {n.code for n in explanation.notes}
    assert {"framework.fork", "framework.fork-verified"} <= codes
    assumed = {n: c.why for n, c in explanation.certainty.items() if c.level == "assumed"}
    assert list(assumed) == ["samples_per_optimizer_step"]
    assert "if no group is dropped" in assumed["samples_per_optimizer_step"]


def test_a_copy_of_another_band_is_read_as_both() -> None:
    # fixtures/open-instruct/fork_gtrl_old: flags give 2025.10.20, the copy's mini-batch loop only 2025.01.22
    explanation = translator.explain(FORKS / "gtrl_old" / "scripts" / "grpo.sh")
    assert explanation.version == "2025.10.20"
    assert explanation.candidates == ("2025.01.22", "2025.10.20")
    band = next(n for n in explanation.notes if n.code == "framework.fork-band")
    assert "2025.01.22" in band.message and "grpo_vllm_thread_ray_gtrl.py:40" in band.message
    # read as 2025.01.22 the copy is that band's: verified, no second reading
    again = translator.explain(FORKS / "gtrl_old" / "scripts" / "grpo.sh", framework="open-instruct@2025.01.22")
    assert "framework.fork-verified" in {n.code for n in again.notes} and again.candidates is None


def test_digest_is_stable() -> None:
    # sha1("x") = 11f6ad8ec52a2984abaafd7c3b516503785c2072: its first ten hex digits
    assert digest("x") == "11f6ad8ec5"


# ------------------------------------------------------------------ upstream's own files (oracle)

SRC = os.environ.get("RLCONF_OPEN_INSTRUCT_SRC")


def _snapshot(version: str) -> str:
    """The snapshot commit of a version: the main line's last commit on or before that day (committer's date)."""
    assert SRC is not None
    rows = subprocess.run(
        ["git", "-C", SRC, "log", "--first-parent", "--format=%H %cI"], check=True, capture_output=True, text=True
    ).stdout.split("\n")
    return next(r.split()[0] for r in rows if r and r.split()[1][:10].replace("-", ".") <= version)


@pytest.mark.skipif(not SRC, reason="needs a clone of allenai/open-instruct ($RLCONF_OPEN_INSTRUCT_SRC)")
@pytest.mark.parametrize("version", ["2025.03.13", "2025.11.15", "2026.01.26", "2026.08.20"])
def test_upstream_unmodified_files_keep_the_plan_exactly(version: str, tmp_path: Path) -> None:
    # upstream's open_instruct/ folder at the snapshot, in a project beside the launch script: the plan, each
    # quantity's certainty and the notes are those of the same script with no copy, plus framework.fork-verified
    assert SRC is not None
    with_copy = _project(tmp_path / "with", None)
    archive = subprocess.run(
        ["git", "-C", SRC, "archive", _snapshot(version), "open_instruct"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp_path / "with")], input=archive, check=True)
    alone = _project(tmp_path / "alone", None)
    one = translator.explain(with_copy, framework=f"open-instruct@{version}")
    two = translator.explain(alone, framework=f"open-instruct@{version}")
    assert one.plan == two.plan
    assert one.certainty == two.certainty
    assert [n.code for n in one.notes if n.code != "framework.fork-verified"] == [n.code for n in two.notes]
    assert "framework.fork-verified" in {n.code for n in one.notes}


_PARSER_COPY = """
from dataclasses import dataclass

from open_instruct import data_loader as data_loader_lib
from open_instruct.model_utils import ModelConfig
from open_instruct.utils import ArgumentParserPlus


@dataclass
class Args:
    num_unique_prompts_rollout: int = 16
    num_samples_per_prompt_rollout: int = 4
    num_mini_batches: int = 1
    num_learners_per_node: list[int] | None = None
    vllm_num_engines: int = 1
    total_episodes: int = 100
    persona_threshold: float = 0.5  # the fork's own flag


if __name__ == "__main__":
    parser = ArgumentParserPlus((Args, ModelConfig, data_loader_lib.StreamingDataLoaderConfig))
"""


def _parser_project(root: Path, flags: str, base: str = "") -> Path:
    """A fork whose grpo_fast.py hands its parser Args (its own file), ModelConfig (imported by name) and
    data_loader.StreamingDataLoaderConfig (through the module): every field is the project's unless ``base`` names
    a class from outside it."""
    script = _project(root, None)
    package = root / "open_instruct"
    package.mkdir()
    (package / "grpo_fast.py").write_text(_PARSER_COPY)
    (package / "model_utils.py").write_text(
        f"from dataclasses import dataclass\n{base}\n\n@dataclass\nclass ModelConfig{'(Base)' if base else ''}:\n"
        "    model_name_or_path: str | None = None\n"
    )
    (package / "data_loader.py").write_text(
        "from dataclasses import dataclass\n\n@dataclass\n"
        "class StreamingDataLoaderConfig:\n    pack_length: int = 512\n"
    )
    script.write_text(SCRIPT.format(program="grpo_fast.py").rstrip("\n") + f" {flags}\n")
    return script


def test_a_flag_the_copy_defines_is_its_own(tmp_path: Path) -> None:
    # --persona_threshold is a field of the copy's Args: its parser takes it, so no unknown-flag warning
    script = _parser_project(tmp_path, "--persona_threshold 0.7")
    explanation = translator.explain(script, framework="open-instruct@2025.06.02")
    assert not [n for n in explanation.notes if n.code.startswith("keys.unknown")]


def test_a_flag_no_field_of_the_copy_takes_stops_the_launch(tmp_path: Path) -> None:
    # --local_rollout_batch_size (an older program's flag) is a field of none of Args, ModelConfig and
    # StreamingDataLoaderConfig: HfArgumentParser's parse_args_into_dataclasses raises on leftover arguments
    script = _parser_project(tmp_path, "--local_rollout_batch_size 16")
    with pytest.raises(translator.ConfigError) as error:
        translator.explain(script, framework="open-instruct@2025.06.02")
    assert error.value.line == 1
    assert "--local_rollout_batch_size is not a flag of the launched program" in str(error.value)


def test_a_copy_with_a_base_from_outside_the_project_only_warns(tmp_path: Path) -> None:
    # ModelConfig derives from an installed package's class, whose fields are not read: the copy's flags are not
    # all known, so an unknown flag stays a warning
    base = "from transformers import TrainingArguments as Base"
    script = _parser_project(tmp_path, "--local_rollout_batch_size 16", base)
    explanation = translator.explain(script, framework="open-instruct@2025.06.02")
    assert "keys.unknown" in {n.code for n in explanation.notes}
