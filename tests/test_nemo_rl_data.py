"""The source's data in a written NeMo-RL recipe, per release, and read back.

What each release's GRPO entry builds from its data section (NVIDIA-NeMo/RL at the release tags):
- 0.3.1: examples/run_grpo_math.py:135-145@v0.3.1 builds OpenMathInstruct-2 or DeepScaler, else raises: no
  dataset of the user's own, so the data is noted as not written.
- 0.4.0, 0.5.0: setup_data (run_grpo_math.py:83-84@v0.4.0; run_grpo.py:88-89@v0.5.0) calls load_response_dataset,
  which for data.dataset_name ResponseDataset builds ResponseDataset(train_data_path, val_data_path, input_key,
  output_key, train_split, val_split) (nemo_rl/data/datasets/response_datasets/__init__.py:97-115@v0.4.0,
  109-127@v0.5.0). Without val_data_path the validation set is None (response_dataset.py:54-57@v0.4.0) and
  grpo.setup asserts one when grpo.val_period > 0 or val_at_start (grpo.py:271-274@v0.4.0, 277-280@v0.5.0), so a
  source with no validation set gets val_period 0. load_dataset_from_path reads .json/.jsonl as local files and
  hands any other path to load_dataset(path) (nemo_rl/data/datasets/utils.py:71-75@v0.4.0): a parquet file is not
  read.
- 0.6.0, 0.7.0: setup_response_data takes data.train as one mapping or a list, fills each entry from data.default
  and concatenates the training datasets into one unless use_multiple_dataloader (nemo_rl/data/utils.py:98-145
  @v0.6.0); data.validation likewise (:175-211). The base recipe's data.train is a mapping
  (grpo_math_1B.yaml:376-379@v0.7.0) and OmegaConf cannot merge a list into it, so a list needs the data section
  replaced whole: `_override_: true` (merge_with_override, nemo_rl/utils/config.py:30-44@v0.6.0).
- verl concatenates its train files into one dataset (RLHFDataset reads every file of data.train_files into one
  frame), so the concatenated list keeps its semantics; EasyR1 reads one training source.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

import translator
from translator.sources.files import Source

ROWS = [{"question": "What is 2+2?", "output": "4", "answer": "4", "reward_model": {"ground_truth": "4"}}]

VERL = """python3 -m verl.trainer.main_ppo \\
    data.train_files={train} {val} data.prompt_key=question \\
    data.train_batch_size=8 actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.ppo_mini_batch_size=4 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 actor_rollout_ref.model.path=m \\
    custom_reward_function.path=reward.py custom_reward_function.name=score \\
    trainer.n_gpus_per_node=2 trainer.nnodes=1 trainer.test_freq=5
"""

EASYR1 = """data:
  train_files: {train}
  {val}
  prompt_key: question
  answer_key: answer
  rollout_batch_size: 8
worker:
  actor:
    global_batch_size: 4
    micro_batch_size_per_device_for_update: 1
    micro_batch_size_per_device_for_experience: 2
    model:
      model_path: m
  rollout:
    n: 4
  reward:
    reward_function: ./reward.py:score
trainer:
  n_gpus_per_node: 2
  nnodes: 1
  val_freq: 5
"""


def files(where: Path, *names: str) -> list[str]:
    """JSON Lines files of ROWS (absolute paths: the launch runs from the NeMo-RL checkout root)."""
    paths = []
    for name in names:
        (where / name).write_text("".join(json.dumps(row) + "\n" for row in ROWS))
        paths.append(str(where / name))
    return paths


def verl(where: Path, train: list[str], val: str | None) -> Path:
    listed = train[0] if len(train) == 1 else "[" + ",".join(f"'{p}'" for p in train) + "]"
    path = where / "run.sh"
    path.write_text(VERL.format(train=f'"{listed}"', val=f"data.val_files={val}" if val else ""))
    return path


def easyr1(where: Path, train: str, val: str | None) -> Path:
    path = where / "config.yaml"
    path.write_text(EASYR1.format(train=train, val=f"val_files: {val}" if val else ""))
    return path


def written(translation: translator.Translation) -> dict[str, Any]:
    return yaml.safe_load(translation.files["config.yaml"])


def codes(translation: translator.Translation) -> set[str]:
    return {n.code for n in translation.notes}


@pytest.mark.parametrize("version", ["0.4.0", "0.5.0"])
def test_040_and_050_write_the_flat_response_dataset(tmp_path: Path, version: str) -> None:
    train, val = files(tmp_path, "train.jsonl", "val.jsonl")
    translation = translator.translate(verl(tmp_path, [train], val), to=f"nemo-rl@{version}")
    config = written(translation)
    # load_response_dataset's ResponseDataset branch reads these flat keys; verl names no answer column, so
    # output_key is left to ResponseDataset's default `output` (response_dataset.py:44-45@v0.4.0); local .jsonl
    # files need no split (load_dataset("json") gives one `train` split, taken when none is named: utils.py:77-81)
    assert config["data"] == {
        "dataset_name": "ResponseDataset",
        "train_data_path": train,
        "input_key": "question",
        "val_data_path": val,
    }
    assert config["grpo"]["val_period"] == 5  # trainer.test_freq 5: the validation set exists
    assert not translation.failed and "data.not-expressible" not in codes(translation)
    # read back: the same files and column
    d = translation.spec.data
    assert (d.train_sources, d.eval_sources, d.prompt_key) == ([train], [val], "question")
    # val_data_path is no key of the DataConfig TypedDict, but load_response_dataset passes it on
    # (get_extra_kwargs, response_datasets/__init__.py:102-111@v0.4.0): a known key of the written recipe
    again = translator.load(Source(translation.files["config.yaml"], "config.yaml"), framework=f"nemo-rl@{version}")
    assert not [n for n in again.notes if n.code.startswith("keys.unknown")]


@pytest.mark.parametrize("version", ["0.4.0", "0.5.0", "0.6.0", "0.7.0"])
def test_an_easyr1_source_keeps_its_answer_column(tmp_path: Path, version: str) -> None:
    [train] = files(tmp_path, "train.jsonl")
    translation = translator.translate(easyr1(tmp_path, train, train), to=f"nemo-rl@{version}")
    data = written(translation)["data"]
    # EasyR1's answer_key `answer` becomes output_key, its prompt_key input_key; validation on the same file
    if version in ("0.4.0", "0.5.0"):
        assert (data["train_data_path"], data["val_data_path"]) == (train, train)
        assert (data["input_key"], data["output_key"]) == ("question", "answer")
    else:
        assert data["train"] == {
            "dataset_name": "ResponseDataset",
            "data_path": train,
            "input_key": "question",
            "output_key": "answer",
            "split_validation_size": 0,  # the source validates on its own set: none cut from the training data
        }
        assert data["validation"]["data_path"] == train
    d = translation.spec.data
    assert (d.train_sources, d.eval_sources) == ([train], [train])
    assert (d.prompt_key, d.answer_key) == ("question", "answer")
    assert not translation.failed


@pytest.mark.parametrize("version", ["0.4.0", "0.5.0"])
def test_no_validation_set_turns_validation_off_in_040_and_050(tmp_path: Path, version: str) -> None:
    # EasyR1 without val_files: no val_data_path, so ResponseDataset has no validation set and grpo.setup would
    # assert one for the base's val_period 10; EasyR1 validates before training (val_before_train's default
    # true), which cannot be kept: noted.
    [train] = files(tmp_path, "train.jsonl")
    translation = translator.translate(easyr1(tmp_path, train, None), to=f"nemo-rl@{version}")
    config = written(translation)
    assert "val_data_path" not in config["data"] and config["data"]["train_data_path"] == train
    assert config["grpo"]["val_period"] == 0
    [note] = [n for n in translation.notes if n.code == "evaluation.not-expressible"]
    assert "data.val_data_path" in note.message
    assert translation.spec.data.eval_sources is None


@pytest.mark.parametrize("version", ["0.6.0", "0.7.0"])
def test_two_training_files_become_a_list_of_datasets(tmp_path: Path, version: str) -> None:
    first, second, val = files(tmp_path, "a.jsonl", "b.jsonl", "val.jsonl")
    translation = translator.translate(verl(tmp_path, [first, second], val), to=f"nemo-rl@{version}")
    data = written(translation)["data"]
    entry = {"dataset_name": "ResponseDataset", "input_key": "question"}  # output_key: the default `output`
    assert data["train"] == [{**entry, "data_path": first}, {**entry, "data_path": second}]
    assert data["validation"] == [{**entry, "data_path": val}]
    # the section replaces the base's: its other keys restated as grpo_math_1B.yaml:366-386@v0.7.0 has them, and
    # one concatenated dataset (use_multiple_dataloader false), as verl concatenates its train files
    assert data["_override_"] is True and data["use_multiple_dataloader"] is False
    assert data["max_input_seq_length"] == "${policy.max_total_sequence_length}"
    assert (data["shuffle"], data["num_workers"]) == (True, 1)
    assert data["default"] == {
        "prompt_file": "examples/prompts/cot.txt",
        "system_prompt_file": None,
        "processor": "math_hf_data_processor",
        "env_name": "math",
    }
    assert not translation.failed and "data.not-expressible" not in codes(translation)
    # the restated keys equal the base's: no difference noted on reading the files back
    assert not [n for n in translation.notes if "(a native key)" in n.message and n.message.startswith("data.")]
    d = translation.spec.data
    assert (d.train_sources, d.eval_sources, d.prompt_key) == ([first, second], [val], "question")


@pytest.mark.parametrize("version", ["0.4.0", "0.5.0"])
def test_two_training_files_are_not_written_before_060(tmp_path: Path, version: str) -> None:
    first, second, val = files(tmp_path, "a.jsonl", "b.jsonl", "val.jsonl")
    translation = translator.translate(verl(tmp_path, [first, second], val), to=f"nemo-rl@{version}")
    assert "data" not in written(translation)  # one train_data_path only: neither file is written
    [note] = [n for n in translation.notes if n.code == "data.not-expressible"]
    assert "one training dataset" in note.message and "0.6.0" in note.message
    assert "OpenMathInstruct-2" in note.message
    assert translation.spec.data.train_sources == ["OpenMathInstruct-2"]  # the base's dataset, read back


def test_031_has_no_dataset_of_the_users_own(tmp_path: Path) -> None:
    train, val = files(tmp_path, "train.jsonl", "val.jsonl")
    translation = translator.translate(verl(tmp_path, [train], val), to="nemo-rl@0.3.1")
    assert "data" not in written(translation)
    [note] = [n for n in translation.notes if n.code == "data.not-expressible"]
    assert "OpenMathInstruct-2 and DeepScaler" in note.message


def test_a_parquet_file_is_not_written_for_050(tmp_path: Path) -> None:
    # 0.5.0's load_dataset_from_path hands a .parquet path to load_dataset(path), which takes it for a Hub id or a
    # dataset directory (utils.py:71-81@v0.5.0); from 0.6.0 .parquet is a local file type (utils.py:79-93@v0.6.0)
    train = str(tmp_path / "train.parquet")
    path = verl(tmp_path, [train], None)
    translation = translator.translate(path, to="nemo-rl@0.5.0")
    assert "data" not in written(translation)
    [note] = [n for n in translation.notes if n.code == "data.not-expressible"]
    assert "convert" in note.message and "JSON Lines" in note.message
    assert written(translator.translate(path, to="nemo-rl@0.6.0"))["data"]["train"]["data_path"] == train


def test_a_050_recipe_with_a_hub_dataset_reads_its_splits() -> None:
    recipe = """defaults: examples/configs/grpo_math_1B.yaml
data:
  dataset_name: ResponseDataset
  train_data_path: org/math
  val_data_path: org/math-eval
  input_key: problem
  output_key: solution
  train_split: train
  val_split: test
"""
    spec = translator.load(Source(recipe, "recipe.yaml"), framework="nemo-rl@0.5.0").spec
    d = spec.data
    assert (d.train_sources, d.eval_sources) == (["org/math"], ["org/math-eval"])
    assert (d.prompt_key, d.answer_key, d.train_split, d.eval_split) == ("problem", "solution", "train", "test")


def test_a_070_list_of_datasets_fills_entries_from_data_default() -> None:
    # grpo_multiple_datasets.yaml's shape: the section replaced, entries without input_key take data.default's
    # (update_single_dataset_config, nemo_rl/data/datasets/utils.py:168-172@v0.7.0)
    recipe = """defaults: examples/configs/grpo_math_1B.yaml
data:
  _override_: true
  max_input_seq_length: 1024
  train:
    - dataset_name: ResponseDataset
      data_path: /d/a.jsonl
    - dataset_name: ResponseDataset
      data_path: /d/b.jsonl
  default:
    input_key: problem
    output_key: solution
"""
    spec = translator.load(Source(recipe, "recipe.yaml"), framework="nemo-rl@0.7.0").spec
    d = spec.data
    assert d.train_sources == ["/d/a.jsonl", "/d/b.jsonl"]
    # no data.validation and the base's (5% of data.train) is replaced with the section
    assert d.eval_sources is None
    assert (d.prompt_key, d.answer_key) == ("problem", "solution")


@pytest.mark.parametrize(
    "version,entry",
    [
        ("0.3.1", "examples/run_grpo_math.py"),  # the only GRPO math entry at v0.3.1 and v0.4.0
        ("0.4.0", "examples/run_grpo_math.py"),
        ("0.5.0", "examples/run_grpo.py"),  # added in 0.5.0 (both call load_response_dataset)
        ("0.7.0", "examples/run_grpo.py"),  # run_grpo_math.py is gone from 0.6.0
    ],
)
def test_the_launch_runs_the_releases_grpo_entry(tmp_path: Path, version: str, entry: str) -> None:
    [train] = files(tmp_path, "train.jsonl")
    launch = translator.translate(easyr1(tmp_path, train, train), to=f"nemo-rl@{version}").files["launch.sh"]
    assert f"uv run {entry} " in launch


def test_mixture_weights_are_noted_as_lost(tmp_path: Path) -> None:
    # Open-Instruct's dataset_mixer_list takes half of org/a and all of org/b; NeMo-RL's list concatenates whole
    # datasets (nemo_rl/data/utils.py:136-145@v0.6.0): both Hub ids are written, the 0.5 share is noted as lost.
    script = tmp_path / "run.sh"
    script.write_text(
        "python open_instruct/grpo_fast.py --model_name_or_path m \\\n"
        "    --dataset_mixer_list org/a 0.5 org/b 1.0 --apply_verifiable_reward True \\\n"
        "    --num_unique_prompts_rollout 8 --num_samples_per_prompt_rollout 4 --num_mini_batches 2 \\\n"
        "    --num_learners_per_node 2 --vllm_num_engines 1 --pack_length 2048\n"
    )
    translation = translator.translate(script, to="nemo-rl@0.7.0")
    train = written(translation)["data"]["train"]
    assert [e["data_path"] for e in train] == ["org/a", "org/b"]
    [note] = [n for n in translation.notes if n.code == "data.not-expressible"]
    assert "[0.5, 1.0]" in note.message
