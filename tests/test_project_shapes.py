"""Shapes of projects built on the frameworks (forks, copies, wrappers), each written here as a small project of
its own in a temporary folder, with the plan derived by hand from the code it imitates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import translator
from tests.conftest import write_project
from translator.errors import ConfigError
from translator.sources.files import Source

SKYRL = (
    "python -m skyrl.train.entrypoints.main_base trainer.placement.policy_num_nodes=1 "
    "trainer.placement.policy_num_gpus_per_node=4 trainer.train_batch_size=64 trainer.policy_mini_batch_size=32 "
    "generator.n_samples_per_prompt=5 trainer.micro_train_batch_size_per_gpu=1 "
)


def test_a_parallelism_no_release_has_leaves_the_data_parallel_size_unknown() -> None:
    # SkyRL: DP = policy GPUs 4 ÷ Ulysses SP 1 = 4; accumulation = 32 prompts × 5 ÷ 4 ranks ÷ micro 1 = 40.
    plain = translator.load(Source(SKYRL, "run.sh"), framework="skyrl").spec.plan
    assert (plain.data_parallel_size, plain.grad_accum_steps) == (4, 40)
    # A fork's own FSDP context parallelism of 2 (no SkyRL release has the key) splits those 4 GPUs its own way:
    # the ranks and the accumulation built on them are unknown; the step's sizes, read from the keys, stay.
    forked = translator.load(
        Source(SKYRL + "trainer.policy.fsdp_config.context_parallel_size=2", "run.sh"), framework="skyrl"
    )
    plan = forked.spec.plan
    assert plan.data_parallel_size is None and plan.grad_accum_steps is None
    assert (plan.samples_per_step, plan.samples_per_optimizer_step, plan.micro_batch_per_device) == (320, 160, 1)
    note = next(n for n in forked.notes if n.code == "plan.unmodelled-devices")
    assert "context_parallel_size=2" in note.message
    # a size of 1 divides nothing: the plan is the release's
    one = translator.load(
        Source(SKYRL + "trainer.policy.fsdp_config.context_parallel_size=1", "run.sh"), framework="skyrl"
    )
    assert one.spec.plan.data_parallel_size == 4


JUDGE = """defaults: ../../grpo_math_1B.yaml
policy:
  train_micro_batch_size: 2
  max_total_sequence_length: 1024
cluster:
  gpus_per_node: 4
env:
  math:
    judge:
      enabled: {enabled}
      resources:
        gpus_per_node: 2
        num_nodes: 1
"""


def test_gpus_a_project_reserves_for_a_model_of_its_own_leave_the_policy_ranks_unknown() -> None:
    # NeMo-RL 0.5.0's grpo_math_1B: colocated generation, so the policy trains on the cluster's 4 GPUs (DP 4).
    off = translator.load(Source(JUDGE.format(enabled="false"), "recipe.yaml"), framework="nemo-rl@0.5.0")
    assert off.spec.plan.data_parallel_size == 4
    # An environment section of the project's asking for 2 GPUs of its own (no release places it): the project's
    # code may take them from the policy, so its ranks are unknown (the fork this imitates left 4 - 2 GPUs).
    on = translator.load(Source(JUDGE.format(enabled="true"), "recipe.yaml"), framework="nemo-rl@0.5.0")
    assert on.spec.plan.data_parallel_size is None
    assert any("gpus_per_node=2" in n.message for n in on.notes if n.code == "plan.unmodelled-devices")


def test_a_fork_entry_with_options_of_its_own_keeps_only_what_the_launch_sets(tmp_path: Path) -> None:
    # pkg.main_x reads --config and builds verl's overrides itself (as a TTT-style driver does); rlconf reads only
    # the overrides passed on the line. Set there: 64 prompts × rollout.n 4 = 256 samples, mini-batch 16 prompts ×
    # 4 = 64 samples per optimizer step. Not set (verl's defaults, which the --config file may change): the GPUs
    # (so DP and the accumulation), the epochs (so the optimizer steps per step).
    root = write_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/main_x.py": "import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--config')\n",
            "run.sh": (
                "python -m pkg.main_x --config run.yaml data.train_batch_size=64 actor_rollout_ref.rollout.n=4 "
                "actor_rollout_ref.actor.ppo_mini_batch_size=16 "
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 actor_rollout_ref.rollout.name=vllm\n"
            ),
        },
    )
    plan = translator.explain(str(root / "run.sh"), "verl@0.7.1").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (64, 4, 256)
    assert (plan.samples_per_optimizer_step, plan.micro_batch_per_device) == (64, 2)
    assert plan.data_parallel_size is None and plan.grad_accum_steps is None
    assert plan.epochs_per_step is None and plan.optimizer_steps_per_step is None


def _openrlhf_fork(root: Path, installable: bool) -> Path:
    files = {
        "openrlhf/__init__.py": "",
        "openrlhf/cli/__init__.py": "",
        "openrlhf/cli/train_ppo.py": "from openrlhf.trainer.ppo_utils.reward_funcs import reward\n",
        "openrlhf/trainer/__init__.py": "",
        "openrlhf/trainer/ppo_utils/__init__.py": "",
        "openrlhf/trainer/ppo_utils/math_reward_funcs.py": "def reward(x):\n    return 1.0\n",
        "run.sh": (
            "torchrun --nproc_per_node 2 openrlhf/cli/train_ppo.py --pretrain m --rollout_batch_size 8 "
            "--micro_rollout_batch_size 2 --n_samples_per_prompt 4 --train_batch_size 16 --micro_train_batch_size 2\n"
        ),
    }
    if installable:
        files["setup.py"] = "from setuptools import setup\nsetup(name='openrlhf')\n"
    return write_project(root, files)


def test_a_script_inside_an_installable_package_imports_that_package_from_thewrite_project(tmp_path: Path) -> None:
    # torchrun openrlhf/cli/train_ppo.py puts openrlhf/cli on sys.path, not the project root: `openrlhf` comes from
    # the install, which for a project with setup.py is the project itself (pip install -e .). Its
    # openrlhf/trainer/ppo_utils has no reward_funcs module (renamed math_reward_funcs): ModuleNotFoundError.
    root = _openrlhf_fork(tmp_path / "installable", installable=True)
    with pytest.raises(ConfigError, match=r"ppo_utils\.reward_funcs.*ModuleNotFoundError"):
        translator.explain(str(root / "run.sh"))
    # without setup.py or pyproject.toml the package may be another install: not judged
    root = _openrlhf_fork(tmp_path / "plain", installable=False)
    assert translator.explain(str(root / "run.sh")).spec.framework == "openrlhf"


R1V_TRAINER = """# Written for rlconf's tests (not runnable): R1-V's vLLM trainer shape. The default sampler gives each
# rank per_device_train_batch_size prompts; every micro-step _prepare_inputs asks vLLM for num_generations of each.
from transformers import Trainer


class VLLMTrainer(Trainer):
    def _prepare_inputs(self, inputs):
        prompts = [x["prompt"] for x in inputs]
        outputs = self.llm.generate(prompts, sampling_params=self.sampling_params)
        return self._score(outputs)
"""

R1V_SCRIPT = """from trainer import VLLMTrainer
from trl import GRPOConfig, TrlParser

if __name__ == "__main__":
    parser = TrlParser((GRPOConfig,))
    (config,) = parser.parse_args_and_config()
    trainer = VLLMTrainer(model="m", args=config)
    trainer.train()
"""


def test_a_trainer_generating_each_micro_step_from_the_default_sampler_counts_prompts_per_device(
    tmp_path: Path,
) -> None:
    # per_device_train_batch_size 1 prompt × 2 processes = 2 prompts per micro-step, × num_generations 4 = 8
    # completions (4 per rank per forward/backward); one generation per micro-step, an update every GAS 2: 0.5
    # optimizer steps per round, 16 completions per optimizer step.
    root = write_project(
        tmp_path,
        {
            "trainer.py": R1V_TRAINER,
            "grpo.py": R1V_SCRIPT,
            "run.sh": (
                "torchrun --nproc_per_node 2 grpo.py --output_dir out --per_device_train_batch_size 1 "
                "--gradient_accumulation_steps 2 --num_generations 4\n"
            ),
        },
    )
    plan = translator.explain(str(root / "run.sh"), "trl@0.14.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.micro_batch_per_device) == (2, 8, 4)
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step) == (16, 0.5)


def test_a_config_file_of_a_project_with_its_own_open_instruct_copy_is_read_against_that_copy(tmp_path: Path) -> None:
    # The copy places no learner on the second node ("4 0"), which upstream's Ray bundles refuse and the copy
    # takes: the learners are 4 + 0 = 4. Its grpo_fast.py forms batches with code no upstream snapshot has (it
    # rewrites num_learners_per_node from the Ray cluster), so the quantities that code decides are unknown.
    root = write_project(
        tmp_path,
        {
            "open_instruct/__init__.py": "",
            "open_instruct/grpo_fast.py": (
                "def main(args):\n"
                "    if len(args.num_learners_per_node) == 1:\n"
                "        args.num_learners_per_node = [args.num_learners_per_node[0]] * len(ray.nodes())\n"
                "    args.world_size = sum(args.num_learners_per_node)\n"
            ),
            "configs/run.yaml": (
                "num_unique_prompts_rollout: 8\nnum_samples_per_prompt_rollout: 8\nnum_learners_per_node:\n"
                "  - 4\n  - 0\nvllm_num_engines: 4\n"
            ),
        },
    )
    explanation = translator.explain(str(root / "configs" / "run.yaml"), "open-instruct")
    assert explanation.spec.topology.training_gpus == 4
    assert explanation.spec.plan.data_parallel_size is None
    assert any(n.code == "framework.fork-batch-code" for n in explanation.notes)
    # without a copy, upstream's placement refuses the empty bundle
    (root / "open_instruct" / "grpo_fast.py").unlink()
    with pytest.raises(ConfigError, match="positive whole numbers"):
        translator.explain(str(root / "configs" / "run.yaml"), "open-instruct")


def test_a_copys_entry_beside_its_package_keeps_the_start_up_check(tmp_path: Path) -> None:
    # The project keeps slime's code (slime/utils/arguments.py) and its train_async.py beside it, which asserts
    # `not args.colocate` (train_async.py:11@v0.3.1; line 2 here): a launch of it with --colocate stops at start-up.
    root = write_project(
        tmp_path,
        {
            "slime/__init__.py": "",
            "slime/utils/__init__.py": "",
            "slime/utils/arguments.py": "def parse_args():\n    pass\n",
            "train_async.py": 'def train(args):\n    assert not args.colocate, "Colocation is not supported for async '
            'training."\n',
            "run.sh": (
                "python3 train_async.py --actor-num-nodes 1 --actor-num-gpus-per-node 4 --colocate "
                "--rollout-batch-size 8 --n-samples-per-prompt 4 --global-batch-size 32\n"
            ),
        },
    )
    with pytest.raises(ConfigError, match=r"Colocation is not supported.*train_async\.py:2"):
        translator.explain(str(root / "run.sh"))


def test_a_launch_whose_interpreter_is_a_variable_is_told_by_its_arguments(tmp_path: Path) -> None:
    # "${PYTHON_BIN:-/opt/venv/bin/python}" names no python on the launch line; the expanded command runs a
    # python program with slime's --rollout-batch-size: slime. 8 prompts × 4 = 32 samples, one step of 32.
    script = (
        'PYTHON_BIN="${PYTHON_BIN:-/opt/venv/bin/python}"\n'
        'ENTRY="${ENTRY:-train.py}"\n'
        '"${PYTHON_BIN}" "${ENTRY}" --actor-num-nodes 1 --actor-num-gpus-per-node 4 --rollout-batch-size 8 '
        "--n-samples-per-prompt 4 --global-batch-size 32 --num-rollout 10\n"
    )
    (tmp_path / "run.sh").write_text(script)
    explanation = translator.explain(str(tmp_path / "run.sh"))
    assert explanation.spec.framework == "slime"
    assert (explanation.spec.plan.samples_per_step, explanation.spec.plan.optimizer_steps_per_step) == (32, 1)


_VERL_07_TRAINER = """class RayPPOTrainer:
    def _update_actor(self, batch):
        ppo_mini_batch_size = self.config.actor_rollout_ref.actor.ppo_mini_batch_size
        ppo_mini_batch_size = ppo_mini_batch_size * self.config.actor_rollout_ref.rollout.n{extra}
        self.sizes.append(ppo_mini_batch_size)
        return self.actor_rollout_wg.update_actor(batch)

    def fit(self):
        return self._update_actor(None)
"""


def test_a_verl_07_copy_sizing_the_mini_batch_in_its_trainer_as_upstream_keeps_the_plan(tmp_path: Path) -> None:
    # verl 0.7's trainer sizes the engine workers' mini-batch itself (ray_trainer.py _update_actor: mini 8 prompts
    # × rollout.n 4 = 32 samples); a copy doing the same keeps the plan: 16 × 4 = 64 samples → 2 optimizer steps
    # of 32; 32 / 2 ranks / micro 2 = 8 micro-batches. A copy multiplying by 2 more sizes its own way: unknown.
    launch = (
        "python3 -m verl.trainer.main_ppo data.train_batch_size=16 actor_rollout_ref.rollout.n=4 "
        "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.actor.ppo_mini_batch_size=8 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 trainer.n_gpus_per_node=2 trainer.nnodes=1\n"
    )
    entry = "from verl.trainer.ray_trainer import RayPPOTrainer\n\n\ndef main(config):\n    RayPPOTrainer().fit()\n"
    for name, extra in (("same", ""), ("own", " * 2")):
        root = write_project(
            tmp_path / name,
            {
                "verl/__init__.py": "",
                "verl/version/version": "0.7.1\n",
                "verl/trainer/__init__.py": "",
                "verl/trainer/main_ppo.py": entry,
                "verl/trainer/ray_trainer.py": _VERL_07_TRAINER.format(extra=extra),
                "run.sh": launch,
            },
        )
        explanation = translator.explain(str(root / "run.sh"), "verl@0.7.1")
        plan = explanation.spec.plan
        if name == "same":
            assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step, plan.grad_accum_steps) == (32, 2, 8)
        else:
            assert plan.samples_per_optimizer_step is None and plan.grad_accum_steps is None


def test_a_project_entry_is_told_by_the_framework_it_imports(tmp_path: Path) -> None:
    # The entry's keys are of no pattern rlconf knows (trainer.n_samples_per_prompt is the fork's), but it imports
    # skyrl: SkyRL, read with main_base's semantics and noted as a fork; an import of a package two frameworks
    # share (verl: verl's and EasyR1's) tells neither.
    root = write_project(
        tmp_path,
        {
            "exp/__init__.py": "",
            "exp/main_mine.py": "from skyrl.train.entrypoints.main_base import BasePPOExp\n",
            "run.sh": "python -m exp.main_mine trainer.train_batch_size=32 trainer.n_samples_per_prompt=8\n",
        },
    )
    explanation = translator.explain(str(root / "run.sh"))
    assert explanation.spec.framework == "skyrl"
    assert any(n.code == "framework.fork" for n in explanation.notes)


def test_an_import_from_a_folder_another_machine_had_stops_the_run(tmp_path: Path) -> None:
    # grpo.py puts /home/author/other/src on sys.path (outside the project, absent here) and then imports
    # loaders.weather, which neither the standard library nor the project holds: ModuleNotFoundError at start-up.
    # json (the standard library) and helpers (the script's own folder) after it import fine.
    # (`src` names no project: the folder above it, `other`, is the one a README would link.)
    script = (
        "import sys\n\nsys.path.append('/home/author/other/src')\n\nimport json\nfrom helpers import f\n"
        "from loaders.weather import Dataset\nfrom trl import GRPOConfig, GRPOTrainer\n\n"
        "if __name__ == '__main__':\n    GRPOTrainer(model='m', args=GRPOConfig(output_dir='o')).train()\n"
    )

    def project(name: str, text: str) -> Path:
        return write_project(
            tmp_path / name,
            {
                "helpers.py": "def f():\n    return 1\n",
                "grpo.py": text,
                "run.sh": "accelerate launch --num_processes 2 grpo.py --per_device_train_batch_size 4\n",
            },
        )

    root = project("published", script)
    with pytest.raises(ConfigError, match=r"grpo\.py:7.*loaders\.weather.*/home/author/other/src"):
        translator.explain(str(root / "run.sh"), "trl@0.18.0")
    # a README that links the repository the folder holds (clone it, as its setup says): the user's to provide,
    # like any package the run imports; one that only mentions the word links nothing
    linked = "Clone [other](https://github.com/someone/other) first.\n"
    for name, readme, stops in (("linked", linked, False), ("mentioned", "Other projects exist.\n", True)):
        root = project(name, script)
        (root / "README.md").write_text(readme)
        if stops:
            with pytest.raises(ConfigError, match=r"loaders\.weather"):
                translator.explain(str(root / "run.sh"), "trl@0.18.0")
        else:
            assert translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.framework == "trl"
    # the folder on this machine (the author's own): not judged
    other = tmp_path / "other_src"
    other.mkdir()
    root = project("authors", script.replace("/home/author/other/src", str(other)))
    assert translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.framework == "trl"


def test_a_script_whose_launch_is_a_function_of_a_sourced_file_is_a_launch_not_a_file_of_arguments(
    tmp_path: Path,
) -> None:
    # run.sh runs no program of its own: it sources common.sh, fills arrays of slime's flags, and calls common.sh's
    # launch(), which runs train.py with 4 actor GPUs and every array. Read as the launch it is: 2 prompts × 8 = 16
    # samples, one optimizer step of 16; 4 DP ranks × micro-batch 2 → 16 ÷ 4 ÷ 2 = 2 micro-batches per step (not
    # TRAIN_ARGS alone as a file of arguments: slime's default 8 GPUs and micro-batch 1).
    write_project(
        tmp_path,
        {
            "common.sh": "launch() {\n  python3 train.py --actor-num-nodes 1 --actor-num-gpus-per-node 4 "
            '"${TRAIN_ARGS[@]}" "${PERF_ARGS[@]}"\n}\n',
            "run.sh": 'source "$(dirname "$0")/common.sh"\nTRAIN_ARGS=(\n  --rollout-batch-size 2\n'
            "  --n-samples-per-prompt 8\n  --global-batch-size 16\n  --num-rollout 10\n)\n"
            "PERF_ARGS=(--micro-batch-size 2)\nlaunch\n",
        },
    )
    explanation = translator.explain(str(tmp_path / "run.sh"))
    plan = explanation.spec.plan
    assert (plan.samples_per_step, plan.samples_per_optimizer_step, plan.data_parallel_size) == (16, 16, 4)
    assert (plan.micro_batch_per_device, plan.grad_accum_steps) == (2, 2)
    assert not any(n.code == "input.arguments-only" for n in explanation.notes)


def test_a_file_holding_only_arguments_is_read_as_passed_to_their_launch(tmp_path: Path) -> None:
    # The file runs nothing; a job script passes $TRAINING_ARGS to grpo_fast.py. Its words are Open-Instruct's:
    # 4 prompts × 4 samples = 16 per step, in one mini-batch; 2 learners; 1600 episodes // 16 = 100 steps.
    (tmp_path / "args.sh").write_text(
        'export MAX_JOB_CHAINS=0\nTRAINING_ARGS="\\\n    --num_unique_prompts_rollout 4 \\\n'
        "    --num_samples_per_prompt_rollout 4 \\\n    --num_mini_batches 1 \\\n    --num_learners_per_node 2 \\\n"
        '    --total_episodes 1600 \\\n    --vllm_num_engines 1 \\\n"\n'
    )
    explanation = translator.explain(str(tmp_path / "args.sh"))
    plan = explanation.spec.plan
    assert explanation.spec.framework == "open-instruct"
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (4, 16, 16)
    assert (plan.data_parallel_size, plan.total_steps) == (2, 100)
    assert any(n.code == "input.arguments-only" for n in explanation.notes)


def test_a_script_reading_an_option_its_parser_lacks_stops_at_start_up(tmp_path: Path) -> None:
    # The copy's train_ppo.py parses --pretrain and --micro_train_batch_size only, then train(args) passes
    # args.search_algo to the trainer (line 7): argparse's Namespace has no such attribute, so the launch stops.
    # getattr(args, "x", None) and an option the script sets itself (args.y = 1) are fine.
    cli = (
        "import argparse\n\n\ndef train(args):\n    args.y = 1\n    getattr(args, 'x', None)\n"
        "    return dict(micro=args.micro_train_batch_size, y=args.y, algo=args.search_algo)\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--pretrain', type=str)\n"
        "    parser.add_argument('--micro_train_batch_size', type=int, default=2)\n"
        "    args = parser.parse_args()\n    train(args)\n"
    )
    root = write_project(
        tmp_path,
        {
            "openrlhf/__init__.py": "",
            "openrlhf/cli/__init__.py": "",
            "openrlhf/cli/train_ppo.py": cli,
            "run.sh": "deepspeed --module openrlhf.cli.train_ppo --pretrain m --micro_train_batch_size 2\n",
        },
    )
    with pytest.raises(ConfigError, match=r"train_ppo\.py:7.*args\.search_algo.*AttributeError"):
        translator.explain(str(root / "run.sh"), "openrlhf@0.5.5")


SINGLE_JOB = """read -r -d '' training_commands <<EOF
openrlhf.cli.train_ppo \\
   --pretrain Qwen/Qwen2.5-1.5B-Instruct \\
   --rollout_batch_size 128 \\
   --micro_rollout_batch_size 8 \\
   --n_samples_per_prompt 4 \\
   --train_batch_size 64 \\
   --micro_train_batch_size 4 \\
   --max_epochs 1 \\
   --prompt_data data/train
EOF
deepspeed {launcher}--module $training_commands
"""


def test_openrlhfs_single_job_entry_trains_on_the_launchers_processes() -> None:
    # OpenRLHF ≤ 0.6.1's openrlhf.cli.train_ppo runs under DeepSpeed alone: its ranks are the launcher's processes
    # (--include localhost:0,1,2,3 → 4), not --actor_num_gpus_per_node's default 8. Each rank loads
    # rollout_batch_size // 4 = 32 prompts: 128 prompts × n 4 = 512 samples; train_batch_size 64 global → 512 / 64 =
    # 8 updates; accumulation 64 // micro 4 // 4 ranks = 4 (openrlhf/cli/train_ppo.py@v0.6.1, deepspeed.py).
    explanation = translator.load(Source(SINGLE_JOB.format(launcher="--include localhost:0,1,2,3 "), "run.sh"))
    assert explanation.spec.framework == "openrlhf"
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (128, 512, 64)
    assert (plan.optimizer_steps_per_step, plan.data_parallel_size, plan.grad_accum_steps) == (8, 4, 4)
    assert "framework.fork" not in {n.code for n in explanation.notes}  # train_ppo is OpenRLHF's own entry
    # with no count on the line, deepspeed starts one process per GPU of the machine: the ranks and the
    # accumulation are unknown, and the step's 128 prompts hold only if the processes divide them
    unknown = translator.load(Source(SINGLE_JOB.format(launcher=""), "run.sh"))
    plan = unknown.spec.plan
    assert (plan.data_parallel_size, plan.grad_accum_steps) == (None, None)
    assert (unknown.spec.topology.gpus_per_node, unknown.spec.topology.training_gpus) == (None, None)
    assert plan.prompts_per_step == 128
    assert unknown.spec.derivations["plan.prompts_per_step"].origin == "assumed"


def test_a_projects_own_entry_started_by_a_process_launcher_trains_on_its_processes(tmp_path: Path) -> None:
    # The project's own openrlhf.cli.train_barl (an OpenRLHF 0.5-era copy) started by `deepspeed --include
    # localhost:0,1,2,3 --module`: the launcher's 4 processes are its ranks, as for train_ppo (the previous test's
    # arithmetic: 128 prompts × 4 = 512 samples, 8 updates of 64, accumulation 64 // 4 // 4 = 4), not Ray's
    # --actor_num_gpus_per_node default 8.
    entry = (
        "import argparse\n\nparser = argparse.ArgumentParser()\n"
        + "".join(
            f"parser.add_argument('--{flag}')\n"
            for flag in (
                "pretrain",
                "rollout_batch_size",
                "micro_rollout_batch_size",
                "n_samples_per_prompt",
                "train_batch_size",
                "micro_train_batch_size",
                "max_epochs",
                "prompt_data",
            )
        )
        + "args = parser.parse_args()\n"
    )
    files = {
        "openrlhf/__init__.py": "",
        "openrlhf/version.txt": "0.5.7.dev\n",
        "openrlhf/cli/__init__.py": "",
        "openrlhf/cli/train_barl.py": entry,
        "run.sh": SINGLE_JOB.replace("openrlhf.cli.train_ppo", "openrlhf.cli.train_barl").format(
            launcher="--include localhost:0,1,2,3 "
        ),
    }
    root = write_project(tmp_path, files)
    plan = translator.explain(str(root / "run.sh"), "openrlhf@0.5.7").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (128, 512, 64)
    assert (plan.optimizer_steps_per_step, plan.data_parallel_size, plan.grad_accum_steps) == (8, 4, 4)


R1V_SBATCH = """#!/bin/bash
#SBATCH --gres=gpu:a100:2
#SBATCH --cpus-per-gpu=10
deepspeed src/open_r1/grpo.py --output_dir out --model_name_or_path Qwen/Qwen2.5-0.5B-Instruct \\
    --dataset_name data --per_device_train_batch_size 4 --gradient_accumulation_steps 2 --num_generations 8
"""


def test_a_batch_jobs_gpus_are_the_processes_of_a_launcher_that_takes_every_gpu() -> None:
    # deepspeed with no GPU count starts one process per visible GPU; Slurm sets CUDA_VISIBLE_DEVICES to the job's
    # --gres=gpu:a100:2 → 2 ranks. TRL 1.16: generation batch 4 × 2 ranks × GA 2 = 16 completions = 2 prompts × 8
    # (grpo_config.py: generation_batch_size = per_device × world × steps_per_generation (GA)).
    explanation = translator.load(Source(R1V_SBATCH, "run.sh"), framework="trl@1.16.0")
    plan = explanation.spec.plan
    assert (plan.data_parallel_size, plan.samples_per_step, plan.prompts_per_step) == (2, 16, 2)
    # the same launch run by hand, outside Slurm: the machine's GPUs decide
    plain = translator.load(Source(R1V_SBATCH.replace("#SBATCH --gres=gpu:a100:2\n", ""), "run.sh"), "trl@1.16.0")
    assert plain.spec.plan.data_parallel_size is None


ACCELERATE_DS = """compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
num_processes: 2
deepspeed_config:
  deepspeed_config_file: ds_stage2.json
"""
TRAIN = (
    "from trl import GRPOConfig, GRPOTrainer, TrlParser\n(args,) = TrlParser((GRPOConfig,)).parse_args_and_config()\n"
    "GRPOTrainer(model='m', reward_funcs=[], args=args).train()\n"
)


@pytest.mark.parametrize("held", ["absent", "present", "written"])
def test_an_accelerate_config_naming_an_absent_deepspeed_file_stops_at_start_up(tmp_path: Path, held: str) -> None:
    # accelerate's DeepSpeed plugin loads deepspeed_config_file when the trainer starts (HfDeepSpeedConfig raises on
    # a path that does not exist): absent from the project, and written by no launch script, the run never trains.
    # Present (or written by the script before the launch) the plan is read: 2 processes × 4 × GA 2 = 16
    # completions = 2 prompts × 8 (TRL 1.16: generation batch = per-device × processes × steps_per_generation).
    write = "cat > ds_stage2.json <<EOF\n{}\nEOF\n" if held == "written" else ""
    files = {
        "acc.yaml": ACCELERATE_DS,
        "train.py": TRAIN,
        "run.sh": write + "accelerate launch --config_file acc.yaml train.py --output_dir o "
        "--per_device_train_batch_size 4 --gradient_accumulation_steps 2 --num_generations 8\n",
    }
    if held == "present":
        files["ds_stage2.json"] = "{}\n"
    root = write_project(tmp_path, files)
    if held == "absent":
        with pytest.raises(
            ConfigError, match=r"deepspeed_config_file names ds_stage2\.json, which is not in the project"
        ):
            translator.explain(str(root / "run.sh"), "trl@1.16.0")
    else:
        assert translator.explain(str(root / "run.sh"), "trl@1.16.0").spec.plan.samples_per_step == 16


NEMO_ENTRY = """import argparse
import os

from nemo_rl.utils.config import load_config

parser = argparse.ArgumentParser()
parser.add_argument("--config", type=str, default=None)
args, overrides = parser.parse_known_args()
if not args.config:
    args.config = os.path.join(os.path.dirname(__file__), "my_recipe.yaml")
config = load_config(args.config)
"""


def test_a_project_entrys_own_default_config_is_the_runs(tmp_path: Path) -> None:
    # The project's NeMo-RL entry, launched without --config, loads my_recipe.yaml beside itself (not the release's
    # grpo_math_1B.yaml, whose 32 prompts × 16 would be the plan otherwise): 64 prompts per step, 8 generations.
    root = write_project(
        tmp_path,
        {
            "examples/mine/run_grpo_mine.py": NEMO_ENTRY,
            "examples/mine/my_recipe.yaml": "grpo:\n  num_prompts_per_step: 64\n  num_generations_per_prompt: 8\n",
            "run.sh": "uv run python examples/mine/run_grpo_mine.py cluster.gpus_per_node=8\n",
        },
    )
    plan = translator.explain(str(root / "run.sh"), "nemo-rl@0.7.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt) == (64, 8)


def test_a_module_the_projects_own_package_lacks_stops_python_m(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # python -m verl.trainer.main_fork from a folder holding verl/ as a regular package: Python imports verl from
    # there (the run folder is first on sys.path with -m) and stops with "No module named" when the file is absent.
    launch = (
        "python3 -m verl.trainer.main_fork data.train_batch_size=64 actor_rollout_ref.rollout.n=4 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=32 trainer.n_gpus_per_node=8\n"
    )
    files = {"verl/__init__.py": "", "verl/trainer/__init__.py": "", "run.sh": launch}
    monkeypatch.chdir(write_project(tmp_path, files))  # rlconf runs where the user runs the script
    with pytest.raises(ConfigError, match=r"No module named verl\.trainer\.main_fork"):
        translator.explain("run.sh", "verl@0.4.1")


SKYRL_CONFIG = """from dataclasses import dataclass, field


@dataclass
class BaseConfig:
    pass


@dataclass
class DataConfig(BaseConfig):
    train_data: list = field(default_factory=list)


@dataclass
class TrainerConfig(BaseConfig):
    train_batch_size: int = 1024
    policy_mini_batch_size: int = 256


@dataclass
class SkyRLTrainConfig(BaseConfig):
    data: DataConfig = field(default_factory=DataConfig)
    trainer: TrainerConfig = field(default_factory=TrainerConfig)

    @classmethod
    def from_cli_overrides(cls, args):
        return cls()
"""
SKYRL_OWN_ENTRY = """import sys
from dataclasses import dataclass, field
from typing import Optional

from skyrl.train.config.config import SkyRLTrainConfig


@dataclass
class RateLimit:
    per_second: int = 1


@dataclass
class MyConfig(SkyRLTrainConfig):
    rate: Optional[RateLimit] = field(default_factory=RateLimit)


def main():
    cfg = MyConfig.from_cli_overrides(sys.argv[1:])


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(
    ("key", "refused"),
    [
        ("trainer.train_batch_size=64", None),  # declared by the base class the project holds
        ("rate.per_second=4", None),  # the entry's own section, through Optional[...]
        ("data.chat_template=x", "data.chat_template"),  # DataConfig declares no chat_template
        ("rate.burst=2", "rate.burst"),
    ],
)
def test_a_skyrl_entrys_own_config_class_decides_which_keys_stop_it(
    tmp_path: Path, key: str, refused: str | None
) -> None:
    # skyrl's from_cli_overrides builds the class with build_nested_dataclass, which raises ValueError "Invalid fields
    # {...} for X" on a key a level's dataclass lacks (skyrl/train/config/config.py@skyrl-v0.3.0): the project's own
    # subclass MyConfig (its own field `rate`) and the skyrl copy it imports decide
    root = write_project(
        tmp_path,
        {
            "skyrl/__init__.py": "",
            "skyrl/train/__init__.py": "",
            "skyrl/train/config/__init__.py": "",
            "skyrl/train/config/config.py": SKYRL_CONFIG,
            "entry/__init__.py": "",
            "entry/main_mine.py": SKYRL_OWN_ENTRY,
            "run.sh": f"cd $(dirname $0)\npython -m entry.main_mine trainer.policy_mini_batch_size=32 {key}\n",
        },
    )
    if refused is None:
        translator.explain(str(root / "run.sh"), "skyrl@0.3.0")
    else:
        with pytest.raises(ConfigError, match=rf"declare no '{re.escape(refused)}'"):
            translator.explain(str(root / "run.sh"), "skyrl@0.3.0")


_TRL016_CHECK = """
    def __init__(self, model, args):
        global_batch_size = args.per_device_train_batch_size * self.accelerator.num_processes
        possible_values = [n for n in range(2, global_batch_size + 1) if global_batch_size % n == 0]
        if self.num_generations not in possible_values:
            raise ValueError(
                f"The global train batch size ({self.accelerator.num_processes} x {args.per_device_train_batch_size}) "
                f"must be evenly divisible by the number of generations per prompt ({self.num_generations}). Given "
                f"the current train batch size, the valid values for the number of generations are: {possible_values}."
            )
"""


@pytest.mark.parametrize("kept", [True, False])
def test_a_trainer_copy_that_keeps_its_releases_check_stops_as_that_release(
    tmp_path: Path, kept: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The project's trainer forms batches as TRL 0.16 does (fixtures/trl/fork_beside_script: 3 processes × 4
    # completions = a global batch of 12). num_generations 5 divides no 12: TRL 0.16's __init__ raises "The global
    # train batch size (3 x 4) must be evenly divisible by the number of generations per prompt (5)" (0.16's
    # wording, grpo_trainer.py@v0.16.0:430-433). A copy holding that check stops at start-up whatever trl is
    # installed; a copy without it is read, the error left to `check`.
    import shutil

    shutil.copytree(Path(__file__).resolve().parent.parent / "fixtures" / "trl" / "fork_beside_script", tmp_path / "p")
    root = tmp_path / "p"
    (root / ".git").mkdir()
    trainer = root / "src" / "xr" / "x_trainer.py"
    if kept:
        trainer.write_text(
            trainer.read_text().replace(
                "class XGRPOTrainer(GRPOTrainer):\n", "class XGRPOTrainer(GRPOTrainer):" + _TRL016_CHECK
            )
        )
    run = root / "scripts" / "run.sh"
    run.write_text(run.read_text().replace("--num_generations 6", "--num_generations 5"))
    monkeypatch.chdir(root)  # the script names src/xr/grpo.py from the project's top
    if kept:
        with pytest.raises(ConfigError, match=r"the project's own code keeps this check: src/xr/x_trainer\.py"):
            translator.explain(str(run))
    else:
        assert translator.explain(str(run)).spec.plan.samples_per_prompt == 5


def test_a_skyrl_copy_that_renames_legacy_keys_first_is_not_judged_by_its_dataclasses(tmp_path: Path) -> None:
    # A later upstream's from_cli_overrides translates legacy flat keys (generator.num_inference_engines →
    # generator.inference_engine.num_engines) before build_nested_dataclass sees them: which keys it takes is not
    # the dataclasses' alone, so a key they lack is read, not refused
    translating = SKYRL_CONFIG.replace(
        "        return cls()", "        args = translate_legacy_config(args)\n        return cls()"
    )
    root = write_project(
        tmp_path,
        {
            "skyrl/__init__.py": "",
            "skyrl/train/__init__.py": "",
            "skyrl/train/config/__init__.py": "",
            "skyrl/train/config/config.py": translating,
            "entry/__init__.py": "",
            "entry/main_mine.py": SKYRL_OWN_ENTRY,
            "run.sh": "cd $(dirname $0)\npython -m entry.main_mine data.chat_template=x\n",
        },
    )
    translator.explain(str(root / "run.sh"), "skyrl@0.3.0")


def test_a_file_the_entrys_own_parser_opens_from_another_folder_stops_the_read(tmp_path: Path) -> None:
    # The project's own OpenRLHF entry src/train_ppo.py opens --input_template as it parses
    # (type=argparse.FileType('r')); run from the project's top, template/chat.in is not there (the project holds
    # src/template/chat.in): argparse exits at start-up. Named from the top (src/template/chat.in) it is read.
    entry = (
        "import argparse\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--input_template', type=argparse.FileType('r'), default=None)\n"
        + "".join(
            f"parser.add_argument('--{flag}', type=int)\n"
            for flag in (
                "rollout_batch_size",
                "n_samples_per_prompt",
                "train_batch_size",
                "micro_train_batch_size",
                "micro_rollout_batch_size",
                "actor_num_gpus_per_node",
            )
        )
        + "args = parser.parse_args()\n"
    )
    launch = (
        "deepspeed src/train_ppo.py --input_template {} --rollout_batch_size 8 --n_samples_per_prompt 4 "
        "--train_batch_size 32 --micro_train_batch_size 2 --micro_rollout_batch_size 4 --actor_num_gpus_per_node 4\n"
    )
    root = write_project(tmp_path, {"src/train_ppo.py": entry, "src/template/chat.in": "User: {}\n"})
    (root / "run.sh").write_text(launch.format("template/chat.in"))
    with pytest.raises(ConfigError, match=r"--input_template template/chat\.in: src/train_ppo\.py's parser opens it"):
        translator.explain(str(root / "run.sh"))
    (root / "run.sh").write_text(launch.format("src/template/chat.in"))
    assert translator.explain(str(root / "run.sh")).spec.framework == "openrlhf"


@pytest.mark.parametrize("holds_folder", [True, False])
def test_a_launched_script_the_project_holds_nowhere_stops_the_run_where_its_folder_is_the_projects(
    tmp_path: Path, holds_folder: bool
) -> None:
    # The launch runs src/open_r1/grpo_missing.py from the project's root. Where the project holds src/open_r1/
    # (under another folder) with other scripts but not this one, Python cannot open the file: refused. A project
    # without that folder launches a checkout the user makes beside it (Open-R1's own): read as given.
    files = {"run.sh": "torchrun --nproc_per_node 2 src/open_r1/grpo_missing.py --num_generations 4\n"}
    if holds_folder:
        files["src/lab/src/open_r1/grpo.py"] = "from trl import GRPOTrainer\n"
    root = write_project(tmp_path, files)
    if holds_folder:
        with pytest.raises(ConfigError, match=r"src/open_r1/grpo_missing\.py.*holds nowhere.*can't open file"):
            translator.explain(str(root / "run.sh"), "trl@0.18.0")
    else:
        assert translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.framework == "trl"


def test_a_module_the_script_imports_that_no_python_compiles_stops_the_run(tmp_path: Path) -> None:
    # train.py puts its folder's parent's parent on sys.path (os.path.join(os.path.dirname(__file__), "..", ".."))
    # and imports pkg.helpers, whose call gives `retries` twice (line 4): ast.parse accepts the file, Python's
    # compiler does not ("keyword argument repeated"), so the import stops the run. Given once, it reads.
    helpers = "def fetch(**kwargs):\n    return kwargs\n\nDATA = fetch(url='x', retries=1,\n    retries=2)\n"
    for name, text in (("twice", helpers), ("once", helpers.replace(",\n    retries=2", ""))):
        root = write_project(
            tmp_path / name,
            {
                "pkg/__init__.py": "",
                "pkg/helpers.py": text,
                "pkg/scripts/train.py": (
                    "import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..'))\n"
                    "from pkg.helpers import DATA\nfrom trl import GRPOConfig, GRPOTrainer\n\n"
                    "GRPOTrainer(model='m', args=GRPOConfig(output_dir='o', num_generations=2)).train()\n"
                ),
            },
        )
        script = root / "pkg" / "scripts" / "train.py"
        if name == "twice":
            with pytest.raises(ConfigError, match=r"pkg/helpers\.py:5.*keyword argument repeated: retries"):
                translator.explain(str(script), "trl@0.18.0")
        else:
            translator.explain(str(script), "trl@0.18.0")


@pytest.mark.parametrize("indented", [False, True])
def test_a_module_of_an_installed_src_layout_package_with_an_indentation_error_stops_the_run(
    tmp_path: Path, indented: bool
) -> None:
    # The project installs src/ (setup.py: package_dir={"": "src"}); torchrun runs src/open_r1/grpo.py, which
    # imports open_r1.modules from that install; modules/__init__.py imports qwen.py, whose `if` has no indented
    # body (line 3): IndentationError at start-up in every Python release. Indented, it reads.
    body = "        return 0\n" if indented else "    return 0\n"
    root = write_project(
        tmp_path,
        {
            "setup.py": "from setuptools import find_packages, setup\n\nsetup(package_dir={'': 'src'}, "
            "packages=find_packages('src'))\n",
            "src/open_r1/__init__.py": "",
            "src/open_r1/modules/__init__.py": "from .qwen import check\n",
            "src/open_r1/modules/qwen.py": "def check(points):\n    if len(points) < 2:\n" + body,
            "src/open_r1/grpo.py": "from open_r1.modules import check\nfrom trl import GRPOConfig, GRPOTrainer\n",
            "run.sh": "torchrun --nproc_per_node 2 src/open_r1/grpo.py --num_generations 4\n",
        },
    )
    if indented:
        assert translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.framework == "trl"
    else:
        with pytest.raises(ConfigError, match=r"modules/qwen\.py:3.*no Python compiles \(expected an indented block"):
            translator.explain(str(root / "run.sh"), "trl@0.18.0")


# src/app/grpo.py imports src.app.configs as the repository's root sees it
_OFF_PATH_IMPORT = {
    "src/__init__.py": "",
    "src/app/__init__.py": "",
    "src/app/configs.py": "X = 1\n",
    "src/app/grpo.py": "from src.app.configs import X\nfrom trl import GRPOConfig, GRPOTrainer\n",
}


@pytest.mark.parametrize("installable", [False, True, "declared"])
def test_an_import_of_the_projects_module_off_a_scripts_path_stops_the_run(
    tmp_path: Path, installable: bool | str
) -> None:
    # accelerate launch src/app/grpo.py: Python puts src/app/ on sys.path, not the repository's root, so
    # `from src.app.configs import X` finds no module src (ModuleNotFoundError). A project with a pyproject.toml at
    # its root may be installed (pip install -e .), and one whose requirements name the module's package may have
    # it installed: neither is judged.
    files = {
        **_OFF_PATH_IMPORT,
        "run.sh": "accelerate launch --num_processes 2 src/app/grpo.py --num_generations 4\n",
    }
    if installable is True:
        files["pyproject.toml"] = "[project]\nname = 'app'\n"
    if installable == "declared":
        files["requirements.txt"] = "trl==0.18.0\nsrc>=1.0\n"
    root = write_project(tmp_path, files)
    if installable:
        translator.explain(str(root / "run.sh"), "trl@0.18.0")
    else:
        with pytest.raises(ConfigError, match=r"src\.app\.configs.*ModuleNotFoundError"):
            translator.explain(str(root / "run.sh"), "trl@0.18.0")


@pytest.mark.parametrize(
    ("kind", "flags", "found"),
    [
        ("DEEPSPEED", "", True),
        ("MULTI_GPU", "", False),
        ("MULTI_GPU", " --use_deepspeed", True),
        ("DEEPSPEED", " --multi_gpu", False),  # the line picks another backend over the config's
        ("DEEPSPEED", " --cpu", False),  # no DeepSpeed launcher on CPU
    ],
)
def test_accelerates_deepspeed_launcher_puts_its_folder_on_the_path(
    tmp_path: Path, kind: str, flags: str, found: bool
) -> None:
    # accelerate's DeepSpeed launcher adds the folder it runs in to PYTHONPATH (prepare_deepspeed_cmd_env,
    # accelerate/utils/launch.py:557@v1.15.0), so `from src.app.configs import X` in src/app/grpo.py, launched from
    # the repository's root, is found. accelerate runs it for a DEEPSPEED config unless the line picks another
    # backend, or for --use_deepspeed, never with --cpu (accelerate/commands/launch.py:1220-1228, 1393-1398); its
    # other launchers do not, and Python stops (ModuleNotFoundError).
    files = {
        **_OFF_PATH_IMPORT,
        "acc.yaml": f"distributed_type: {kind}\nnum_processes: 2\n",
        "run.sh": f"accelerate launch --config_file acc.yaml{flags} src/app/grpo.py --num_generations 4\n",
    }
    root = write_project(tmp_path, files)
    if found:
        assert translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.plan.data_parallel_size == 2
    else:
        with pytest.raises(ConfigError, match=r"src\.app\.configs.*ModuleNotFoundError"):
            translator.explain(str(root / "run.sh"), "trl@0.18.0")


def test_a_script_that_hands_the_training_to_a_module_is_read_with_that_modules_config(tmp_path: Path) -> None:
    # scripts/train.py only calls app.grpo.main, which parses its own --steps and builds GRPOConfig(
    # per_device_train_batch_size=2, gradient_accumulation_steps=4, num_generations=8, max_steps=<from --steps in an
    # if-chain>): one process, 2 × 4 = 8 completions per optimizer step = 1 prompt × 8 (trl 0.18: a generation
    # round spans steps_per_generation = accumulation 4 micro-steps, one optimizer step); --steps 50 takes the if:
    # max_steps 50 optimizer steps = 50 rounds
    module = (
        "import argparse\nfrom trl import GRPOConfig, GRPOTrainer\n\n\ndef main():\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument('--steps', type=int, default=None)\n"
        "    args = parser.parse_args()\n    if args.steps:\n        max_steps = args.steps\n    else:\n"
        "        max_steps = 300\n    config = GRPOConfig(output_dir='o', per_device_train_batch_size=2,\n"
        "        gradient_accumulation_steps=4, num_generations=8, max_steps=max_steps)\n"
        "    GRPOTrainer(model='m', args=config).train()\n"
    )
    root = write_project(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "src/app/__init__.py": "",
            "src/app/grpo.py": module,
            "scripts/train.py": "from app.grpo import main\n\nmain()\n",
            "run.sh": "python scripts/train.py --steps 50\n",
        },
    )
    plan = translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.micro_batch_per_device, plan.grad_accum_steps) == (
        1,
        8,
        2,
        4,
    )
    assert plan.total_steps == 50


def test_an_openrlhf_launch_of_a_script_its_project_no_longer_holds_stops_the_run(tmp_path: Path) -> None:
    # the fork moved examples/train_ppo_ray.py to old/train_ppo_ray.py; examples/ still holds other scripts: Python
    # cannot open the path the launch names
    root = write_project(
        tmp_path,
        {
            "examples/train_sft.py": "",
            "old/train_ppo_ray.py": "",
            "run.sh": "python3 examples/train_ppo_ray.py --pretrain m --actor_num_gpus_per_node 2\n",
        },
    )
    with pytest.raises(ConfigError, match=r"examples/train_ppo_ray\.py.*holds nowhere"):
        translator.explain(str(root / "run.sh"), "openrlhf@0.7.0")


def test_an_accelerate_config_the_script_leaves_unknown_is_not_opened(tmp_path: Path) -> None:
    # ACCELERATE_CONFIG comes from the environment (or a branch): which file is not known, so it is not opened (no
    # "not found"); the launch's own --num_processes 2 gives the processes, 2 data-parallel ranks; the machines
    # the file might name are unknown
    root = write_project(
        tmp_path,
        {
            "train.py": "from trl import GRPOConfig, GRPOTrainer\n",
            "run.sh": (
                'accelerate launch --config_file "${ACCELERATE_CONFIG}" --num_processes 2 train.py '
                "--per_device_train_batch_size 4 --num_generations 4\n"
            ),
        },
    )
    explanation = translator.explain(str(root / "run.sh"), "trl@0.18.0")
    assert explanation.spec.plan.data_parallel_size == 2
    assert explanation.spec.topology.nodes is None
    assert "input.accelerate-config-unknown" in {n.code for n in explanation.notes}


_ROWS_TRAINER = _VERL_07_TRAINER.replace(
    "        self.sizes.append(ppo_mini_batch_size)\n",
    "        rows = self.config.actor_rollout_ref.actor.get('rows_per_update', None)\n"
    "        if rows == 0:\n            ppo_mini_batch_size = int(batch.batch_size[0])\n"
    "        elif rows:\n            ppo_mini_batch_size = int(rows)\n"
    "        self.sizes.append(ppo_mini_batch_size)\n",
)


@pytest.mark.parametrize(
    ("rows", "update"), [("null", (32, 2, 8)), ("0", (None, None, None)), ("48", (None, None, None))]
)
def test_a_fork_keys_branches_its_value_leaves_are_not_its_code(
    tmp_path: Path, rows: str, update: tuple[int | None, ...]
) -> None:
    # The copy's own actor.rows_per_update (null in its config) is read into a local and tested `rows == 0` and
    # `elif rows:`: null takes neither branch, so the mini-batch is upstream 0.7's (8 prompts × rollout.n 4 = 32
    # samples; 16 × 4 = 64 per step → 2 optimizer steps; 32 / 2 ranks / micro 2 = 8 micro-batches). 0 or 48 take a
    # branch that sizes the mini-batch its own way: unknown.
    config = (
        "data:\n  train_batch_size: 1024\nactor_rollout_ref:\n  rollout:\n    n: 1\n    name: null\n  actor:\n"
        f"    ppo_mini_batch_size: 256\n    ppo_micro_batch_size_per_gpu: null\n    rows_per_update: {rows}\n"
        "trainer:\n  n_gpus_per_node: 8\n  nnodes: 1\n"
    )
    entry = (
        "import hydra\n\nfrom verl.trainer.ray_trainer import RayPPOTrainer\n\n\n"
        '@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)\n'
        "def main(config):\n    RayPPOTrainer().fit()\n"
    )
    root = write_project(
        tmp_path,
        {
            "verl/__init__.py": "",
            "verl/version/version": "0.7.1\n",
            "verl/trainer/__init__.py": "",
            "verl/trainer/config/ppo_trainer.yaml": config,
            "verl/trainer/main_ppo.py": entry,
            "verl/trainer/ray_trainer.py": _ROWS_TRAINER.format(extra=""),
            "run.sh": (
                "python3 -m verl.trainer.main_ppo data.train_batch_size=16 actor_rollout_ref.rollout.n=4 "
                "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.actor.ppo_mini_batch_size=8 "
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 trainer.n_gpus_per_node=2 trainer.nnodes=1\n"
            ),
        },
    )
    plan = translator.explain(str(root / "run.sh"), "verl@0.7.1").spec.plan
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step, plan.grad_accum_steps) == update


def test_a_script_given_itself_that_hands_the_training_to_a_module_is_read_through_it(tmp_path: Path) -> None:
    # main.py builds no config: it imports model/loader.py (which imports unsloth) and then train_module/train.py
    # (which imports trl and builds GRPOConfig(per_device_train_batch_size=1, gradient_accumulation_steps=1,
    # num_generations=4, max_steps=50)). Python runs unsloth's import first, so Unsloth patches GRPOConfig and raises
    # the per-device batch to num_generations (unsloth/models/rl.py: 1 × 1 × 1 is no multiple of 4): 4 completions
    # per micro-step = 1 prompt × 4, one process as written, 50 steps. The train module given itself (no __main__
    # block) runs in the one script that imports it, main.py: the same.
    root = write_project(
        tmp_path,
        {
            "model/__init__.py": "",
            "model/loader.py": "from unsloth import FastLanguageModel\n\n\ndef load():\n    return FastLanguageModel\n",
            "train_module/__init__.py": "",
            "train_module/train.py": (
                "from trl import GRPOConfig, GRPOTrainer\n\n\ndef train_model(model):\n"
                "    args = GRPOConfig(output_dir='o', per_device_train_batch_size=1, gradient_accumulation_steps=1,\n"
                "                      num_generations=4, max_steps=50)\n"
                "    GRPOTrainer(model=model, args=args, reward_funcs=[]).train()\n"
            ),
            "main.py": (
                "from model.loader import load\nfrom train_module.train import train_model\n\n\n"
                "def main():\n    train_model(load())\n\n\nif __name__ == '__main__':\n    main()\n"
            ),
        },
    )
    for given in ("main.py", "train_module/train.py"):
        explanation = translator.explain(str(root / given))
        plan = explanation.spec.plan
        assert explanation.spec.framework == "unsloth", given
        assert (plan.prompts_per_step, plan.samples_per_prompt, plan.micro_batch_per_device, plan.total_steps) == (
            1,
            4,
            4,
            50,
        )


def test_a_script_run_by_its_path_cannot_import_relatively(tmp_path: Path) -> None:
    # accelerate launch src/training/grpo.py: Python runs the file as __main__ of no package, so `from .cli import
    # grpo` raises ImportError (attempted relative import with no known parent package) before training; a script
    # that sets __package__ first (PEP 366) may
    script = "from .cli import grpo\nfrom trl import GRPOConfig\n\nGRPOConfig(output_dir='o', num_generations=4)\n"
    files = {
        "src/training/__init__.py": "",
        "src/training/cli.py": "grpo = 1\n",
        "src/training/grpo.py": script,
        "run.sh": "accelerate launch --num_processes 2 src/training/grpo.py --per_device_train_batch_size 4\n",
    }
    root = write_project(tmp_path / "relative", files)
    with pytest.raises(ConfigError, match=r"grpo\.py:1.*attempted relative import with no known parent package"):
        translator.explain(str(root / "run.sh"), "trl@0.18.0")
    files["src/training/grpo.py"] = "__package__ = 'training'\n" + script
    root = write_project(tmp_path / "pep366", files)
    assert translator.explain(str(root / "run.sh"), "trl@0.18.0").spec.framework == "trl"


def test_a_config_at_the_authors_absolute_path_is_read_as_the_projects_file_below_it(tmp_path: Path) -> None:
    # accelerate --config_file /home/author/open-r1/recipes/accelerate_configs/zero2.yaml: not on this machine, but the
    # project holds recipes/accelerate_configs/zero2.yaml, the same path below the author's checkout: read, with a
    # note, so its 3 processes decide the ranks (2 completions × 3 = 6 per micro-step). A tail the project does not
    # hold stays a file not found.
    zero2 = "distributed_type: MULTI_GPU\nnum_machines: 1\nnum_processes: 3\n"
    launch = (
        "accelerate launch --config_file /home/author/open-r1/recipes/accelerate_configs/{name}.yaml grpo.py "
        "--per_device_train_batch_size 2 --num_generations 3 --gradient_accumulation_steps 1\n"
    )
    root = write_project(
        tmp_path,
        {
            "recipes/accelerate_configs/zero2.yaml": zero2,
            "grpo.py": "from trl import GRPOConfig, GRPOTrainer\n",
            "run.sh": launch.format(name="zero2"),
            "missing.sh": launch.format(name="zero3"),
        },
    )
    explanation = translator.explain(str(root / "run.sh"), "trl@0.18.0")
    assert (explanation.spec.plan.data_parallel_size, explanation.spec.plan.samples_per_optimizer_step) == (3, 6)
    assert any(
        n.code == "input.config-in-project" and "recipes/accelerate_configs/zero2.yaml" in n.message
        for n in explanation.notes
    )
    with pytest.raises(ConfigError, match=r"accelerate config '/home/author/.*zero3\.yaml' not found"):
        translator.explain(str(root / "missing.sh"), "trl@0.18.0")


@pytest.mark.parametrize("loops", [True, False])
def test_a_verl_01_copy_whose_actor_loops_over_ppo_epochs_makes_that_many_passes(tmp_path: Path, loops: bool) -> None:
    # verl 0.1's dp_actor.update_policy makes one pass whatever ppo_epochs says; a copy that added 0.3.0's loop
    # (for epoch in range(self.config.ppo_epochs)) makes 2. 64 prompts × 4 = 256 samples in mini-batches of 16 × 4 =
    # 64: ceil(256 / 64) = 4 updates a pass, 8 with 2 passes
    body = "        for epoch in range(self.config.ppo_epochs):\n" if loops else "        if True:\n"
    actor = (
        "class DataParallelPPOActor:\n    def update_policy(self, data):\n"
        "        dataloader = data.split(self.config.ppo_mini_batch_size)\n"
        f"{body}            for batch_idx, d in enumerate(dataloader):\n                pass\n"
    )
    launch = (
        "python3 -m verl.trainer.main_ppo data.train_files=x.parquet data.train_batch_size=64 "
        "actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.ppo_mini_batch_size=16 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 actor_rollout_ref.actor.ppo_epochs=2 "
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 "
        "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 trainer.n_gpus_per_node=8 trainer.nnodes=1\n"
    )
    root = write_project(
        tmp_path,
        {
            "verl/__init__.py": "",
            "verl/version/version": "0.1\n",
            "verl/trainer/__init__.py": "",
            "verl/trainer/main_ppo.py": "import hydra\n\n@hydra.main(config_path='config', config_name='ppo_trainer')\n"
            "def main(config):\n    pass\n",
            "verl/workers/actor/dp_actor.py": actor,
            "run.sh": launch,
        },
    )
    explanation = translator.explain(str(root / "run.sh"))
    plan = explanation.spec.plan
    codes = {n.code for n in explanation.notes}
    assert (plan.epochs_per_step, plan.optimizer_steps_per_step) == ((2, 8) if loops else (1, 4))
    assert ("semantics.copy-epoch-loop" in codes) is loops and ("semantics.ignored-key" in codes) is not loops
