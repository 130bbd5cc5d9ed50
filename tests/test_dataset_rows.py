"""The rows of a training file the project holds (translator/sources/rows.py) and the run length explain states from
them (api._steps_from_the_dataset; docs/plan.md, "The step picture")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import translator
from tests.conftest import write_project
from translator.sources.rows import counted_rows


def test_json_lines_count_their_non_blank_lines_and_json_its_top_level_list(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text('{"q": 1}\n\n{"q": 2}\n   \n{"q": 3}')  # no newline after the last row
    (tmp_path / "b.json").write_text(json.dumps([{"q": i} for i in range(5)]))
    (tmp_path / "c.json").write_text(json.dumps({"data": [1, 2]}))  # rows under a key: not a list of rows
    (tmp_path / "d.csv").write_text("q\n1\n2\n")
    assert counted_rows(str(tmp_path / "a.jsonl")) == 3
    assert counted_rows(str(tmp_path / "b.json")) == 5
    assert counted_rows(str(tmp_path / "c.json")) is None
    assert counted_rows(str(tmp_path / "d.csv")) is None  # quoted newlines make lines no count of rows
    assert counted_rows(str(tmp_path / "missing.jsonl")) is None


@pytest.mark.parametrize("rows", [0, 1, 7, 4099])
def test_a_parquet_files_rows_are_read_from_its_footer_as_pyarrow_reads_them(tmp_path: Path, rows: int) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    # nested columns (a list, a struct) and several row groups: the footer's schema and row-group lists are skipped
    table = pa.table(
        {
            "prompt": [f"q{i}" for i in range(rows)],
            "reward_model": [{"ground_truth": str(i), "style": "rule"} for i in range(rows)],
            "images": [[1, 2, 3]] * rows,
        }
    )
    path = tmp_path / "train.parquet"
    pq.write_table(table, path, row_group_size=1000)
    assert counted_rows(str(path)) == pq.ParquetFile(path).metadata.num_rows == rows


def test_a_parquet_file_cut_short_or_a_git_lfs_pointer_is_not_counted(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "train.parquet"
    pq.write_table(pa.table({"prompt": ["a", "b"]}), path)
    data = path.read_bytes()
    (tmp_path / "cut.parquet").write_bytes(data[:-20] + data[-8:])  # the footer's length points past its start
    (tmp_path / "lfs.parquet").write_text("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 9\n")
    assert counted_rows(str(tmp_path / "cut.parquet")) is None
    assert counted_rows(str(tmp_path / "lfs.parquet")) is None


def _verl_project(tmp_path: Path, rows: int, extra: str = "") -> Path:
    """A verl launch (64 prompts × 4 per step, 3 epochs) naming data/train.jsonl, which holds ``rows`` prompts."""
    launch = (
        "python3 -m verl.trainer.main_ppo data.train_files=data/train.jsonl data.train_batch_size=64 "
        "actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.ppo_mini_batch_size=16 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 "
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 "
        "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 actor_rollout_ref.rollout.name=vllm "
        f"trainer.n_gpus_per_node=8 trainer.nnodes=1 trainer.total_epochs=3 {extra}\n"
    )
    rows_text = "".join(json.dumps({"prompt": f"q{i}"}) + "\n" for i in range(rows))
    return write_project(tmp_path, {"run.sh": launch, "data/train.jsonl": rows_text}) / "run.sh"


@pytest.mark.parametrize(
    ("rows", "extra", "steps"),
    [
        # verl's loader: batches of 64 prompts, the last partial one dropped; 3 epochs over it
        (1000, "", 15 * 3),  # floor(1000 / 64) = 15 per pass
        (640, "", 10 * 3),  # exactly 10 per pass
        (1000, "trainer.total_training_steps=20", 20),  # the step limit comes first (45 by the passes)
        (1000, "trainer.total_training_steps=100", 45),  # the passes end first
        (1000, "data.train_max_samples=200", 3 * 3),  # 200 prompts read: floor(200 / 64) = 3 per pass
    ],
)
def test_the_run_length_is_read_from_the_rows_of_the_training_file_the_project_holds(
    tmp_path: Path, rows: int, extra: str, steps: int
) -> None:
    explanation = translator.explain(str(_verl_project(tmp_path, rows, extra)), "verl@0.9.1")
    assert explanation.spec.plan.total_steps == steps
    assert explanation.certainty["total_steps"].level == "derived"
    assert any(n.code == "data.rows-counted" and "data/train.jsonl" in n.message for n in explanation.notes)


def test_rows_that_may_be_dropped_before_the_loader_leave_the_run_length_unknown(tmp_path: Path) -> None:
    # overlong prompts are dropped by token count (the tokenizer decides): 1000 rows are not 1000 prompts
    script = _verl_project(tmp_path, 1000, "data.filter_overlong_prompts=True data.max_prompt_length=512")
    explanation = translator.explain(str(script), "verl@0.9.1")
    assert explanation.spec.plan.total_steps is None
    assert not any(n.code == "data.rows-counted" for n in explanation.notes)


def test_the_dataset_size_given_states_the_run_length_too(tmp_path: Path) -> None:
    # no file in the project: --dataset-size 640 prompts → 10 steps per pass × 3 epochs = 30 steps
    script = _verl_project(tmp_path, 0, "data.train_files=/data/elsewhere.parquet")
    assert translator.explain(str(script), "verl@0.9.1").spec.plan.total_steps is None
    explanation = translator.explain(str(script), "verl@0.9.1", dataset_size=640)
    assert explanation.spec.plan.total_steps == 30
    assert explanation.to_dict()["run"]["steps"] == 30
