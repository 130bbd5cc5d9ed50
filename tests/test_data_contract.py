"""The data-and-reward contract (translator/data_contract.py): a column the target's dataset loader cannot use
fails the translation (exit 1) with the conversion, judged on the first rows of the user's local data file or on
what the source framework's own loader needs.

Each expected outcome is worked out from the loader's code (cited in translator/data_contract.py):
- verl 0.9.1 ``RLHFDataset._build_messages``: ``messages: list = example[prompt_key]`` then
  ``apply_chat_template(messages)``: the prompt column must be a list of {role, content}; its reward managers read
  ``row["reward_model"]["ground_truth"]``: a ``reward_model`` column.
- EasyR1 ``RLHFDataset._build_messages``: ``prompt_str: str = example[prompt_key]``: a string; ``__getitem__``:
  ``example.pop(answer_key)``: the answer column.
- Open-Instruct ``rlvr_tokenize_v1``: ``row[sft_messages_key]`` into ``apply_chat_template``: a chat list;
  ``row[ground_truths_key]`` and ``row["dataset"]`` for every row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import translator
from translator.cli import main

CHAT = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "What is 2+2?"}]
# Open-Instruct's rows are conversations ending in the answer (rlvr_tokenize_v1 prompts with all but the last message)
OI_CHAT = [*CHAT, {"role": "assistant", "content": "4"}]

VERL = """python3 -m verl.trainer.main_ppo \\
    data.train_files={data} data.val_files={data} data.prompt_key={key} \\
    data.train_batch_size=8 actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.ppo_mini_batch_size=4 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 actor_rollout_ref.model.path=m \\
    custom_reward_function.path=reward.py custom_reward_function.name=score \\
    trainer.n_gpus_per_node=2 trainer.nnodes=1
"""

EASYR1 = """data:
  train_files: {data}
  val_files: {data}
  prompt_key: {key}
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
"""

OPEN_INSTRUCT = """python open_instruct/grpo_fast.py --model_name_or_path m \\
    --dataset_mixer_list {data} 1.0 --sft_messages_key {key} --apply_verifiable_reward True \\
    --num_unique_prompts_rollout 8 --num_samples_per_prompt_rollout 4 --num_mini_batches 2 \\
    --num_learners_per_node 2 --vllm_num_engines 1 --pack_length 2048
"""


def source(
    where: Path, template: str, name: str, rows: list[dict[str, Any]], key: str, data: str = "train.jsonl"
) -> Path:
    """A source config beside a JSON Lines data file of the given rows."""
    (where / data).write_text("".join(json.dumps(row) + "\n" for row in rows))
    path = where / name
    path.write_text(template.format(data=data, key=key))
    return path


def data_notes(translation: translator.Translation) -> list[Any]:
    return [n for n in translation.notes if n.code.startswith("data.column")]


def test_verl_fails_on_a_string_prompt_column(tmp_path: Path) -> None:
    # data.prompt_key=problem where each row's problem is a string: verl's _build_messages takes it as the message
    # list, so apply_chat_template gets a string. The fix wraps it as one user message.
    rows = [{"problem": "What is 2+2?", "answer": "4", "reward_model": {"ground_truth": "4"}}] * 3
    path = source(tmp_path, VERL, "run.sh", rows, "problem")
    translation = translator.translate(path, to="verl")
    [note] = data_notes(translation)
    assert note.code == "data.column-type" and note.severity == "error"
    assert "column 'problem' holds a string" in note.message
    assert '[{"role": "user", "content": row["problem"]}]' in note.message
    assert "rl_dataset.py@v0.9.1" in note.message
    assert translation.failed


def test_the_same_string_column_suits_easyr1(tmp_path: Path) -> None:
    # EasyR1 reads a string prompt (prompt_str: str) and the answer column (answer_key 'answer' is written): both
    # are in every row, so no data note.
    rows = [{"problem": "What is 2+2?", "answer": "4"}] * 3
    path = source(tmp_path, VERL, "run.sh", rows, "problem")
    assert data_notes(translator.translate(path, to="easyr1")) == []


def test_easyr1_fails_on_a_chat_list_prompt_column(tmp_path: Path) -> None:
    # prompt_key: messages holding a list of messages: EasyR1's `prompt_str: str = example[prompt_key]` would render
    # a list into the user message. The fix takes the last user message's content.
    rows = [{"messages": CHAT, "answer": "4"}] * 2
    path = source(tmp_path, EASYR1, "config.yaml", rows, "messages")
    translation = translator.translate(path, to="easyr1", framework="easyr1")
    [note] = data_notes(translation)
    assert note.code == "data.column-type"
    assert "column 'messages' holds a chat list" in note.message and "needs a string there" in note.message
    assert 'next(m["content"] for m in reversed(row["messages"]) if m["role"] == "user")' in note.message
    assert translation.failed


def test_verl_needs_the_reward_model_column(tmp_path: Path) -> None:
    # The chat list suits verl's loader, but its reward managers read row["reward_model"]["ground_truth"], which
    # these rows lack (their answer is in 'answer').
    rows = [{"messages": CHAT, "answer": "4"}] * 2
    path = source(tmp_path, EASYR1, "config.yaml", rows, "messages")
    [note] = data_notes(translator.translate(path, to="verl", framework="easyr1"))
    assert note.code == "data.column-missing"
    assert "has no column 'reward_model'" in note.message


def test_open_instruct_fails_on_a_string_messages_column(tmp_path: Path) -> None:
    # sft_messages_key pointing at a string column: rlvr_tokenize_v1 hands it to apply_chat_template.
    rows = [{"question": "What is 2+2?", "ground_truth": "4", "dataset": "math"}] * 2
    path = source(tmp_path, OPEN_INSTRUCT, "run.sh", rows, "question")
    translation = translator.translate(path, to="open-instruct")
    [note] = data_notes(translation)
    assert note.code == "data.column-type" and "dataset_transformation.py@e6c3044aa" in note.message
    assert translation.failed


def test_verifiable_reward_without_a_ground_truth_column(tmp_path: Path) -> None:
    # --apply_verifiable_reward True, rows with messages and dataset but no ground_truth: rlvr_tokenize_v1 reads
    # row[ground_truths_key] ('ground_truth') for every row.
    rows = [{"messages": OI_CHAT, "dataset": "math"}] * 2
    path = source(tmp_path, OPEN_INSTRUCT, "run.sh", rows, "messages")
    translation = translator.translate(path, to="open-instruct")
    [note] = data_notes(translation)
    assert note.code == "data.column-missing" and "has no column 'ground_truth'" in note.message
    assert translation.failed


def test_data_that_suits_open_instruct_gets_no_note(tmp_path: Path) -> None:
    rows = [{"messages": OI_CHAT, "ground_truth": "4", "dataset": "math"}] * 2
    path = source(tmp_path, OPEN_INSTRUCT, "run.sh", rows, "messages")
    translation = translator.translate(path, to="open-instruct")
    assert data_notes(translation) == []
    assert not translation.failed


def test_only_the_first_rows_are_read(tmp_path: Path) -> None:
    # SAMPLE_ROWS = 5: five rows that suit Open-Instruct, then one without ground_truth, which is not read.
    good = {"messages": OI_CHAT, "ground_truth": "4", "dataset": "math"}
    path = source(
        tmp_path, OPEN_INSTRUCT, "run.sh", [good] * 5 + [{"messages": OI_CHAT, "dataset": "math"}], "messages"
    )
    assert data_notes(translator.translate(path, to="open-instruct")) == []
    path = source(
        tmp_path, OPEN_INSTRUCT, "run.sh", [good] * 4 + [{"messages": OI_CHAT, "dataset": "math"}], "messages"
    )
    assert [n.code for n in data_notes(translator.translate(path, to="open-instruct"))] == ["data.column-missing"]


def test_a_json_file_of_columns_is_sampled(tmp_path: Path) -> None:
    # A .json file holding {column: [values]} (pandas' orient="list") is rows by position: string problems (verl
    # needs a chat list) and no reward_model column (verl's reward managers read it).
    (tmp_path / "train.json").write_text(json.dumps({"problem": ["a", "b"], "answer": ["1", "2"]}))
    path = tmp_path / "run.sh"
    path.write_text(VERL.format(data="train.json", key="problem"))
    missing, kind = data_notes(translator.translate(path, to="verl"))
    assert "has no column 'reward_model'" in missing.message
    assert "column 'problem' holds a string" in kind.message


def test_a_parquet_file_is_sampled(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist([{"prompt": CHAT, "answer": "4"}] * 3), tmp_path / "train.parquet")
    path = tmp_path / "config.yaml"
    path.write_text(EASYR1.format(data="train.parquet", key="prompt"))
    [note] = data_notes(translator.translate(path, to="easyr1", framework="easyr1"))
    assert "column 'prompt' holds a chat list" in note.message


def test_without_a_sample_the_source_loader_states_the_type(tmp_path: Path) -> None:
    # A Hub dataset is not sampled; an EasyR1 source that runs holds a string in its prompt column (EasyR1's
    # loader needs one), so verl, needing a chat list, cannot use it as it is.
    path = tmp_path / "config.yaml"
    path.write_text(EASYR1.format(data="org/name@train", key="question"))
    [note] = data_notes(translator.translate(path, to="verl", framework="easyr1"))
    assert note.code == "data.column-type"
    assert "the source's easyr1 loader needs its prompt column 'question' as a string" in note.message


def test_translate_exits_1_on_a_column_the_target_cannot_use(tmp_path: Path) -> None:
    rows = [{"problem": "What is 2+2?", "answer": "4", "reward_model": {"ground_truth": "4"}}]
    path = source(tmp_path, VERL, "run.sh", rows, "problem")
    result = CliRunner().invoke(main, ["translate", str(path), "--to", "verl", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert "data.column-type" in result.output


def test_easyr1_gets_the_absolute_path_of_a_reward_file_beside_the_source(tmp_path: Path) -> None:
    # custom_reward_function.path=reward.py beside the verl script: EasyR1 looks for ./reward.py in its repository
    # root (get_abs_path → None → "Reward function is not provided."), so the written relative path is an error
    # that gives the absolute one.
    (tmp_path / "reward.py").write_text(
        "def score(data_source, solution_str, ground_truth, extra_info):\n    return 0\n"
    )
    path = source(tmp_path, VERL, "run.sh", [{"problem": "2+2?", "answer": "4"}], "problem")
    translation = translator.translate(path, to="easyr1")
    [note] = [n for n in translation.notes if n.code == "reward.unresolved"]
    assert note.severity == "error"
    assert note.message.endswith(f"worker.reward.reward_function={(tmp_path / 'reward.py').resolve()}:score")


def test_a_reward_file_not_beside_the_source_is_left_to_the_user(tmp_path: Path) -> None:
    # No reward.py here: rlconf cannot tell where the user keeps it, so no note (the path is written as given).
    path = source(tmp_path, VERL, "run.sh", [{"problem": "2+2?", "answer": "4"}], "problem")
    assert not [n for n in translator.translate(path, to="easyr1").notes if n.code == "reward.unresolved"]


def test_a_fifo_named_like_a_data_file_is_not_opened(tmp_path: Path) -> None:
    # A FIFO would block a reader forever (docs/safety.md): it is not sampled, and the source's loader decides
    # (verl: a chat list, which verl needs), so no data note.
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "train.jsonl")
    path = tmp_path / "run.sh"
    path.write_text(VERL.format(data="train.jsonl", key="prompt"))
    assert data_notes(translator.translate(path, to="verl")) == []


def test_a_data_file_outside_the_project_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The source in project/, its data in elsewhere/ (named by an absolute path), run from project/: rlconf reads
    # nothing outside the source's folder tree or the working directory, so the string column there is not seen.
    (tmp_path / "project").mkdir()
    (tmp_path / "elsewhere").mkdir()
    data = tmp_path / "elsewhere" / "train.jsonl"
    data.write_text(json.dumps({"prompt": "a string", "reward_model": {"ground_truth": "4"}}) + "\n")
    path = tmp_path / "project" / "run.sh"
    path.write_text(VERL.format(data=data, key="prompt"))
    monkeypatch.chdir(tmp_path / "project")
    assert data_notes(translator.translate(path, to="verl")) == []


# ---- TRL, OpenRLHF, slime targets.
# - TRL's own script (trl/scripts/grpo.py@v1.16.0) hands the dataset to GRPOTrainer as it is, which reads
#   x["prompt"] (trl/trainer/grpo_trainer.py@v1.16.0:2338, @v0.18.0:989) as text or a chat list; every other
#   column reaches the reward functions as a keyword argument (@v1.16.0:1584-1585). rlconf writes TRL's script where
#   the source's reward is a function file (verl's custom_reward_function here).
# - Open-R1's grpo.py (written where the reward is Open-R1's built-ins, e.g. Open-Instruct's verifiers) makes the
#   dataset_prompt_column's value the text of one user message (open-r1:src/open_r1/grpo.py@1416fa0:91-100).
# - OpenRLHF preprocess_data (openrlhf/datasets/prompts_dataset.py@v0.11.2) and slime's Dataset
#   (slime/utils/data.py@v0.3.1): with the chat template applied the input column is a chat list, or a string made
#   one user message; without it, the string is the prompt (slime's rollout tokenizes it as text); the label
#   column, where a label key is named, is read for every row.

OPENRLHF = """python3 -m openrlhf.cli.train_ppo_ray --pretrain m --prompt_data {data} --input_key {key} \\
    --actor_num_nodes 1 --actor_num_gpus_per_node 2 --vllm_num_engines 1 --vllm_tensor_parallel_size 1 \\
    --rollout_batch_size 8 --n_samples_per_prompt 4 --train_batch_size 32 --micro_train_batch_size 2 \\
    --micro_rollout_batch_size 2 --remote_rm_url reward.py
"""
VERL_ROW = {"reward_model": {"ground_truth": "4"}}


def test_trl_takes_a_chat_list_or_a_string_in_the_prompt_column(tmp_path: Path) -> None:
    for prompt in (CHAT, "What is 2+2?"):
        path = source(tmp_path, VERL, "run.sh", [{"prompt": prompt, **VERL_ROW}], "prompt")
        translation = translator.translate(path, to="trl")
        assert "-m trl.scripts.grpo" in translation.files["launch.sh"]
        assert data_notes(translation) == []


def test_trl_needs_a_prompt_column(tmp_path: Path) -> None:
    # data.prompt_key=problem: TRL's script reads `prompt` only, which these rows lack.
    path = source(tmp_path, VERL, "run.sh", [{"problem": CHAT, **VERL_ROW}], "problem")
    [note] = data_notes(translator.translate(path, to="trl"))
    assert note.code == "data.column-missing" and "has no column 'prompt'" in note.message
    assert "grpo_trainer.py@v1.16.0" in note.message


def test_trl_refuses_a_prompt_that_is_neither_text_nor_chat(tmp_path: Path) -> None:
    path = source(tmp_path, VERL, "run.sh", [{"prompt": {"question": "2+2?"}, **VERL_ROW}], "prompt")
    [note] = data_notes(translator.translate(path, to="trl"))
    assert note.code == "data.column-type" and "needs a string or a chat list there" in note.message
    assert "rewrite the 'prompt' column as a string or a chat list" in note.message


OPEN_R1 = """model_name_or_path: m
dataset_name: {data}
dataset_prompt_column: {key}
reward_funcs: [accuracy, format]
num_generations: 4
per_device_train_batch_size: 4
gradient_accumulation_steps: 2
"""


def test_open_r1_needs_text_in_its_prompt_column(tmp_path: Path) -> None:
    # An Open-R1 recipe (its built-in rewards) stays on Open-R1's grpo.py, whose make_conversation makes
    # dataset_prompt_column 'problem' the text of one user message: a chat list there is a launch blocker, and the
    # conversion keeps the last user message's text.
    path = source(tmp_path, OPEN_R1, "recipe.yaml", [{"problem": CHAT, "solution": "4"}], "problem")
    translation = translator.translate(path, to="trl", framework="trl@1.16.0", num_processes=2)
    assert "src/open_r1/grpo.py" in translation.files["launch.sh"]
    [note] = data_notes(translation)
    assert note.code == "data.column-type" and "needs a string there" in note.message
    assert "open-r1:src/open_r1/grpo.py@1416fa0" in note.message
    assert 'next(m["content"] for m in reversed(row["problem"]) if m["role"] == "user")' in note.message


def test_open_r1_accuracy_reward_needs_the_solution_column(tmp_path: Path) -> None:
    # reward_funcs [accuracy, format]: Open-R1's accuracy_reward(completions, solution, **kwargs)
    # (open-r1:src/open_r1/rewards.py@1416fa0:40) takes the dataset's `solution` column by name; format_reward takes
    # none. Rows with text in 'problem' but no 'solution': a launch blocker (a TypeError at the first reward).
    path = source(tmp_path, OPEN_R1, "recipe.yaml", [{"problem": "What is 2+2?", "answer": "4"}], "problem")
    translation = translator.translate(path, to="trl", framework="trl@1.16.0", num_processes=2)
    [note] = data_notes(translation)
    assert note.code == "data.column-missing" and "has no column 'solution'" in note.message
    assert "open-r1:src/open_r1/rewards.py@1416fa0" in note.message
    # with the column, nothing to say
    (tmp_path / "ok").mkdir()
    path = source(tmp_path / "ok", OPEN_R1, "recipe.yaml", [{"problem": "What is 2+2?", "solution": "4"}], "problem")
    assert data_notes(translator.translate(path, to="trl", framework="trl@1.16.0", num_processes=2)) == []


@pytest.mark.parametrize("target", ["openrlhf", "slime"])
def test_with_the_chat_template_a_chat_list_or_a_string_suits(tmp_path: Path, target: str) -> None:
    # A verl source applies the chat template: the written config does too, and the chat list suits.
    path = source(tmp_path, VERL, "run.sh", [{"prompt": CHAT, **VERL_ROW}], "prompt")
    translation = translator.translate(path, to=target)
    assert "apply_chat_template" in translation.files["launch.sh"].replace("-", "_")
    assert data_notes(translation) == []


@pytest.mark.parametrize("target", ["openrlhf", "slime"])
def test_the_label_column_is_read_for_every_row(tmp_path: Path, target: str) -> None:
    # EasyR1's answer_key 'answer' becomes the label key; these rows have none.
    path = source(tmp_path, EASYR1, "config.yaml", [{"problem": "2+2?"}], "problem")
    [note] = data_notes(translator.translate(path, to=target, framework="easyr1"))
    assert note.code == "data.column-missing" and "has no column 'answer'" in note.message


@pytest.mark.parametrize("target", ["openrlhf@0.11.2", "slime"])
def test_without_the_chat_template_the_prompt_is_text(tmp_path: Path, target: str) -> None:
    # An OpenRLHF source without --apply_chat_template: the written config applies none either, so a chat list in
    # the input column would be handed on as the prompt itself.
    path = source(tmp_path, OPENRLHF, "run.sh", [{"question": CHAT}], "question")
    translation = translator.translate(path, to=target, framework="openrlhf@0.9.0")
    assert "apply_chat_template" not in translation.files["launch.sh"].replace("-", "_")
    [note] = data_notes(translation)
    assert note.code == "data.column-type" and "needs a string there" in note.message


def test_open_instruct_drops_the_last_message_of_a_longer_chat_list(tmp_path: Path) -> None:
    # rlvr_tokenize_v1 prompts with messages[:-1] when the list holds more than one message
    # (open_instruct/dataset_transformation.py@e6c3044aa:1616): CHAT is [system, user] (a verl-style prompt), so
    # the prompt would be the system message alone. One message, or a list ending in the answer, keeps the question.
    rows = [{"prompt": CHAT, **VERL_ROW, "ground_truth": "4", "dataset": "math"}]
    path = source(tmp_path, VERL, "run.sh", rows, "prompt")
    [note] = data_notes(translator.translate(path, to="open-instruct"))
    assert note.code == "data.column-shape" and note.severity == "error"
    assert '"prompt": row["prompt"] + [{"role": "assistant", "content": ""}]' in note.message
    for kept in (CHAT[1:], [*CHAT, {"role": "assistant", "content": "4"}]):
        path = source(tmp_path, VERL, "run.sh", [{**rows[0], "prompt": kept}], "prompt")
        assert data_notes(translator.translate(path, to="open-instruct")) == []


# ---- NeMo-RL and SkyRL targets.
# - NeMo-RL 0.7.0 reads a local file through the ResponseDataset registry entry: format_data makes the row's
#   input_key column (default `input`) the content of one user message and its output_key column (default
#   `output`) the answer, read for every row (nemo_rl/data/datasets/response_datasets/response_dataset.py@v0.7.0:
#   45-46, 78-85); math_hf_data_processor formats that content into the prompt text (prompt.format(problem),
#   nemo_rl/data/processors.py@v0.7.0:390-406): a string. A file with a `messages` column is kept as it stands
#   (response_dataset.py@v0.7.0:64-72), so its other columns are not read.
# - SkyRL 0.3.0: main_base builds PromptDataset without a prompt key (skyrl/train/entrypoints/main_base.py@
#   skyrl-v0.3.0:78-83), so the column is `prompt` (skyrl/train/dataset/dataset.py@skyrl-v0.3.0:23), handed to
#   apply_chat_template (dataset.py:9-13): a chat list. Every other column but env_class reaches the environment
#   as extras (dataset.py:86-94); the gsm8k environment (the base config's environment.env_class) asserts
#   reward_spec (skyrl-gym/skyrl_gym/envs/gsm8k/env.py@skyrl-v0.3.0:14-16), aime asserts reward_model
#   (aime/env.py:14-16).

NEMO_ROW = {"input": "What is 2+2?", "output": "4"}


def test_nemo_rl_needs_the_input_and_output_columns(tmp_path: Path) -> None:
    # A verl source's rows: a chat list in `prompt` and the answer in reward_model. The written ResponseDataset
    # reads the source's prompt column (input_key prompt) and data["output"] (output_key's default: verl names no
    # flat answer column) for every row (response_dataset.py@v0.7.0:81-82): `output` is missing, and `prompt`
    # holds a chat list where format_data needs the user message's text.
    path = source(tmp_path, VERL, "run.sh", [{"prompt": CHAT, **VERL_ROW}], "prompt")
    translation = translator.translate(path, to="nemo-rl")
    missing, kind = data_notes(translation)
    assert missing.code == "data.column-missing" and missing.severity == "error"
    assert "has no column 'output'" in missing.message and "response_dataset.py@v0.7.0" in missing.message
    assert kind.code == "data.column-type" and "column 'prompt' holds a chat list" in kind.message
    assert translation.failed


def test_nemo_rl_trains_on_the_sources_data(tmp_path: Path) -> None:
    # Without data keys the written recipe would train on the base recipe's OpenMathInstruct-2
    # (grpo_math_1B.yaml@v0.7.0 data.train.dataset_name). An EasyR1 source's file and columns become a
    # ResponseDataset: data_path, input_key = prompt_key, output_key = answer_key (response_dataset.py@v0.7.0:42-46);
    # the source validates on its own set, so no 5% of the training data is held back (split_validation_size 0).
    rows = [{"problem": "What is 2+2?", "answer": "4"}]
    path = source(tmp_path, EASYR1, "config.yaml", rows, "problem", data=str(tmp_path / "train.jsonl"))
    translation = translator.translate(path, to="nemo-rl@0.7.0")
    config = yaml.safe_load(translation.files["config.yaml"])
    train = config["data"]["train"]
    assert train == {
        "dataset_name": "ResponseDataset",
        "data_path": str(tmp_path / "train.jsonl"),
        "input_key": "problem",
        "output_key": "answer",
        "split_validation_size": 0,
    }
    assert config["data"]["validation"]["data_path"] == str(tmp_path / "train.jsonl")
    assert data_notes(translation) == [] and not translation.failed
    # read back: the same data source and columns
    assert translation.spec.data.train_sources == [str(tmp_path / "train.jsonl")]
    assert (translation.spec.data.prompt_key, translation.spec.data.answer_key) == ("problem", "answer")


def test_nemo_rl_warns_of_a_relative_data_path(tmp_path: Path) -> None:
    # written launch.sh runs from the NeMo-RL checkout root, where train.jsonl (beside the source) is not
    rows = [{"problem": "What is 2+2?", "answer": "4"}]
    path = source(tmp_path, EASYR1, "config.yaml", rows, "problem")
    translation = translator.translate(path, to="nemo-rl@0.7.0")
    assert any(n.code == "data.local-files" and n.severity == "warning" for n in translation.notes)


def test_nemo_rl_needs_text_in_the_input_column(tmp_path: Path) -> None:
    # `input` holding a chat list: it would become the content of the user message (response_dataset.py@v0.7.0:81),
    # a list where the processor formats a string; the conversion keeps the last user message's text.
    path = source(tmp_path, VERL, "run.sh", [{"input": CHAT, "output": "4", **VERL_ROW}], "input")
    [note] = data_notes(translator.translate(path, to="nemo-rl"))
    assert note.code == "data.column-type" and "needs a string there" in note.message
    assert 'next(m["content"] for m in reversed(row["input"]) if m["role"] == "user")' in note.message


def test_data_that_suits_nemo_rl_gets_no_note(tmp_path: Path) -> None:
    # A string in `input` and the answer in `output`: what format_data reads.
    path = source(tmp_path, VERL, "run.sh", [{**NEMO_ROW, **VERL_ROW}], "input")
    assert data_notes(translator.translate(path, to="nemo-rl")) == []
    # A `messages` column ([user, assistant answer]) is taken as it stands (response_dataset.py@v0.7.0:64-72):
    # rows without input/output pass too.
    answered = [{"role": "user", "content": "What is 2+2?"}, {"role": "assistant", "content": "4"}]
    path = source(tmp_path, VERL, "run.sh", [{"messages": answered, **VERL_ROW}], "messages")
    assert data_notes(translator.translate(path, to="nemo-rl")) == []


def test_skyrl_needs_a_chat_list_and_reward_spec(tmp_path: Path) -> None:
    # A string in `prompt` (apply_chat_template needs a list of messages, dataset.py@skyrl-v0.3.0:9-13) and no
    # reward_spec column, which the gsm8k environment (the written environment.env_class: the base config's, as the
    # source's reward is a function file SkyRL has no form for) asserts for every row.
    path = source(tmp_path, VERL, "run.sh", [{"prompt": "What is 2+2?", **VERL_ROW}], "prompt")
    translation = translator.translate(path, to="skyrl")
    missing, kind = data_notes(translation)
    assert missing.code == "data.column-missing" and "has no column 'reward_spec'" in missing.message
    assert "the gsm8k environment's reward_spec.ground_truth" in missing.message
    assert kind.code == "data.column-type" and "column 'prompt' holds a string" in kind.message
    assert '[{"role": "user", "content": row["prompt"]}]' in kind.message
    assert translation.failed
    # A chat list in `prompt` and a reward_spec column: what PromptDataset and the gsm8k environment read.
    path = source(tmp_path, VERL, "run.sh", [{"prompt": CHAT, "reward_spec": {"ground_truth": "4"}}], "prompt")
    translation = translator.translate(path, to="skyrl")
    assert data_notes(translation) == []


def test_skyrl_reads_prompt_whatever_the_source_named(tmp_path: Path) -> None:
    # data.prompt_key=question in the source: SkyRL's PromptDataset reads `prompt` only (main_base passes no key).
    rows = [{"question": CHAT, "reward_spec": {"ground_truth": "4"}}]
    path = source(tmp_path, VERL, "run.sh", rows, "question")
    [note] = data_notes(translator.translate(path, to="skyrl"))
    assert note.code == "data.column-missing" and "has no column 'prompt'" in note.message


SKYRL = """python -m skyrl.train.entrypoints.main_base data.train_data="['{data}']" environment.env_class={key} \\
    trainer.train_batch_size=8 trainer.policy_mini_batch_size=4 generator.n_samples_per_prompt=4 \\
    trainer.micro_train_batch_size_per_gpu=1 trainer.micro_forward_batch_size_per_gpu=1 \\
    trainer.placement.policy_num_gpus_per_node=2 trainer.placement.ref_num_gpus_per_node=2 \\
    generator.inference_engine.num_engines=2 trainer.policy.model.path=m
"""


def test_skyrl_reads_the_column_its_environment_asserts(tmp_path: Path) -> None:
    # A SkyRL source on the aime environment stays on it: AIMEEnv asserts reward_model, not reward_spec
    # (skyrl-gym/skyrl_gym/envs/aime/env.py@skyrl-v0.3.0:14-16).
    good = {"prompt": CHAT, **VERL_ROW}
    path = source(tmp_path, SKYRL, "run.sh", [good], "aime")
    translation = translator.translate(path, to="skyrl")
    assert "environment.env_class=aime" in translation.files["launch.sh"]
    assert data_notes(translation) == []
    path = source(tmp_path, SKYRL, "run.sh", [{"prompt": CHAT, "reward_spec": {"ground_truth": "4"}}], "aime")
    [note] = data_notes(translator.translate(path, to="skyrl"))
    assert note.code == "data.column-missing" and "has no column 'reward_model'" in note.message


def test_skyrl_rows_that_pick_their_own_environment_are_said_to(tmp_path: Path) -> None:
    # SkyRL takes each row's env_class and falls back to environment.env_class only where a row has none
    # (prepare_generator_input, skyrl/train/generators/utils.py@skyrl-v0.3.0:476-501). Rows on aime under a gsm8k
    # config are scored by AIMEEnv in the source run; a translation carries the config's gsm8k only.
    rows = [
        {"prompt": CHAT, "reward_spec": {"ground_truth": "4"}, "env_class": "gsm8k"},
        {"prompt": CHAT, "reward_model": {"ground_truth": "4"}, "env_class": "aime"},
    ]
    path = source(tmp_path, SKYRL, "run.sh", rows, "gsm8k")
    [note] = [n for n in translator.translate(path, to="verl").notes if n.code == "reward.per-row"]
    assert note.severity == "warning" and "column 'env_class' (aime, gsm8k)" in note.message
    # rows that all pick the config's environment (or none) change nothing
    rows = [{"prompt": CHAT, "reward_spec": {"ground_truth": "4"}, "env_class": "gsm8k"}, {"prompt": CHAT}]
    path = source(tmp_path, SKYRL, "run.sh", rows, "gsm8k")
    assert not [n for n in translator.translate(path, to="verl").notes if n.code == "reward.per-row"]


def test_nemo_rl_columns_are_those_of_the_release_written(tmp_path: Path) -> None:
    # 0.5.0 writes data.train_data_path; its ResponseDataset reads input/output (response_dataset.py@v0.5.0:40-84)
    path = source(tmp_path, VERL, "run.sh", [{"prompt": "What is 2+2?", **VERL_ROW}], "prompt")
    missing = [n for n in data_notes(translator.translate(path, to="nemo-rl@0.5.0")) if n.code == "data.column-missing"]
    assert missing and "data.train_data_path" in missing[0].message and "@v0.5.0" in missing[0].message
    # 0.4.0 maps every row to messages from input/output, a `messages` column or not (response_dataset.py@v0.4.0:60)
    answered = [{"role": "user", "content": "What is 2+2?"}, {"role": "assistant", "content": "4"}]
    path = source(tmp_path, VERL, "run.sh", [{"messages": answered, **VERL_ROW}], "messages")
    assert data_notes(translator.translate(path, to="nemo-rl@0.4.0"))
    assert data_notes(translator.translate(path, to="nemo-rl@0.5.0")) == []  # from 0.5.0 taken as it stands
    # 0.3.1 has no ResponseDataset: the source's data is not written, so none of its columns is judged
    assert data_notes(translator.translate(path, to="nemo-rl@0.3.1")) == []
