"""Fork keys and fork trainers that form batches (translator/dialects/forkbatch.py) and their certainty."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from tests.conftest import write_project
from translator import api
from translator.certainty import plan_certainty
from translator.dialects.fork_tables import UPSTREAM_WORKER
from translator.dialects.forkbatch import _ambiguity, worker_bands
from translator.errors import ConfigError
from translator.sources.code import (
    KeyEffects,
    Project,
    RunConfig,
    batch_touches,
    decided_away,
    instance_settings,
    normalisation_touches,
    normalising_functions,
    untaken,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "verl" / "fork_batches" / "scripts"


def _certainty(name: str) -> dict[str, str]:
    explanation = api.explain(str(FIXTURES / name), "verl@0.4.1")
    return {k: c.level for k, c in plan_certainty(explanation.spec, explanation.notes).items()}


def test_verified_fork_trainer_is_not_assumed() -> None:
    # PlainTrainer.fit only repeats by rollout.n (upstream's statement): framework.fork-verified drops "assumed";
    # prompts_per_step is read from data.train_batch_size, the samples derived.
    levels = _certainty("plain.sh")
    assert levels["prompts_per_step"] == "read"
    assert levels["samples_per_step"] == "derived"


def test_unverified_fork_trainer_is_unknown() -> None:
    # MultiTaskTrainer joins one batch per task: the step's counts are unknown, dp (the GPU arithmetic) stays.
    levels = _certainty("multi_task.sh")
    assert levels["prompts_per_step"] == "unknown"
    assert levels["data_parallel_size"] != "unknown"


def test_batch_key_warning_names_the_line() -> None:
    explanation = api.explain(str(FIXTURES / "batch_key.sh"), "verl@0.4.1")
    note = next(n for n in explanation.notes if n.code == "framework.fork-batch-key")
    # ray_trainer.py line 17 holds `batch = batch.repeat(repeat_times=copies, ...)` under `if copies:`
    assert "verl/trainer/ray_trainer.py:17 repeats rows (repeat)" in note.message


def test_touch_kinds() -> None:
    code = (
        "batch = batch.repeat(repeat_times=k)\nbatch = batch[mask]\nx = 'a,b'.split(',')\n"
        "cfg.mini_batch_size *= 2\nout = DataProto.concat(parts)\n"
    )
    kinds = [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")]
    # a string split is not a batch split; the rest are one of each kind
    assert kinds == [(1, "group"), (2, "rows"), (4, "size"), (5, "batches")]


def test_a_forward_pass_forms_no_batch() -> None:
    # a micro_batch_size given to a forward-only pass (log-probabilities, no update) sizes no optimizer step; a
    # training pass's size does
    code = (
        "out = self.forward_backward_batch(data, forward_only=True, micro_batch_size=m)\n"
        "out = self.forward_backward_batch(data, forward_only=False, micro_batch_size=m)\n"
    )
    kinds = [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")]
    assert kinds == [(2, "size")]


def test_a_held_out_loader_forms_no_training_batch() -> None:
    # a monitoring or validation loader's batch_size sizes the held-out data only; the training loader's counts
    code = (
        "self.monitor_dataloader = DataLoader(dataset=m, batch_size=len(m))\n"
        "self.val_dataloader = DataLoader(dataset=v, batch_size=len(v))\n"
        "self.train_dataloader = DataLoader(dataset=t, batch_size=size)\n"
    )
    kinds = [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")]
    assert kinds == [(3, "size")]


# Small projects written for these tests (each a copy of a framework with its own batch-sizing code).
FORKS = Path(__file__).resolve().parent / "data" / "forks"
WORKERS = FORKS / "verl_workers" / "scripts"


def test_trainer_group_code_leaves_the_workers_sizes_known() -> None:
    # votes.sh: the copy's trainer repeats each batch by data.vote_copies (ray_trainer.py:12), so the group and the
    # step's samples are unknown; its workers size mini-batches as upstream's do (the doubling branch is off), so
    # the per-update quantities are read: mini 8 prompts × n 4 = 32 samples per optimizer step, ÷ 2 ranks = 16 per
    # rank, micro 2 per GPU → 16 ÷ 2 = 8 micro-batches; the step's 16 prompts are data.train_batch_size.
    explanation = api.explain(str(WORKERS / "votes.sh"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (
        plan.prompts_per_step,
        plan.samples_per_optimizer_step,
        plan.micro_batch_per_device,
        plan.grad_accum_steps,
    ) == (16, 32, 2, 8)
    assert plan.samples_per_prompt is None and plan.samples_per_step is None
    assert plan.optimizer_steps_per_step is None
    assert any(n.code == "framework.fork-workers-verified" for n in explanation.notes)


def test_a_fork_key_in_place_of_rollout_n_is_the_group_size() -> None:
    # trajectories.sh: the copy's trainer repeats the prompts by rollout.n_trajectories where upstream repeats by
    # rollout.n (ray_trainer.py:18) before joining them with the generated samples row by row, and keeps no repeat by
    # rollout.n in fit (validation's repeat by val_kwargs.n is not the step's): 4 samples per prompt. The workers
    # size batches as upstream's, from rollout.n 1: mini 8 prompts × 1 = 8 samples per optimizer step.
    #   16 prompts × 4 = 64 samples per step; 64 / 8 = 8 optimizer steps; 8 / 2 ranks = 4 per rank / micro 2 = 2.
    explanation = api.explain(str(FORKS / "verl_group_key" / "scripts" / "trajectories.sh"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (16, 4, 64)
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step) == (8, 8)
    assert (plan.data_parallel_size, plan.micro_batch_per_device, plan.grad_accum_steps) == (2, 2, 2)
    note = next(n for n in explanation.notes if n.code == "framework.fork-group-key")
    assert "ray_trainer.py:18" in note.message
    assert explanation.certainty["samples_per_prompt"].level == "derived"


def test_a_dataset_class_filter_decides_only_the_run_length() -> None:
    # dataset_key.sh: as trajectories.sh (the same plan), plus the copy's data.drop_long, which filters rows inside
    # the copy's RLHFDataset (verl/utils/dataset.py:9) when the dataset is built: the dataset's size, so only the
    # run's length in steps is unknown; every per-step quantity stays.
    explanation = api.explain(str(FORKS / "verl_group_key" / "scripts" / "dataset_key.sh"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (16, 4, 64)
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step, plan.grad_accum_steps) == (8, 8, 2)
    warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-key")
    assert "verl/utils/dataset.py:9" in warning.message and "(total_steps)" in warning.message


def test_a_repeat_by_a_key_of_one_leaves_the_rows() -> None:
    # one_vote.sh: the copy's trainer repeats by data.vote_copies 1 after upstream's repeat by rollout.n: the
    # rows stay, so the plan is upstream's: 16 prompts × 4 = 64 samples; mini 8 × 4 = 32 per optimizer step → 2;
    # 32 / 2 ranks = 16 per rank / micro 2 = 8.
    explanation = api.explain(str(WORKERS / "one_vote.sh"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (plan.samples_per_prompt, plan.samples_per_step, plan.optimizer_steps_per_step) == (4, 64, 2)
    assert (plan.samples_per_optimizer_step, plan.micro_batch_per_device, plan.grad_accum_steps) == (32, 2, 8)
    assert not any(n.code == "framework.fork-batch-key" for n in explanation.notes)


def test_a_group_size_of_one_passed_to_a_call_forms_no_group() -> None:
    # a multi-turn rollout's later turns ask one completion per input (n=1): no group is formed; n=k is one
    code = "with self.update_sampling_params(n=1, max_tokens=k):\n    pass\nout = llm.generate(p, n=k)\n"
    touches = batch_touches(list(ast.parse(code).body), "f.py")
    assert [(t.line, t.kind, t.signature) for t in touches] == [(3, "group", "generate(n=)")]


def test_worker_sizing_of_its_own_is_unknown_with_its_line() -> None:
    # double.sh: double_mini=True takes fsdp_workers.py:11 `ppo_mini_batch_size *= 2`, a shape no upstream worker
    # has: the per-update quantities are unknown; the trainer is upstream's, so 16 prompts × n 4 = 64 samples stay.
    explanation = api.explain(str(WORKERS / "double.sh"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (16, 4, 64)
    assert plan.samples_per_optimizer_step is None and plan.optimizer_steps_per_step is None
    assert plan.micro_batch_per_device is None and plan.grad_accum_steps is None
    warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-code")
    assert "verl/workers/fsdp_workers.py:11 ppo_mini_batch_size *= 2" in warning.message


def test_easyr1_shaped_worker_sizing_is_compared_with_its_bands() -> None:
    # EasyR1's workers multiply the global batch by n and divide by the data-parallel ranks (size() ÷ Ulysses);
    # a fork that also doubles it under a key has one shape (line 5) outside every band.
    code = (
        "class Worker:\n    def __init__(self):\n        self.config.actor.global_batch_size *= self.config.rollout.n\n"
        "        if self.config.actor.two_views:\n            self.config.actor.global_batch_size *= 2\n"
        "        self.config.actor.global_batch_size_per_device = (\n"
        "            self.config.actor.global_batch_size // self.device_mesh.size() * "
        "self.ulysses_sequence_parallel_size)\n"
    )
    tree = ast.parse(code)
    table = UPSTREAM_WORKER["easyr1"]
    [function] = normalising_functions(tree, table.anchors)
    known = worker_bands("easyr1", "0.2.0.dev20250316")
    assert known is not None
    extra = [(t.line, t.signature) for t in normalisation_touches(function, "w.py") if t.signature not in known]
    assert extra == [(5, "global_batch_size *= 2")]
    # with the key off, line 5 is in a branch the launch does not take
    assert untaken(function, 5, {"two_views": False}) and not untaken(function, 5, {"two_views": True})


def test_a_value_accumulated_along_the_sequence_is_no_accumulation_count() -> None:
    # an actor's update that accumulates log-ratios along each trajectory (torch.flip/cumsum over dims=[1]) beside
    # verl's own `self.gradient_accumulation = mini // micro`: only the latter sizes anything, and it is upstream's
    code = (
        "class Actor:\n    def update_policy(self, data):\n"
        "        self.gradient_accumulation = self.config.ppo_mini_batch_size // "
        "self.config.ppo_micro_batch_size_per_gpu\n"
        "        accumulated_log_rho = torch.flip(torch.cumsum(torch.flip(log_rho, dims=[1]), dim=1), dims=[1])\n"
        "        grad_accum_steps = 2 * self.gradient_accumulation\n"
    )
    [function] = normalising_functions(ast.parse(code), UPSTREAM_WORKER["verl"].anchors)
    touched = [(t.line, t.signature) for t in normalisation_touches(function, "a.py")]
    assert [line for line, _ in touched] == [3, 5]  # the accumulation counts; line 4 is a per-token value


def test_workers_of_an_unmodelled_release_are_not_compared() -> None:
    # verl 0.1's wheel has no workers package, and from 0.8 the workers are other code: nothing to compare with
    assert worker_bands("verl", "0.1") is None and worker_bands("verl", "0.9.1") is None
    assert worker_bands("verl", "0.5.0") is not None


STRATEGY = FORKS / "openrlhf_strategy" / "scripts"


def test_openrlhf_copy_with_upstream_strategy_keeps_the_per_update_sizes() -> None:
    # more_prompts.sh: --prompt_factor multiplies the rollout's prompts in the copy's trainer (ppo_trainer.py:11),
    # so prompts and samples per step are unknown; its strategy accumulates as upstream's does (--half_accum off):
    # --train_batch_size 16 samples per optimizer step, 2 actor GPUs, micro 2 → 16 ÷ 2 ÷ 2 = 4 micro-batches;
    # the group is --n_samples_per_prompt 4, which the flag does not touch.
    explanation = api.explain(str(STRATEGY / "more_prompts.sh"), "openrlhf@0.7.5")
    plan = explanation.spec.plan
    assert (
        plan.samples_per_prompt,
        plan.samples_per_optimizer_step,
        plan.micro_batch_per_device,
        plan.grad_accum_steps,
        plan.data_parallel_size,
    ) == (4, 16, 2, 4, 2)
    assert plan.prompts_per_step is None and plan.samples_per_step is None
    assert plan.optimizer_steps_per_step is None


def test_openrlhf_copy_with_its_own_accumulation_is_unknown_with_its_line() -> None:
    # half_accum.sh: strategy.py:12 halves the accumulation, a shape no upstream strategy has: the per-update
    # quantities are unknown; the rollout is upstream's: 8 prompts × 4 = 32 samples per step.
    explanation = api.explain(str(STRATEGY / "half_accum.sh"), "openrlhf@0.7.5")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_prompt, plan.samples_per_step) == (8, 4, 32)
    assert plan.samples_per_optimizer_step is None and plan.grad_accum_steps is None
    assert plan.micro_batch_per_device is None and plan.optimizer_steps_per_step is None
    warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-code")
    assert "openrlhf/utils/strategy.py:12 accumulated_gradient = accumulated_gradient // 2" in warning.message


COPY_04 = FORKS / "openrlhf_04_copy" / "scripts"


def test_openrlhf_0_4_copy_sizes_with_upstreams_0_4_statements() -> None:
    # The copy (version.txt 0.4.3) accumulates train batch 16 // micro 2 // 2 actor GPUs = 4 micro-batches, the
    # statement of 0.4.0–0.4.2's utils/deepspeed.py: recognised as upstream's, the per-update sizes stay. The step:
    # 32 samples (rollout_batch_size 32 // (2 GPUs × micro_rollout 4) = 4 loader batches × 4 × 2), 16 per optimizer
    # step → 2 optimizer steps.
    explanation = api.explain(str(COPY_04 / "upstream.sh"))
    plan = explanation.spec.plan
    assert explanation.spec.version == "0.4.3"
    assert (plan.samples_per_step, plan.grad_accum_steps, plan.optimizer_steps_per_step) == (32, 4, 2)
    assert "framework.fork-workers-verified" in {n.code for n in explanation.notes}
    # --half_accum True takes the copy's own branch (deepspeed.py:12), which no upstream release has.
    explanation = api.explain(str(COPY_04 / "half.sh"))
    plan = explanation.spec.plan
    assert plan.grad_accum_steps is None and plan.optimizer_steps_per_step is None
    assert plan.samples_per_step == 32  # the rollout is upstream's
    warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-code")
    assert "openrlhf/utils/deepspeed.py:12" in warning.message
    # 0.4.x is modelled (worked out on its wheels); 0.5.1–0.5.8 still are not.
    assert worker_bands("openrlhf", "0.4.0") is not None and worker_bands("openrlhf", "0.5.3") is None


@pytest.mark.parametrize("where", ["openrlhf/trainer/ray/ppo_critic.py", "openrlhf/trainer/ray/workers.py"])
def test_a_fork_key_that_sizes_only_the_critics_batches_leaves_the_policys_plan(
    tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 0.4.3 copy above, plus a key of its own, --critic_micro_train_batch_size, which the copy's critic (a file
    # named for it, or a class CriticPPOTrainer in another file) takes as its micro-batch: the value model's batches.
    # The policy's plan stays as upstream's 0.4.x arithmetic gives it: --train_batch_size 16 samples per optimizer
    # step, --micro_train_batch_size 2 per rank, 16 // 2 // 2 actor GPUs = 4 micro-batches; with an info note. The
    # same statement in the actor's class is the policy's own sizing: unknown.
    shutil.copytree(COPY_04.parent, tmp_path / "p")
    root = tmp_path / "p"
    name = "CriticPPOTrainer" if where.endswith("workers.py") else "Critic"
    critic = f"class {name}:\n"
    (root / "openrlhf" / "trainer" / "ray").mkdir(parents=True)
    (root / "openrlhf" / "trainer" / "__init__.py").write_text("")
    (root / "openrlhf" / "trainer" / "ray" / "__init__.py").write_text("")
    (root / where).write_text(
        critic
        + "    def __init__(self, args):\n        self.micro_train_batch_size = args.critic_micro_train_batch_size\n"
    )
    entry = root / "openrlhf" / "cli" / "train_ppo_ray.py"
    module = where.removesuffix(".py").replace("/", ".")
    entry.write_text(f"from {module} import {name}\n" + entry.read_text())
    script = root / "scripts" / "critic.sh"
    script.write_text((root / "scripts" / "upstream.sh").read_text() + "   --critic_micro_train_batch_size 1\n")
    script.write_text(script.read_text().replace("--half_accum False\n", "--half_accum False \\\n"))
    monkeypatch.chdir(root)  # the launch runs python3 -m from the project's root
    explanation = api.explain(str(script))
    plan = explanation.spec.plan
    assert (plan.samples_per_optimizer_step, plan.micro_batch_per_device, plan.grad_accum_steps) == (16, 2, 4)
    note = next(n for n in explanation.notes if n.code == "framework.fork-batch-key")
    assert note.severity == "info" and "critic's batches only" in note.message
    # the same statement in the actor's class: the policy's own sizing, unknown
    if where.endswith("workers.py"):
        (root / where).write_text((root / where).read_text().replace(name, "ActorPPOTrainer"))
        entry.write_text(entry.read_text().replace(name, "ActorPPOTrainer"))
        assert api.explain(str(script)).spec.plan.micro_batch_per_device is None


ENGINE = FORKS / "verl_engine" / "scripts"


def test_the_workers_a_branch_of_the_entry_does_not_take_are_not_compared() -> None:
    # run.sh with IMPL unset (auto): main_ppo.py imports the engine workers only when
    # trainer.use_legacy_worker_impl is "disable"
    # (config.trainer.get(..., "auto") == "disable"); with auto the legacy workers run, sized as upstream's (their
    # loss loop's `batch_size = mini.shape[0]` measures a formed batch): mini 8 prompts x n 4 = 32 samples per
    # optimizer step, 16 prompts x 4 = 64 samples -> 2 optimizer steps; 32 / 2 ranks = 16 per rank / micro 2 = 8.
    explanation = api.explain(str(ENGINE / "run.sh"), "verl@0.6.1")
    plan = explanation.spec.plan
    assert (plan.samples_per_optimizer_step, plan.optimizer_steps_per_step, plan.grad_accum_steps) == (32, 2, 8)
    assert any(n.code == "framework.fork-workers-verified" for n in explanation.notes)
    # IMPL=disable: the engine workers run; their mini-batch x 3 is no upstream shape: the per-update sizes unknown
    explanation = api.explain(str(ENGINE / "run.sh"), "verl@0.6.1", env={"IMPL": "disable"})
    plan = explanation.spec.plan
    assert plan.samples_per_optimizer_step is None and plan.grad_accum_steps is None
    warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-code")
    assert "verl/workers/engine_workers.py:7" in warning.message


def test_a_split_inside_one_element_of_an_iteration_is_no_batch_split() -> None:
    # `text.split(self.trigger)` for each decoded text splits a string inside one sample (line 1); a split of the
    # loop's batch (line 3, `micro_batch.split(k)`) and of a batch outside any loop (line 4) are batch splits
    code = (
        "parts = [text.split(self.trigger) for text in texts]\n"
        "for micro_batch in batches:\n    halves = micro_batch.split(k)\n"
        "chunks = data.split(size)\n"
    )
    touches = batch_touches(list(ast.parse(code).body), "f.py")
    assert [(t.line, t.kind) for t in touches] == [(3, "rows"), (4, "rows")]


def test_what_a_print_or_a_log_reads_forms_no_batch() -> None:
    # print("…", len(gen_batch)) and logger.info(len(batch)) only show a count (lines 1-2); len(batch) that
    # sizes something (line 3) counts a batch's rows
    code = 'print("rows:", len(gen_batch))\nlogger.info("%d", len(batch))\nsize = len(batch)\n'
    touches = batch_touches(list(ast.parse(code).body), "f.py")
    assert [(t.line, t.kind) for t in touches] == [(3, "rows")]


@pytest.mark.parametrize(
    ("code", "lines"),
    [
        # range(len(batch)) and x.reshape(len(batch), n) only read the size (lines 1-2); a count compared (line 4)
        # or computed with (line 6) may decide which rows train
        (
            "for i in range(len(batch)):\n    pass\nr = x.reshape(len(batch), n)\n"
            "if len(batch) < target:\n    pass\nsteps = len(batch) // mini\n",
            [4, 6],
        ),
        # size = len(batch.batch) (line 1) is only handed to np.full, a slice bound of another list and compared
        # with that list's length: it pads per-row values. The same count compared with a configured size (line 7:
        # `if n < self.config.target`) may decide which rows train.
        (
            "size = len(new_batch.batch)\nif len(values) == size:\n    col = np.array(values)\n"
            "else:\n    col = np.full(size, 0.0)\n    col[: len(values)] = values[:size]\n"
            "n = len(batch)\nif n < self.config.target:\n    pass\n",
            [7],
        ),
        # len(scores) == len(batch) (line 1) checks there is one score per row; len(batch) >= target (line 3) may
        # decide which rows train
        (
            "if len(scores) == len(batch):\n    metrics['s'] = scores\nif len(batch) >= target:\n    pass\n",
            [3],
        ),
        # hits.sum() / len(batch) (line 1) is the fraction of rows that hit: a mean; len(batch) // 4 (line 2) cuts
        # the batch to a quarter of its rows
        ("ratio = hits.sum() / len(batch)\nkept = batch[: len(batch) // 4]\n", [2]),
        # i < len(decoded_batch) (line 2) bounds the loop's own index; n < len(batch) (line 3) compares a size with
        # the rows
        (
            "for i in range(k):\n    t = decoded_batch[i] if i < len(decoded_batch) else None\n"
            "    if n < len(batch):\n        pass\n",
            [3],
        ),
    ],
)
def test_a_count_that_only_reads_the_size_forms_no_batch(code: str, lines: list[int]) -> None:
    touches = batch_touches(list(ast.parse(code).body), "f.py")
    assert [(t.line, t.kind) for t in touches] == [(line, "rows") for line in lines]


def test_an_update_cut_to_the_whole_step_is_unknown_with_the_step() -> None:
    # verl cuts a mini-batch larger than the step to the step's samples: 256 samples read with upstream's group,
    # a mini-batch of 4096 → one update of all 256. A fork's own group makes the step's samples unknown, and the
    # update that covers them with it (and how many updates there are)
    from translator.dialects.forkbatch import _unknown
    from translator.plan import RunSpec

    spec = RunSpec(framework="verl", version="0.2.0.post2")
    spec.plan.samples_per_step = spec.plan.samples_per_optimizer_step = 256
    spec.plan.optimizer_steps_per_step = 1
    _unknown(spec, {"samples_per_prompt", "samples_per_step"}, ["agent.n"], "the fork's group")
    assert spec.plan.samples_per_optimizer_step is None and spec.plan.optimizer_steps_per_step is None
    # an update of its own size (mini-batch 64 of a 256-sample step) is the configured mini-batch: it stays
    spec.plan.samples_per_step, spec.plan.samples_per_optimizer_step = 256, 64
    _unknown(spec, {"samples_per_step"}, ["agent.n"], "the fork's group")
    assert spec.plan.samples_per_optimizer_step == 64


# An EasyR1 copy kept in the project and launched through EasyR1's own entry: its trainer's fit is compared with
# every EasyR1 commit's (fork_tables.UPSTREAM_FIT["easyr1"]), counts included.
_EASYR1_FIT = """from verl.protocol import DataProto


class RayPPOTrainer:
    def __init__(self, config):
        self.config = config

    def fit(self):
        for batch_dict in self.train_dataloader:
            batch = DataProto.from_single_dict(batch_dict)
            gen = self.actor_rollout_wg.generate_sequences(batch)
            batch = batch.repeat(repeat_times=self.config.worker.rollout.n, interleave=True)
            batch = batch.union(gen)
{extra}            self.actor_rollout_wg.update_actor(batch)
"""
# the copy's second rollout of the same prompts, joined to the batch twice: two concats where EasyR1's fit has one
_SECOND_ROLLOUT = """            again = self.actor_rollout_wg.generate_sequences(batch)
            batch = DataProto.concat([batch, again])
            batch = DataProto.concat([batch, again])
"""


def _easyr1_copy(root: Path, extra: str) -> Path:
    (root / ".git").mkdir()
    (root / "verl" / "trainer").mkdir(parents=True)
    (root / "verl" / "__init__.py").write_text('__version__ = "0.3.3.dev0"\n')
    (root / "verl" / "trainer" / "__init__.py").write_text("")
    (root / "verl" / "protocol.py").write_text("class DataProto:\n    pass\n")
    (root / "verl" / "trainer" / "ray_trainer.py").write_text(_EASYR1_FIT.format(extra=extra))
    (root / "verl" / "trainer" / "main.py").write_text(
        "from verl.trainer.ray_trainer import RayPPOTrainer\n\n\ndef main(config):\n    RayPPOTrainer(config).fit()\n"
    )
    config = Path(__file__).resolve().parent.parent / "fixtures" / "easyr1" / "head_rpp_kl_reward_static.yaml"
    (root / "config.yaml").write_text(config.read_text())
    script = root / "run.sh"
    script.write_text("python3 -m verl.trainer.main config=config.yaml\n")
    return script


def test_an_easyr1_copy_whose_trainer_rolls_out_twice_is_unknown_with_the_line(tmp_path: Path) -> None:
    # The copy's fit concatenates batches twice (ray_trainer.py:15-16); EasyR1's has one concat at every commit
    # (online filtering). Joined batches leave the step's prompts, group and samples unknown (rlconf cannot tell
    # what the joined batch holds), with the lines that join them.
    explanation = api.explain(str(_easyr1_copy(tmp_path, _SECOND_ROLLOUT)))
    plan = explanation.spec.plan
    assert (plan.samples_per_prompt, plan.samples_per_step, plan.optimizer_steps_per_step) == (None, None, None)
    warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-code")
    assert "verl/trainer/ray_trainer.py:15" in warning.message and "easyr1" in warning.message


def test_an_easyr1_copy_with_upstreams_statements_is_verified(tmp_path: Path) -> None:
    # Without the second rollout the copy's fit holds only statements EasyR1's has: the fixture's plan holds
    # (64 prompts × n 4 = 256 samples per step, its header's derivation).
    explanation = api.explain(str(_easyr1_copy(tmp_path, "")))
    assert (explanation.spec.plan.prompts_per_step, explanation.spec.plan.samples_per_step) == (64, 256)
    assert "framework.fork-verified" in {n.code for n in explanation.notes}


OWN_CONFIG = FORKS / "verl_own_config" / "scripts"


def test_the_copys_own_config_gives_the_defaults_the_run_uses() -> None:
    # own_default.sh: the copy's main_ppo composes config/ppo_trainer.yaml, which turns use_dynamic_bsz on (verl
    # 0.4.1's own default is off) with 8192 tokens per GPU; the launch leaves both. Micro-batches are packed by tokens:
    # micro and accumulation unknown. The rest is the launch's and the copy's: 32 prompts × n 4 = 128 samples; the
    # copy's ppo_mini_batch_size 16 prompts × 4 = 64 samples per optimizer step → 2 steps; dp = 4 GPUs.
    explanation = api.explain(str(OWN_CONFIG / "own_default.sh"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (32, 128, 64)
    assert (plan.optimizer_steps_per_step, plan.data_parallel_size) == (2, 4)
    assert plan.micro_batch_per_device is None and plan.grad_accum_steps is None
    note = next(n for n in explanation.notes if n.code == "framework.copy-defaults")
    assert "actor_rollout_ref.actor.use_dynamic_bsz=True (the release's False)" in note.message


def test_an_override_of_a_key_the_copys_config_lacks_stops_hydra() -> None:
    # absent_key.sh sets extra.alpha without '+': Hydra refuses to override a key the composed config lacks
    # ("Could not override 'extra.alpha'"); with '+' (appended_key.sh) it adds it and the launch runs.
    with pytest.raises(ConfigError) as refused:
        api.explain(str(OWN_CONFIG / "absent_key.sh"), "verl@0.4.1")
    assert refused.value.line == 3 and "'extra.alpha' is not in the config" in refused.value.message
    assert api.explain(str(OWN_CONFIG / "appended_key.sh"), "verl@0.4.1").spec.plan.prompts_per_step == 32


@pytest.mark.parametrize(("searched", "refused"), [("config", True), ("elsewhere", False)])
def test_a_search_path_changes_nothing_where_every_default_is_in_the_primary_folder(
    tmp_path: Path, searched: str, refused: bool
) -> None:
    # The copy's primary config names a search path (hydra.searchpath); Hydra searches it after the primary folder
    # ("Config Search Path", hydra.cc), so where the primary folder holds every default the composition is the one
    # read here, and an override of a key it lacks stops Hydra. A default found only on the search path leaves the
    # composition open: not judged.
    shutil.copytree(FORKS / "verl_own_config", tmp_path / "p")
    (tmp_path / "p" / ".git").mkdir()
    folder = tmp_path / "p" / "verl" / "trainer" / "config"
    own = (folder / "ppo_trainer.yaml").read_text()
    (folder / "base.yaml").write_text(own)
    (folder / "ppo_trainer.yaml").write_text(
        "hydra:\n  searchpath:\n    - file://other/config\ndefaults:\n  - base\n  - _self_\n"
    )
    if searched == "elsewhere":
        (folder / "base.yaml").rename(tmp_path / "p" / "base.yaml")
    script = tmp_path / "p" / "scripts" / "absent_key.sh"
    if refused:
        with pytest.raises(ConfigError, match=r"'extra\.alpha' is not in the config"):
            api.explain(str(script), "verl@0.4.1")
    else:
        assert api.explain(str(script), "verl@0.4.1").spec.plan.prompts_per_step == 32


def test_appending_a_key_the_copys_config_sets_stops_hydra_and_over_a_null_does_not() -> None:
    # Hydra 1.3's '+key=value' adds a key only where the composed config holds none or null there
    # (config_loader_impl.py:370-380 in hydra-core 1.3.8, "Could not append to config. An item is already at ..."):
    # trainer.nnodes is 1 in the copy's config (refused, line 5 of the script); trainer.rollout_data_dir is null
    # (appended: the launch runs with its 32 prompts).
    with pytest.raises(ConfigError) as refused:
        api.explain(str(OWN_CONFIG / "appended_present.sh"), "verl@0.4.1")
    assert refused.value.line == 3 and "An item is already at 'trainer.nnodes'" in refused.value.message
    assert api.explain(str(OWN_CONFIG / "appended_null.sh"), "verl@0.4.1").spec.plan.prompts_per_step == 32


@pytest.mark.parametrize("entry", ["data@data: legacy_data", "optional data@data: legacy_data"])
def test_a_defaults_entry_whose_file_the_copy_lacks_stops_hydra(tmp_path: Path, entry: str) -> None:
    # The copy's ppo_trainer.yaml names data/legacy_data in its defaults list and its config folder lacks the file
    # (a .gitignore's `data/` kept it out of the repository): Hydra stops composing (MissingConfigException "Could
    # not find 'data/legacy_data'"). An `optional` entry is skipped when its file is missing: the launch runs.
    shutil.copytree(FORKS / "verl_own_config", tmp_path / "p")
    (tmp_path / "p" / ".git").mkdir()
    config = tmp_path / "p" / "verl" / "trainer" / "config" / "ppo_trainer.yaml"
    config.write_text(f"defaults:\n  - {entry}\n  - _self_\n" + config.read_text())
    script = tmp_path / "p" / "scripts" / "appended_null.sh"
    if entry.startswith("optional"):
        assert api.explain(str(script), "verl@0.4.1").spec.plan.prompts_per_step == 32
    else:
        with pytest.raises(ConfigError, match=r"holds no data/legacy_data\.yaml.*MissingConfigException"):
            api.explain(str(script), "verl@0.4.1")


DAPO_COPY = FORKS / "verl_dapo_copy" / "run_dapo.sh"


@pytest.mark.parametrize(("env", "total_steps"), [({}, None), ({"FILTER": "False"}, 100)])
def test_a_dapo_copy_on_the_launchs_pythonpath_is_read_and_its_run_counts_generation_batches(
    env: dict[str, str], total_steps: int | None
) -> None:
    # run_dapo.sh puts examples/ on PYTHONPATH and runs recipe.dapo.main_dapo: the project's copy, whose fit holds
    # verl 0.5.0's DAPO statements (a repeat by n for generation and one for training, a kept-rows index, a concat):
    # verified, so the plan is DAPO's: 16 prompts (train_batch_size) × n 4 = 64 samples; mini 8 prompts × 4 = 32
    # per optimizer step → 2; 4 ranks, micro 2 → 32 / 4 / 2 = 4 micro-batches. Its loop ends when gen_steps, which
    # counts generation batches (one more per refill group filtering asks for), reaches total_training_steps 100:
    # with filtering on, how many training steps that is depends on the data (unknown); off, one generation batch
    # per training step: 100.
    read = api.explain(str(DAPO_COPY), "verl@0.5.0", env=env)
    plan = read.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_step, plan.samples_per_optimizer_step) == (16, 64, 32)
    assert (plan.optimizer_steps_per_step, plan.data_parallel_size, plan.grad_accum_steps) == (2, 4, 4)
    assert plan.total_steps == total_steps
    assert any(n.code == "framework.fork-verified" for n in read.notes)
    assert any(n.code == "framework.fork-run-length" for n in read.notes) == (total_steps is None)


def test_a_count_that_sizes_one_value_per_row_forms_no_batch() -> None:
    # a per-row weight list ([1.0] * len(batch.batch)) keeps the rows; a count compared against a size does not
    code = "weights = np.array([1.0] * len(batch.batch))\nmask = len(batch) * [0]\nif len(batch) < size:\n    pass\n"
    assert [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")] == [(3, "rows")]


def _key_effects(root: Path, code: str, leaves: dict[str, object] | None = None) -> KeyEffects:
    """KeyEffects over one file of ``code`` in a project at ``root`` (written once; ``leaves``: the launch's values)."""
    (root / ".git").mkdir(exist_ok=True)
    (root / "code.py").write_text(code)
    return KeyEffects(Project(str(root), str(root)), [str(root / "code.py")], leaves)


def test_a_read_of_a_section_upstream_also_has_is_the_fork_keys_only_under_its_own_parent(tmp_path: Path) -> None:
    # env.rollout.n (a fork's) and actor_rollout_ref.rollout.n (upstream's) end alike: `self.config.rollout.n` in a
    # worker is upstream's key (line 2); `config.env.rollout.n` is the fork's (line 3)
    effects = _key_effects(
        tmp_path,
        "def f(self, config, batch):\n    self.ppo_mini_batch_size *= self.config.rollout.n\n"
        "    return batch.repeat(repeat_times=config.env.rollout.n)\n",
    )
    assert [t.line for t in effects.effects("env.rollout.n", 8, True, True)] == [3]
    # when upstream has no key ending in rollout.n, either read may be the fork key's
    assert sorted(t.line for t in effects.effects("env.rollout.n", 8, True, False)) == [2, 3]


def test_a_split_by_a_text_value_of_the_key_forms_no_batch(tmp_path: Path) -> None:
    # resp.split(cfg.tool.stop)[0] cuts a completion's text at a stop string (the launch's value "</call>"): no rows
    # are split; a key whose value is a number splits a batch into chunks of that many rows (DataProto.split(size))
    effects = _key_effects(
        tmp_path,
        "def f(self, resp, batch):\n    resp = resp.split(self.config.tool.stop)[0]\n"
        "    return batch.split(self.config.tool.stop)\n",
    )
    assert effects.effects("tool.stop", "</call>", False) == []
    assert [(t.line, t.kind) for t in effects.effects("tool.stop", 4, False)] == [(2, "rows"), (3, "rows")]


def test_a_batch_indexed_by_its_loops_own_index_forms_no_batch() -> None:
    # batch_kwargs[i] for i in range(...) reads or fills one row at a time; batch[keep] selects rows
    code = "for i in range(size):\n    batch_kwargs[i]['x'] = values[i]\nbatch = batch[keep]\n"
    assert [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")] == [(3, "rows")]


def test_an_installed_copy_of_verl_is_the_code_python_m_runs(tmp_path: Path) -> None:
    # The project keeps a checkout of verl in its folder verl/ (the package at verl/verl, installed with `cd verl;
    # pip install -e .`): the run folder's verl/ is no package, so `python3 -m verl.trainer.main_ppo` runs the copy,
    # whose config packs micro-batches by tokens (use_dynamic_bsz True): micro and accumulation unknown, and a key
    # the copy's config lacks is refused
    copy = tmp_path / "verl" / "verl"
    (tmp_path / ".git").mkdir()
    for folder in ("", "trainer", "version"):
        (copy / folder).mkdir(parents=True, exist_ok=True)
    (copy / "__init__.py").write_text("")
    (copy / "trainer" / "__init__.py").write_text("")
    (copy / "version" / "version").write_text("0.4.1\n")
    source = OWN_CONFIG.parent / "verl" / "trainer"
    (copy / "trainer" / "main_ppo.py").write_text((source / "main_ppo.py").read_text())
    (copy / "trainer" / "config").mkdir()
    (copy / "trainer" / "config" / "ppo_trainer.yaml").write_text((source / "config" / "ppo_trainer.yaml").read_text())
    (tmp_path / "run.sh").write_text((OWN_CONFIG / "own_default.sh").read_text())
    explanation = api.explain(str(tmp_path / "run.sh"))
    assert explanation.spec.plan.micro_batch_per_device is None
    assert any(n.code == "framework.copy-defaults" for n in explanation.notes)
    (tmp_path / "absent.sh").write_text((OWN_CONFIG / "absent_key.sh").read_text())
    with pytest.raises(ConfigError, match=r"'extra\.alpha' is not in the config"):
        api.explain(str(tmp_path / "absent.sh"))


def test_a_fork_keys_read_behind_a_switch_the_launch_leaves_off_forms_nothing(tmp_path: Path) -> None:
    # trainer.resample_multiplier scales the loader's batch only under `if config.trainer.resample:` (line 3); with
    # resample False (the launch's or the copy's config's value) that code never runs
    code = (
        "def f(self, config):\n    train_batch_size = config.data.train_batch_size\n    if config.trainer.resample:\n"
        "        train_batch_size *= config.trainer.resample_multiplier\n"
        "    return DataLoader(batch_size=train_batch_size)\n"
    )
    off = _key_effects(tmp_path, code, {"resample": False, "resample_multiplier": 2})
    assert off.effects("trainer.resample_multiplier", 2, False) == []
    on = _key_effects(tmp_path, code, {"resample": True, "resample_multiplier": 2})
    assert [t.line for t in on.effects("trainer.resample_multiplier", 2, False)] == [4, 5]


def test_a_copys_group_files_compose_and_a_key_under_a_null_is_refused(tmp_path: Path) -> None:
    # The copy's ppo_trainer.yaml places ref/dp_ref.yaml at actor_rollout_ref.ref; that file's own defaults list
    # brings ref/ref.yaml (model: {path: base}) and then sets model: null over it. The composition is complete, so
    # `actor_rollout_ref.ref.model.path=…` without '+' overrides a key under a null, which Hydra 1.3 refuses
    # ("Could not override 'actor_rollout_ref.ref.model.path'"); the same key with '+' is added and the launch runs
    # (32 prompts, from the launch).
    source = OWN_CONFIG.parent / "verl" / "trainer"
    (tmp_path / ".git").mkdir()
    trainer = tmp_path / "verl" / "trainer"
    (trainer / "config" / "ref").mkdir(parents=True)
    (tmp_path / "verl" / "__init__.py").write_text("")
    (trainer / "__init__.py").write_text("")
    (trainer / "main_ppo.py").write_text((source / "main_ppo.py").read_text())
    own = (source / "config" / "ppo_trainer.yaml").read_text()
    (trainer / "config" / "ppo_trainer.yaml").write_text(
        "defaults:\n  - ref@actor_rollout_ref.ref: dp_ref\n  - _self_\n" + own
    )
    (trainer / "config" / "ref" / "dp_ref.yaml").write_text("defaults:\n  - ref\n  - _self_\nmodel: null\n")
    (trainer / "config" / "ref" / "ref.yaml").write_text("model:\n  path: base\nlog_prob_micro_batch_size: null\n")
    launch = "python3 -m verl.trainer.main_ppo data.train_batch_size=32 {}actor_rollout_ref.ref.model.path=big\n"
    (tmp_path / "plain.sh").write_text(launch.format(""))
    (tmp_path / "plus.sh").write_text(launch.format("+"))
    with pytest.raises(ConfigError, match=r"'actor_rollout_ref\.ref\.model\.path' is not in the config"):
        api.explain(str(tmp_path / "plain.sh"), "verl@0.4.1")
    assert api.load(str(tmp_path / "plus.sh"), "verl@0.4.1").spec.plan.prompts_per_step == 32


def test_what_reads_a_setting_or_a_size_already_formed_forms_no_batch() -> None:
    # OmegaConf.select reads a setting; a path split by os.sep (or what a str method returns) splits text; a
    # container built with an existing batch's own size, a local name for the configured group size, and a class's
    # own progress report keep the rows as they are. A configured size passed on (line 7) and a computed group
    # (line 8) are batch code.
    code = (
        "if OmegaConf.select(self.config, 'critic.optim'):\n    pass\n"
        "name = path.strip(os.sep).split(os.sep)[-1]\n"
        "td = TensorDict(tensors, batch_size=batch.batch.batch_size)\n"
        "rollout_n = self.config.worker.rollout.n\n"
        "self._progress('STEP', rollout_n=rollout_n)\n"
        "td = TensorDict(tensors, batch_size=self.config.data.batch_size)\n"
        "n = self.config.worker.rollout.n * 2\n"
        # one value per row written into a batch's column: the repeat forms no rows
        "mini_batch.batch['w'] = var.unsqueeze(1).expand(prompts, n).reshape(size)\n"
    )
    assert [(t.line, t.kind) for t in batch_touches(list(ast.parse(code).body), "f.py")] == [(7, "size"), (8, "group")]


# fit with a method of the copy's own that joins a second rollout twice (EasyR1's fit has one concat)
_SWITCHED_FIT = _EASYR1_FIT.replace(
    "    def fit(self):",
    "    def _accumulate(self, batch):\n        again = self.actor_rollout_wg.generate_sequences(batch)\n"
    "        batch = DataProto.concat([batch, again])\n        return DataProto.concat([batch, again])\n\n"
    "    def fit(self):",
).replace("{extra}", "{call}")


@pytest.mark.parametrize("switched", [True, False])
def test_a_method_the_trainer_calls_only_behind_a_switch_the_launch_leaves_unset_is_not_run(
    tmp_path: Path, switched: bool
) -> None:
    # fit calls _accumulate (two concats: EasyR1's fit has one) only under `if self.config.trainer.get("resample",
    # False):`, a key neither the launch nor EasyR1's config sets: that method never runs, and the fixture's plan
    # holds (64 prompts × n 4 = 256 samples per step). Called unconditionally, its joined batches leave the step's
    # group and samples unknown, as a second rollout in fit does.
    script = _easyr1_copy(tmp_path, "")
    guard = '            if self.config.trainer.get("resample", False):\n    ' if switched else ""
    call = f"{guard}            batch = self._accumulate(batch)\n"
    (tmp_path / "verl" / "trainer" / "ray_trainer.py").write_text(_SWITCHED_FIT.format(call=call))
    explanation = api.explain(str(script))
    plan = explanation.spec.plan
    if switched:
        assert (plan.prompts_per_step, plan.samples_per_step) == (64, 256)
        assert "framework.fork-verified" in {n.code for n in explanation.notes}
    else:
        assert (plan.samples_per_prompt, plan.samples_per_step) == (None, None)
        warning = next(n for n in explanation.notes if n.code == "framework.fork-batch-code")
        assert "verl/trainer/ray_trainer.py:10" in warning.message


def test_a_fork_key_stored_as_it_is_is_judged_by_its_uses(tmp_path: Path) -> None:
    # self.infer_batch_size = int(config.get("infer_batch_size", 8)) stores the key (line 3): only what uses it
    # forms batches. Chunking the inputs for generation (lines 5-6) keeps every row; splitting the batch by it
    # (line 8) does, and that line is the key's effect.
    chunked = (
        "class Rollout:\n    def __init__(self, config):\n"
        '        self.infer_batch_size = int(config.get("infer_batch_size", 8))\n'
        "    def generate(self, inputs):\n        for start in range(0, len(inputs), self.infer_batch_size):\n"
        "            self.engine.generate(inputs[start : start + self.infer_batch_size])\n"
    )
    assert _key_effects(tmp_path, chunked).effects("rollout.infer_batch_size", 8, False) == []
    split = chunked + "    def update(self, batch):\n        return batch.split(self.infer_batch_size)\n"
    touches = _key_effects(tmp_path, split).effects("rollout.infer_batch_size", 8, False)
    assert [(t.line, t.kind) for t in touches] == [(8, "rows")]
    # another file of the run reading an attribute of that name (a subclass's use, not followed): the store counts
    (tmp_path / "code.py").write_text(chunked)
    (tmp_path / "other.py").write_text("def g(self, batch):\n    return batch[: self.infer_batch_size]\n")
    files = [str(tmp_path / "code.py"), str(tmp_path / "other.py")]
    effects = KeyEffects(Project(str(tmp_path), str(tmp_path)), files)
    assert 3 in [t.line for t in effects.effects("rollout.infer_batch_size", 8, False)]


# fit dispatches to a lookahead loop (two concats) or to EasyR1's own loop (_fit_standard)
_DISPATCHING_FIT = (
    _EASYR1_FIT.replace(
        "        self.config = config\n", "        self.config = config\n        self.async_mode = True\n"
    )
    .replace("{extra}", "")
    .replace(
        "    def fit(self):",
        """    def _use_lookahead(self):
        \"\"\"Whether to run the lookahead loop.\"\"\"
        return self.async_mode and self.config.trainer.get("enable_lookahead", False)

    def fit(self):
        if {test}:
            return self._fit_lookahead()
        return self._fit_standard()

    def _fit_lookahead(self):
        for batch_dict in self.train_dataloader:
            batch = DataProto.from_single_dict(batch_dict)
            again = self.actor_rollout_wg.generate_sequences(batch)
            batch = DataProto.concat([batch, again])
            batch = DataProto.concat([batch, again])

    def _fit_standard(self):""",
    )
)


@pytest.mark.parametrize(
    ("test", "verified"),
    [
        ("self._use_lookahead()", True),  # a predicate: what it returns, off while enable_lookahead is unset
        ("not self.config.trainer.get('enable_lookahead', False)", False),  # the unset switch's else is the run's
        ("self.async_mode or self.config.trainer.get('enable_lookahead', False)", False),  # not decided: both run
    ],
)
def test_a_branch_is_skipped_only_where_an_unset_switch_decides_it(tmp_path: Path, test: str, verified: bool) -> None:
    # _fit_lookahead joins two batches (EasyR1's fit has one concat); _fit_standard has only EasyR1's statements.
    # Where the test is off with the fork's switch unset, fit runs _fit_standard alone and the copy is verified
    # (64 prompts × n 4 = 256 samples); where it is on, or undecided, _fit_lookahead's joins leave the group unknown.
    script = _easyr1_copy(tmp_path, "")
    (tmp_path / "verl" / "trainer" / "ray_trainer.py").write_text(_DISPATCHING_FIT.format(test=test))
    explanation = api.explain(str(script))
    if verified:
        assert explanation.spec.plan.samples_per_step == 256
        assert "framework.fork-verified" in {n.code for n in explanation.notes}
    else:
        assert explanation.spec.plan.samples_per_step is None


def test_a_comparison_with_the_runs_value_decides_a_branch() -> None:
    # `if cfg.filter_mode == "ema_std":` with the copy's default "default": the body (line 3) is not run, the else
    # (line 5) is; with "ema_std" the other way round; a value not known decides neither
    code = "def fit(cfg):\n    if cfg.filter_mode == 'ema_std':\n        a = 1\n    else:\n        b = 2\n"
    function = ast.parse(code).body[0]
    assert (untaken(function, 3, {"filter_mode": "default"}), untaken(function, 5, {"filter_mode": "default"})) == (
        True,
        False,
    )
    assert (untaken(function, 3, {"filter_mode": "ema_std"}), untaken(function, 5, {"filter_mode": "ema_std"})) == (
        False,
        True,
    )
    assert not untaken(function, 3, {}) and not untaken(function, 5, {})


# A verl copy whose trainer keeps a row filter of its own behind a flag __init__ sets from the config (or behind
# an early return on it). Its fit has no other batch-forming statement; the filter indexes the batch by a mask
# (`batch[keep]`), which upstream's fit never does.
_FLAGGED_TRAINER = """class RayPPOTrainer:
    def __init__(self, config):
        self.config = config
        self.use_row_filter = False
        if hasattr(self.config.algorithm, "row_filter") and self.config.algorithm.row_filter.enable:
            self.use_row_filter = True

    def _filter_rows(self, batch):
        if not self.use_row_filter:
            return batch
        keep = batch.scores > 0
        return batch[keep]

    def fit(self):
        for batch in self.train_dataloader:
{call}
"""


def _verl_04_copy(root: Path, config: str, launch: str, trainer: str | None = None) -> Path:
    """A project holding a copy of verl 0.4.1 whose main_ppo composes ``config`` (its ppo_trainer.yaml) and runs
    ``trainer`` (its ray_trainer.py), launched by run.sh (``launch``); returns run.sh."""
    entry = '@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)\ndef main(config):\n'
    files = {
        "verl/__init__.py": "",
        "verl/version/version": "0.4.1\n",
        "verl/trainer/__init__.py": "",
        "verl/trainer/config/ppo_trainer.yaml": config,
        "run.sh": launch,
    }
    if trainer is None:
        files["verl/trainer/main_ppo.py"] = entry + "    pass\n"
    else:
        files["verl/trainer/main_ppo.py"] = (
            "import hydra\n\nfrom verl.trainer.ray_trainer import RayPPOTrainer\n\n\n"
            + entry
            + "    RayPPOTrainer(config).fit()\n"
        )
        files["verl/trainer/ray_trainer.py"] = trainer
    return write_project(root, files) / "run.sh"


_BASE_CONFIG = (
    "data:\n  train_batch_size: 1024\nactor_rollout_ref:\n  rollout:\n    n: 1\n  actor:\n"
    "    ppo_mini_batch_size: 256\n    ppo_micro_batch_size_per_gpu: null\n"
    "trainer:\n  n_gpus_per_node: 8\n  nnodes: 1\nalgorithm:\n  gamma: 1.0\n"
)
_FILTER_OFF = _BASE_CONFIG + "  row_filter:\n    enable: false\n"
_FLAGGED_CALLS = {
    "flag": "            if self.use_row_filter:\n                batch = batch[batch.scores > 0]\n",
    "early return": "            batch = self._filter_rows(batch)\n",
}


@pytest.mark.parametrize("shape", sorted(_FLAGGED_CALLS))
@pytest.mark.parametrize(
    ("config", "launch", "verified"),
    [
        (_FILTER_OFF, "", True),  # the switch off in the copy's config
        (_FILTER_OFF, " algorithm.row_filter.enable=true", False),  # on
        (_BASE_CONFIG, "", True),  # the whole config has no row_filter: hasattr is false
        # a defaults list naming a file the copy's folder lacks, with a search path that may hold it: row_filter
        # may be there, so the flag is not decided
        (
            "hydra:\n  searchpath:\n    - pkg://other.configs\ndefaults:\n  - extra\n  - _self_\n" + _BASE_CONFIG,
            "",
            False,
        ),
    ],
)
def test_a_trainer_flag_set_from_the_config_decides_whether_its_code_runs(
    tmp_path: Path, shape: str, config: str, launch: str, verified: bool
) -> None:
    # Plan (verl 0.4.1 semantics): 16 prompts × rollout.n 4 = 64 samples per step; mini-batch 8 prompts × 4 = 32
    # samples per update, 2 updates per step. Where the flag is off, the filter never runs and the copy's fit is
    # upstream's; where it is on or not decided, the filtered step's samples are unknown.
    script = _verl_04_copy(
        tmp_path,
        config,
        "python3 -m verl.trainer.main_ppo data.train_batch_size=16 actor_rollout_ref.rollout.n=4 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=8 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 "
        f"trainer.n_gpus_per_node=2 trainer.nnodes=1{launch}\n",
        _FLAGGED_TRAINER.format(call=_FLAGGED_CALLS[shape]),
    )
    explanation = api.explain(str(script), "verl@0.4.1")
    plan = explanation.spec.plan
    codes = {n.code for n in explanation.notes}
    if verified:
        assert (plan.samples_per_step, plan.optimizer_steps_per_step) == (64, 2)
        assert "framework.fork-verified" in codes
    else:
        assert plan.samples_per_step is None
        assert "framework.fork-batch-code" in codes


@pytest.mark.parametrize(
    ("test", "complete", "truth"),
    [
        ("self.config.algorithm.filter.enable", False, False),  # the value, false
        ("not self.config.algorithm.filter.enable", False, True),
        ("hasattr(self.config.algorithm, 'filter')", False, True),  # a mapping the config holds
        ("hasattr(self.config, 'layback')", True, False),  # the whole config lacks it
        ("hasattr(self.config, 'layback')", False, None),  # a config not known whole may hold it elsewhere
        ("self.config.algorithm.get('layback', None) is None", True, True),  # .get gives its default
        ("self.config.algorithm.get('layback', None) is None", False, None),
        ("config.algorithm.mode == 'ema'", False, True),
        ("cfg.algorithm.mode in ['std', 'none']", False, False),
        ("self.config.algorithm.filter.enable or self.config.unknown_key", False, None),  # or: not decided
        ("self.config.algorithm.filter.enable and self.config.unknown_key", False, False),  # and: one false
        ("ef_config.enable", True, None),  # a local alias of a sub-config is not the config's root
    ],
)
def test_the_runs_config_decides_a_test_three_ways(test: str, complete: bool, truth: bool | None) -> None:
    config = RunConfig({"algorithm.filter.enable": False, "algorithm.mode": "ema"}, complete)
    assert config.truth(ast.parse(test, mode="eval").body) is truth


def test_an_early_return_the_config_takes_skips_the_rest_of_its_block() -> None:
    # line 3 returns when the switch is off (it is): line 4 does not run; with the switch on, it does
    code = "def f(self, batch):\n    if not self.config.x.enable:\n        return batch\n    return batch[batch.keep]\n"
    function = ast.parse(code).body[0]
    assert decided_away(function, 4, RunConfig({"x.enable": False}, False))
    assert not decided_away(function, 4, RunConfig({"x.enable": True}, False))
    assert not decided_away(function, 4, RunConfig({}, False))


def test_a_flag_init_sets_under_a_config_test_holds_that_test() -> None:
    # self.use_x is False, set True only under `if cfg.x.enable:`; self.mode = config.mode is a direct setting;
    # self.n is set twice (in __init__ and in reset), so it holds nothing
    code = (
        "class T:\n    def __init__(self, config):\n        self.use_x = False\n"
        "        if config.x.enable:\n            self.use_x = True\n        self.mode = config.mode\n"
        "        self.both = self.use_x and self.mode\n        self.n = 1\n    def reset(self):\n        self.n = 2\n"
    )
    cls = ast.parse(code).body[0]
    assert isinstance(cls, ast.ClassDef)
    methods = [m for m in cls.body if isinstance(m, ast.FunctionDef)]
    settings = instance_settings(methods[0], methods)
    assert {k: ast.unparse(v) for k, v in settings.items()} == {
        "use_x": "config.x.enable",
        "mode": "config.mode",
        "both": "config.x.enable and config.mode",
    }


# A copy's own group filter in the shape of the DAPO recipe's loop (recipe/dapo/dapo_ray_trainer.py@v0.5.0 fit): draw
# rounds until train_batch_size prompts are kept, then cut to train_batch_size × n; keep_all_batches (a fork's key)
# keeps every kept row instead.
_REFILL_TRAINER = """class RayPPOTrainer:
    def fit(self):
        batch, num_prompt_in_batch = None, 0
        for new_batch in self.train_dataloader:
            new_batch = new_batch.repeat(repeat_times=self.config.actor_rollout_ref.rollout.n, interleave=True)
            if not self.config.algorithm.filter_groups.enable:
                batch = new_batch
            else:
                kept_prompt_uids = self.kept_prompt_uids(new_batch)
                new_batch = new_batch[self.rows_of(kept_prompt_uids)]
                batch = new_batch if batch is None else DataProto.concat([batch, new_batch])
                num_prompt_in_batch += len(kept_prompt_uids)
                prompt_bsz = self.config.data.train_batch_size
                if num_prompt_in_batch < prompt_bsz:
                    continue
                if not self.config.algorithm.filter_groups.keep_all_batches:
                    traj_bsz = self.config.data.train_batch_size * self.config.actor_rollout_ref.rollout.n
                    batch = batch[:traj_bsz]
                else:
                    traj_bsz = len(batch) // 8 * 8
                    batch = batch[:traj_bsz]
            self.actor_rollout_wg.update_actor(batch)
            batch, num_prompt_in_batch = None, 0
"""


@pytest.mark.parametrize(
    ("enabled", "trainer", "keep_all", "step"),
    [
        (True, _REFILL_TRAINER, False, (128, 2048, 2)),  # the DAPO loop: 128 prompts × 16, 2048 ÷ 1024 updates
        (True, _REFILL_TRAINER, True, (None, None, None)),  # every kept row: as many as the filter keeps
        (True, _REFILL_TRAINER.replace("batch = batch[:traj_bsz]", "pass"), False, (None, None, None)),  # no cut
        (True, None, False, (None, None, None)),  # no trainer of its own to read
        (False, _REFILL_TRAINER, False, (384, 6144, 6)),  # off: the dataloader batch of 384 prompts is the step's
    ],
)
def test_group_filtering_a_pre_09_copy_defines_itself_is_read_from_its_fit(
    tmp_path: Path, enabled: bool, trainer: str | None, keep_all: bool, step: tuple[int | None, ...]
) -> None:
    # verl's main_ppo before 0.9 has no group filter: data.gen_batch_size 384 is the dataloader batch and a step
    # trains on all of it (384 prompts × rollout.n 16 = 6144 samples, ÷ mini-batch 64 × 16 = 1024: 6 updates). A copy
    # whose own config defines algorithm.filter_groups runs its own filter when the launch turns it on: a step
    # trains on train_batch_size 128 prompts only where its fit refills and cuts as the DAPO recipe does; else how
    # many it keeps is its own (unknown). The mini-batch (64 prompts × 16 = 1024 samples) is the workers', and stays.
    config = _BASE_CONFIG.replace("  train_batch_size: 1024\n", "  train_batch_size: 1024\n  gen_batch_size: null\n")
    config += "  filter_groups:\n    enable: false\n    metric: acc\n    keep_all_batches: false\n"
    script = _verl_04_copy(
        tmp_path,
        config,
        "python3 -m verl.trainer.main_ppo data.train_batch_size=128 data.gen_batch_size=384 "
        f"algorithm.filter_groups.enable={enabled} algorithm.filter_groups.keep_all_batches={keep_all} "
        "actor_rollout_ref.rollout.n=16 actor_rollout_ref.actor.ppo_mini_batch_size=64 "
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 trainer.n_gpus_per_node=8 trainer.nnodes=1\n",
        trainer,
    )
    explanation = api.explain(str(script), "verl@0.4.1")
    plan = explanation.spec.plan
    assert plan.samples_per_optimizer_step == 1024
    assert (plan.prompts_per_step, plan.samples_per_step, plan.optimizer_steps_per_step) == step
    codes = {n.code for n in explanation.notes}
    assert ("framework.fork-group-filter" in codes) == enabled
    if not enabled:
        assert "semantics.gen-batch-size-replaces-train-batch" in codes


@pytest.mark.parametrize(
    ("trainer", "step"),
    [
        (_REFILL_TRAINER, (128, 2048, 2)),  # the DAPO loop: 128 prompts × 16 kept, 2048 ÷ 1024 per update
        (_REFILL_TRAINER.replace("batch = batch[:traj_bsz]", "pass"), (None, None, None)),  # no cut: its own count
    ],
)
def test_group_filtering_the_launch_adds_for_a_copys_trainer_is_read_from_its_fit(
    tmp_path: Path, trainer: str, step: tuple[int | None, ...]
) -> None:
    # The copy's config has no algorithm.filter_groups; the launch adds it ('+algorithm.filter_groups.enable=True',
    # which Hydra appends) for the copy's trainer, which reads it. No data.gen_batch_size: a round draws one
    # dataloader batch of data.train_batch_size 128 prompts, and a step trains on 128 prompts only where the fit
    # refills and cuts as the DAPO recipe's loop does. The mini-batch (64 prompts × 16 = 1024 samples) stays.
    script = _verl_04_copy(
        tmp_path,
        _BASE_CONFIG,
        "python3 -m verl.trainer.main_ppo data.train_batch_size=128 +algorithm.filter_groups.enable=True "
        "+algorithm.filter_groups.keep_all_batches=False actor_rollout_ref.rollout.n=16 "
        "actor_rollout_ref.actor.ppo_mini_batch_size=64 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 "
        "trainer.n_gpus_per_node=8 trainer.nnodes=1\n",
        trainer,
    )
    explanation = api.explain(str(script), "verl@0.4.1")
    plan = explanation.spec.plan
    assert plan.samples_per_optimizer_step == 1024
    assert (plan.prompts_per_step, plan.samples_per_step, plan.optimizer_steps_per_step) == step
    filtered = [n for n in explanation.notes if n.code == "framework.fork-group-filter"]
    assert filtered and "the launch adds it" in filtered[0].message


def test_a_config_read_alone_runs_with_the_project_entry_that_composes_it(tmp_path: Path) -> None:
    # train.py's @hydra.main(config_path="config", config_name="base") composes config/base.yaml: it is the run's
    # entry. It sets data.train_batch_size from two keys of its own (line 7), so the step's prompts are unknown;
    # data.max_prompt_length is null, which verl's entry would need, but this entry is the project's: unknown, not
    # an error. The mini-batch (8 prompts × rollout.n 2 = 16 samples) is the config's.
    root = write_project(
        tmp_path,
        {
            "train.py": (
                "import hydra\n\n\n"
                '@hydra.main(version_base=None, config_path="config", config_name="base")\n'
                "def main(config):\n    groups = config.env.groups\n"
                "    config.data.train_batch_size = groups * config.env.size\n    run(config)\n"
            ),
            "config/base.yaml": (
                "env:\n  groups: 8\n  size: 16\ndata:\n  train_batch_size: null\n  max_prompt_length: null\n"
                "actor_rollout_ref:\n  rollout:\n    n: 2\n  actor:\n    ppo_mini_batch_size: 8\n"
                "    ppo_micro_batch_size_per_gpu: 1\ntrainer:\n  n_gpus_per_node: 1\n  nnodes: 1\n"
            ),
        },
    )
    explanation = api.explain(str(root / "config" / "base.yaml"), "verl@0.4.1")
    plan = explanation.spec.plan
    assert (plan.prompts_per_step, plan.samples_per_optimizer_step) == (None, 16)
    assert explanation.spec.lengths.max_prompt_tokens is None
    codes = {n.code for n in explanation.notes}
    assert {"input.code-sets-value", "framework.fork-null-keys"} <= codes


def test_a_record_built_inside_a_loop_reads_one_element_by_the_loops_index(tmp_path: Path) -> None:
    # the fork key tracing.save_text (True) guards a value of one record per row, built inside `for i in range(n)`:
    # decoded_batch[i] and the bound `i < len(decoded_batch)` read one element (the loop is around the statement,
    # not in it); the same key guarding batch[keep] (line 6) selects rows
    code = (
        "def f(self, decoded_batch, batch, keep):\n    for i in range(len(batch)):\n        record = {'text': "
        "decoded_batch[i] if (self.config.tracing.save_text and i < len(decoded_batch)) else None}\n"
        "        self.writer.put(record)\n    if self.config.tracing.save_text:\n        batch = batch[keep]\n"
    )
    effects = _key_effects(tmp_path, code)
    assert [(t.line, t.kind) for t in effects.effects("tracing.save_text", True, False)] == [(6, "rows")]


def test_a_text_value_of_a_fork_key_decides_which_branch_of_its_comparisons_runs(tmp_path: Path) -> None:
    # trainer.algorithm=DCPO: `if alg == "AEPO":` (its quarter cut, line 4) does not run, the DCPO branch (line 6)
    # does; a value left as a shell variable decides nothing, so both branches count
    code = (
        "def fit(self, batch):\n    alg = self.config.trainer.algorithm\n    if alg == 'AEPO':\n"
        "        batch = batch[: len(batch) // 4]\n    elif alg == 'DCPO':\n"
        "        batch = batch.repeat(repeat_times=2)\n"
    )
    effects = _key_effects(tmp_path, code)
    assert [t.line for t in effects.effects("trainer.algorithm", "DCPO", False)] == [6]
    assert sorted(t.line for t in effects.effects("trainer.algorithm", "${ALG}", False)) == [4, 6]


def test_a_fork_key_named_as_a_tensor_attribute_is_read_only_under_its_section(tmp_path: Path) -> None:
    # research.ar.device (a fork's, upstream has no key ending in `device`): `ids.expand(n, -1).to(x.device)` reads
    # a tensor's device (line 2), not the key; `self.config.ar.device` is the key (line 3)
    assert _ambiguity("research.ar.device", lambda suffix: False) == (True, False)
    assert _ambiguity("research.ar.warmup", lambda suffix: False) == (False, False)
    effects = _key_effects(
        tmp_path,
        "def f(self, ids, x, batch):\n    ids = ids.expand(len(batch), -1).to(x.device)\n"
        "    return batch.repeat(repeat_times=2) if self.config.ar.device == 'cuda' else batch\n",
    )
    # read as a leaf anywhere, the tensor's device would count (line 2); under its section only the key's own read
    assert sorted(t.line for t in effects.effects("research.ar.device", "cuda", False)) == [2, 3]
    assert [t.line for t in effects.effects("research.ar.device", "cuda", True)] == [3]


def test_a_fork_switch_off_in_a_test_joined_by_and_runs_nothing_it_guards(tmp_path: Path) -> None:
    # `if cfg.curriculum.get('enable', False) and other:` with enable False: Python stops at the first operand,
    # so the filter it guards (line 3) does not run; with enable True the other operand decides: it may run
    code = (
        "def fit(self, batch):\n    if self.config.curriculum.get('enable', False) and self.other != 'x':\n"
        "        batch = self.filter_fn(batch[keep])\n"
    )
    effects = _key_effects(tmp_path, code)
    assert effects.effects("curriculum.enable", False, False) == []
    assert [t.line for t in effects.effects("curriculum.enable", True, False)] == [3]
