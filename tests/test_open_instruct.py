"""Open-Instruct: the semantics the dialect must get right, bad input, and round trips through verl and TRL.

Every expected value is derived by hand in a comment from docs/frameworks/open-instruct.md (cited by §).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from tests.conftest import CASES, FIXTURES, Case, case_id, differing, noted
from tests.test_cli import assert_input_error, run
from translator.api import Translation
from translator.sources.files import Source

HEAD = "open-instruct@2026.08.20"
CLASSIC = "open-instruct@2025.12.31"


def load(text: str, framework: str | None = HEAD, **kwargs: object) -> translator.Explanation:
    return translator.load(Source(text, "run.sh"), framework=framework, **kwargs)


def fast(*flags: str) -> str:
    return "python open_instruct/grpo_fast.py " + " ".join(flags) + "\n"


def codes(explanation: translator.Explanation | Translation) -> set[str]:
    return {note.code for note in explanation.notes}


def note(explanation: translator.Explanation | Translation, code: str) -> str:
    return next(n.message for n in explanation.notes if n.code == code)


# ------------------------------------------------------------------ batch units


@pytest.mark.parametrize(
    "prompts,group,mini_batches,epochs,episodes,per_update,updates,steps",
    [
        # §1.1: steps = total_episodes // (U × S); samples per update = U × S / num_mini_batches (a count);
        # the LR schedule counts num_epochs × num_mini_batches updates per step.
        (48, 16, 2, 1, 2_000_000, 384, 2, 2604),  # 768 per step; 2,000,000 // 768 = 2604
        (64, 8, 4, 2, 1_024_000, 128, 8, 2000),  # 512 per step; 512 / 4 = 128; 2 × 4 = 8; exact
        (48, 16, 5, 1, 100_000, 153.6, 5, 130),  # 768 / 5 = 153.6 samples: a count, not a size
        (16, 4, 1, 1, 100_000, 64, 1, 1562),  # the defaults of U, S: 64 per step; 100000 // 64
    ],
)
def test_grpo_fast_batch_plan(
    prompts: int, group: int, mini_batches: int, epochs: int, episodes: int, per_update: float, updates: int, steps: int
) -> None:
    plan = load(
        fast(
            f"--num_unique_prompts_rollout {prompts}",
            f"--num_samples_per_prompt_rollout {group}",
            f"--num_mini_batches {mini_batches}",
            f"--num_epochs {epochs}",
            f"--total_episodes {episodes}",
        )
    ).plan
    assert plan["prompts_per_step"] == prompts and plan["samples_per_step"] == prompts * group
    assert plan["samples_per_optimizer_step"] == pytest.approx(per_update)
    assert plan["optimizer_steps_per_step"] == updates
    assert plan["total_steps"] == steps


def test_total_episodes_counts_samples_not_dataset_passes() -> None:
    # §2: an episode is one sample; 1000 episodes at 32 samples per step = 31 steps (1000 // 32), 8 left over.
    explanation = load(fast("--num_unique_prompts_rollout 8", "--total_episodes 1000"))
    assert explanation.plan["total_steps"] == 31
    assert explanation.spec.run_length.total_samples == 1000
    assert explanation.spec.run_length.dataset_passes is None  # the prompt loader loops forever
    assert "batch.floor-division" in codes(explanation)
    # Fewer episodes than one step: num_training_steps is 0 and nothing trains.
    none = load(fast("--total_episodes 10"))
    assert none.plan["total_steps"] is None and "run-length.no-steps" in codes(none)


def test_per_device_train_batch_size_counts_packed_rows() -> None:
    # §1, §9.3: 2 rows × pack_length 4096 tokens per micro-batch; samples per micro-batch depend on lengths.
    explanation = load(fast("--per_device_train_batch_size 2", "--pack_length 4096"))
    assert explanation.plan["micro_batch_per_device"] is None
    assert explanation.plan["grad_accum_steps"] is None
    assert explanation.spec.token_budget.max_tokens_per_device == 8192
    assert "batch.token-budget" in codes(explanation)


def test_pack_length_must_hold_prompt_and_response() -> None:
    # §1.2: pack_length 1024 < max_prompt_token_length 512 + response_length 1024 = 1536 → Open-Instruct asserts.
    explanation = load(fast("--pack_length 1024", "--max_prompt_token_length 512", "--response_length 1024"))
    assert "pack_length` needs to be greater" in note(explanation, "batch.pack-length")


def test_learners_per_node_sum_and_sequence_parallelism() -> None:
    # §1: world_size = sum(num_learners_per_node) = 16 learner GPUs; dp = 16 // sequence_parallel_size 2 = 8.
    explanation = load(
        fast(
            "--num_learners_per_node 8 8",
            "--sequence_parallel_size 2",
            "--vllm_num_engines 4",
            "--vllm_tensor_parallel_size 2",
        )
    )
    t = explanation.spec.topology
    assert explanation.plan["data_parallel_size"] == 8
    assert (t.training_gpus, t.nodes, t.gpus_per_node) == (16, 2, 8)
    # vLLM engines run on GPUs of their own: 4 engines × TP 2 = 8.
    assert (t.rollout_gpus, t.rollout_tensor_parallel_size) == (8, 2)


def test_single_gpu_mode_shares_the_learner_gpu() -> None:
    # §1: single_gpu_mode → vLLM takes half of the learner's GPU; no GPUs of its own.
    explanation = load(fast("--single_gpu_mode", "--vllm_num_engines 1"))
    assert explanation.spec.topology.rollout_gpus == 0
    assert explanation.spec.generation.rollout_mode == "colocate"


def test_legacy_gtrl_local_sizes_times_world_size() -> None:
    # §7.2–7.3: the Tulu 3 8B command: 32 × 7 learners = 224 prompts; mini 32 × 7 = 224 samples; micro 2
    # → GAS 32 / 2 = 16; num_epochs default 4 → 4 updates per step; 10,000,000 // 224 = 44,642 steps.
    script = (
        "python open_instruct/ppo_vllm_thread_ray_gtrl.py --local_rollout_batch_size 32 "
        "--local_mini_batch_size 32 --per_device_train_batch_size 2 --actor_num_gpus_per_node 7 "
        "--total_episodes 10000000 --beta 0.05\n"
    )
    explanation = load(script, framework=None)
    assert explanation.plan == {
        "prompts_per_step": 224,
        "samples_per_prompt": 1,
        "samples_per_step": 224,
        "samples_per_optimizer_step": 224,
        "optimizer_steps_per_step": 4,
        "epochs_per_step": 4,
        "data_parallel_size": 7,
        "micro_batch_per_device": 2,
        "grad_accum_steps": 16,
        "total_steps": 44642,
    }
    assert "units.per-device-vs-global" in codes(explanation)
    # PPO: GAE with a value model; KL as a reward penalty (§7).
    assert explanation.spec.algorithm.kl_placement == "reward" and explanation.spec.critic.enabled


def test_legacy_gtrl_mini_batches_must_divide() -> None:
    # §7.2 (GTRL-LAST): num_mini_batches = exact_div(rollout × n, mini); 3 prompts × 4 = 12 per learner ÷ 8 fails;
    # local_mini_batch_size 8 ÷ per_device_train_batch_size 3 fails too.
    script = (
        "python open_instruct/grpo_vllm_thread_ray_gtrl.py --local_rollout_batch_size 3 "
        "--number_samples_per_prompt 4 --local_mini_batch_size 8 --per_device_train_batch_size 3\n"
    )
    explanation = load(script, framework="open-instruct@2025.10.20")
    messages = [n.message for n in explanation.notes if n.code == "batch.indivisible"]
    assert any("exact_div" in m for m in messages) and any("inexact division: 8 / 3" in m for m in messages)


# ------------------------------------------------------------------ asynchrony


@pytest.mark.parametrize(
    "version,flags,ahead",
    [
        (HEAD, [], 8),  # §4: HEAD default async_steps 8
        (CLASSIC, [], 1),  # §5: CLASSIC default 1
        (HEAD, ["--async_steps 4"], 4),
        ("open-instruct@2025.10.20", ["--async_steps 0"], 0),  # before 2025-11-21, 0 meant synchronous
        ("open-instruct@2025.03.13", [], 1),  # async_mode True: the second-latest policy
        ("open-instruct@2025.03.13", ["--async_mode False"], 0),
    ],
)
def test_async_steps_make_training_off_policy(version: str, flags: list[str], ahead: int) -> None:
    explanation = load(fast(*flags), framework=version)
    assert explanation.spec.asynchrony.max_steps_ahead == ahead
    assert ("asynchrony.off-policy" in codes(explanation)) == (ahead > 0)


def test_synchronous_training_is_rejected_since_2025_11_21() -> None:
    # §1.2: async_steps < 1 raises "Fully synchronous training is not supported." (PR #1220).
    explanation = load(fast("--async_steps 0"))
    assert "Fully synchronous training is not supported" in note(explanation, "asynchrony.async-steps")
    # Writing an on-policy source for HEAD: async_steps 1 is the closest, with a warning.
    verl = translator.translate(
        FIXTURES / "verl" / "grpo_fixed_micro_tp2.sh",
        to="open-instruct",
        framework="verl@0.7.1",
        env={"HOME": "/home/me"},
    )
    assert "--async_steps 1 \\" in verl.files["launch.sh"]
    assert "asynchrony.not-expressible" in codes(verl)


# ------------------------------------------------------------------ KL


@pytest.mark.parametrize(
    "version,value,estimator,stale",
    [
        # §3.2: estimate_kl stacks [d, d²/2, expm1(-d) + d, ratio·d]; kl1→0, kl2→1, kl3→2, kl4→3 (c4c1b1c8f).
        (HEAD, "0", "k1", False),
        (HEAD, "1", "k2", False),
        (HEAD, "2", "k3", False),
        (HEAD, "3", "k1", False),
        ("open-instruct@2025.10.20", "kl1", "k1", False),
        ("open-instruct@2025.10.20", "kl2", "k2", False),
        ("open-instruct@2025.10.20", "kl3", "k3", False),
        ("open-instruct@2025.10.20", "kl4", "k1", False),
        # Old spelling in a new version (olmo3/32b_instruct_rl.sh) and new spelling in an old one: rejected by
        # that version, read with the meaning the spelling had.
        (HEAD, "kl3", "k3", True),
        ("open-instruct@2025.10.20", "2", "k3", True),
    ],
)
def test_kl_estimator_old_and_new_spellings(version: str, value: str, estimator: str, stale: bool) -> None:
    explanation = load(fast("--beta 0.01", f"--kl_estimator {value}"), framework=version)
    assert explanation.spec.algorithm.kl_estimator == estimator
    assert ("keys.stale-value" in codes(explanation)) == stale
    # Index 3 / kl4 is ratio × d: the renumbering trap of §9.7 gets a warning.
    assert ("algorithm.kl-estimator" in codes(explanation)) == (value in ("3", "kl4"))


@pytest.mark.parametrize(
    "target,written", [(HEAD, "--kl_estimator 2 \\"), ("open-instruct@2025.10.20", "--kl_estimator kl3 \\")]
)
def test_kl3_is_written_in_the_target_versions_spelling(target: str, written: str) -> None:
    # The original run's kl3 (= k3) must become 2 after 2025-12-01,
    # never 3 (the mistake in Open-Instruct's own OLMo 2 page, §9.7).
    source = translator.load(FIXTURES / "open-instruct" / "olmo2_1b_grpo_gtrl.sh")
    assert source.spec.algorithm.kl_estimator == "k3"
    translation = translator.translate(source, to=target)
    assert written in translation.files["launch.sh"]
    assert translation.spec.algorithm.kl_estimator == "k3"


@pytest.mark.parametrize("beta,placement,coefficient", [("0.05", "loss", 0.05), ("0.0", "none", 0.0)])
def test_beta_is_kl_in_the_loss(beta: str, placement: str, coefficient: float) -> None:
    # §3.2: per_token_loss = pg_loss + beta · kl; beta 0 means no KL term (coefficient 0.0).
    algorithm = load(fast(f"--beta {beta}")).spec.algorithm
    assert (algorithm.kl_placement, algorithm.kl_coef) == (placement, coefficient)


def test_beta_without_reference_policy() -> None:
    # §1.2: load_ref_policy False with beta != 0 raises "When load_ref_policy=False, beta must be 0.0".
    explanation = load(fast("--no_load_ref_policy", "--beta 0.01"))
    assert "beta must be 0.0" in note(explanation, "algorithm.kl-without-reference")


# ------------------------------------------------------------------ advantages and loss


@pytest.mark.parametrize(
    "version,flags,std",
    [
        (HEAD, [], False),  # §5: HEAD default centered
        (CLASSIC, [], True),  # CLASSIC default standard
        (HEAD, ["--advantage_normalization_type standard"], True),  # (r - mean) / (std + 1e-8)
        (CLASSIC, ["--advantage_normalization_type centered"], False),  # r - mean
    ],
)
def test_advantage_normalization_type(version: str, flags: list[str], std: bool) -> None:
    algorithm = load(fast(*flags), framework=version).spec.algorithm
    assert algorithm.advantage_std_normalization is std
    assert algorithm.advantage_normalization_scope == "group"


@pytest.mark.parametrize(
    "version,flags,aggregation,scope",
    [
        # §3.1: since 2025-12-01, "token" divides by the accumulation group's token count over all ranks.
        (HEAD, [], "token-mean", "optimizer_step"),
        # A float divides the token sum by a constant (Dr. GRPO style).
        (HEAD, ["--loss_denominator 4096"], "seq-mean-token-sum-norm", "optimizer_step"),
        # Before: a token mean inside each packed micro-batch, ÷ accumulation steps.
        ("open-instruct@2025.10.20", [], "token-mean", "micro_batch"),
    ],
)
def test_loss_denominator(version: str, flags: list[str], aggregation: str, scope: str) -> None:
    algorithm = load(fast(*flags), framework=version).spec.algorithm
    assert (algorithm.loss_aggregation, algorithm.loss_normalizer_scope) == (aggregation, scope)


def test_loss_denominator_constant_round_trips() -> None:
    # The constant has no canonical field: it travels as a native extra and is written back unchanged.
    source = load(fast("--loss_denominator 4096"))
    assert [e.value for e in source.spec.extras if e.key == "loss_denominator"] == ["4096"]
    assert "--loss_denominator 4096 \\" in translator.translate(source, to=HEAD).files["launch.sh"]


def test_zero_std_filtering_and_active_sampling() -> None:
    # §4: filter_zero_std_samples (default True) drops groups; without active_sampling the batch shrinks (no
    # refill: one round), with it sampling continues until U groups survive (unlimited rounds).
    plain = load(fast()).spec.generation
    active = load(fast("--active_sampling", "--async_steps 2")).spec.generation
    assert (plain.filter_groups, plain.max_rounds_per_step) == (True, 1)
    assert (active.filter_groups, active.max_rounds_per_step) == (True, 0)
    assert load(fast("--filter_zero_std_samples False")).spec.generation.filter_groups is False
    # active_sampling needs async_steps > 1 (asserted in StreamingDataLoaderConfig.__post_init__).
    assert "async_steps > 1" in note(load(fast("--active_sampling"), framework=CLASSIC), "generation.active-sampling")


# ------------------------------------------------------------------ flags grpo_fast accepts but ignores


def test_ignored_flags_get_a_note_and_do_not_change_the_plan() -> None:
    # §1: gradient_accumulation_steps is parsed (TrainingConfig, since 2026-04-02) but the DeepSpeed config
    # hard-codes 1; max_train_steps does not shorten the run.
    base = load(fast("--num_unique_prompts_rollout 32"))
    explanation = load(
        fast("--num_unique_prompts_rollout 32", "--gradient_accumulation_steps 16", "--max_train_steps 10")
    )
    assert explanation.plan == base.plan
    ignored = [n.source_keys[0] for n in explanation.notes if n.code == "semantics.ignored-key"]
    assert ignored == ["gradient_accumulation_steps", "max_train_steps"]
    # Before 2026-04-02 the flag does not exist: HfArgumentParser rejects it.
    classic = load(fast("--gradient_accumulation_steps 16"), framework=CLASSIC)
    assert "keys.unknown-in-version" in codes(classic) and "semantics.ignored-key" not in codes(classic)


def test_warmup_ratio_takes_precedence_over_warm_up_steps() -> None:
    # §1.1: warm_up_steps counts scheduler (optimizer) steps; a positive warmup_ratio wins over it.
    steps = load(fast("--warm_up_steps 20"), framework=CLASSIC).spec.optimizer
    assert (steps.warmup_steps, steps.warmup_unit) == (20, "optimizer_steps")
    both = load(fast("--warm_up_steps 20", "--warmup_ratio 0.1"), framework=CLASSIC)
    assert both.spec.optimizer.warmup_ratio == 0.1 and both.spec.optimizer.warmup_steps is None
    assert "semantics.ignored-key" in codes(both)


def test_weight_decay_ignored_without_bias_and_norm_grouping() -> None:
    # grpo_fast's optimizer set-up: set_weight_decay_on_bias_and_norm
    # False → AdamW(all params) with torch's default 0.01.
    explanation = load(fast("--set_weight_decay_on_bias_and_norm False", "--weight_decay 0.1"))
    assert explanation.spec.optimizer.weight_decay == 0.01
    assert "semantics.ignored-key" in codes(explanation)


# ------------------------------------------------------------------ reading the launch line


def test_mason_gpu_request_is_checked() -> None:
    # §1.2 startup check: learners 8 + vLLM 4 × 2 = 16 GPUs; mason requests 1 × 8 = 8 → cannot be scheduled.
    script = (
        "python mason.py --cluster ai2/x --num_nodes 1 --gpus 8 --preemptible -- source setup.sh \\&\\& "
        "python open_instruct/grpo_fast.py --num_learners_per_node 8 --vllm_num_engines 4 "
        "--vllm_tensor_parallel_size 2\n"
    )
    assert "requests --num_nodes 1 × --gpus 8 = 8" in note(load(script), "topology.gpus-requested")


def test_flag_syntax_booleans_lists_prefixes() -> None:
    # §6: bare flags are True, --no_X is False, lists are space-separated, --key=value works, and argparse
    # expands an unambiguous prefix (--chat_template → --chat_template_name).
    explanation = load(
        fast(
            "--with_tracking",
            "--no_gather_whole_model",
            "--stop_strings '</answer>' '</s>'",
            "--num_learners_per_node=4",
            "--chat_template tulu",
        )
    )
    extras = {e.key: e.value for e in explanation.spec.extras}
    assert explanation.spec.logging.backends == ["wandb"] and extras["gather_whole_model"] is False
    # --chat_template_name is modelled (data.chat_template), no longer an extra.
    assert extras["stop_strings"] == ["</answer>", "</s>"] and explanation.spec.data.chat_template == "tulu"
    assert explanation.plan["data_parallel_size"] == 4
    assert "keys.abbreviated" in codes(explanation)


def test_typo_gets_the_closest_flag() -> None:
    explanation = load(fast("--num_unique_prompt_rollout 32"))
    assert "did you mean 'num_unique_prompts_rollout'" in note(explanation, "keys.unknown")
    assert explanation.plan["prompts_per_step"] == 16  # the typo is not applied: the default stays


@pytest.mark.parametrize(
    "flags,version",
    [
        (["--cliprange 0.2", "--async_mode False"], "2025.03.13"),  # the first grpo_fast.py Args
        (["--clip_higher 0.28", "--max_token_length 512"], "2025.06.02"),
        (["--active_sampling", "--kl_estimator kl3"], "2025.11.15"),  # before the renumbering
        (["--warm_up_steps 10", "--loss_fn dapo"], "2026.03.20"),  # until the OLMo-core config split
        (["--use_rho_correction False"], "2026.08.20"),
    ],
)
def test_version_is_inferred_from_the_flags(flags: list[str], version: str) -> None:
    explanation = load(fast(*flags), framework=None)
    assert explanation.version == version
    assert "version.assumed" in codes(explanation)


@pytest.mark.parametrize(
    "spelling,version",
    [
        ("v0.1.0", "2026.01.26"),
        ("0.3.0", "2026.06.11"),
        ("head", "2026.08.20"),
        ("classic", "2025.12.31"),
        ("2026-01-17", "2025.12.31"),
        ("2025.11.30", "2025.11.15"),
        ("tulu3", "2024.11.20"),
    ],
)
def test_version_spellings(spelling: str, version: str) -> None:
    assert translator.dialects.get("open-instruct").resolve_version(spelling) == version
    assert translator.dialects.get("allenai/open-instruct").name == "open-instruct"


def test_detection() -> None:
    from translator.dialects import detect

    for text in (
        fast(),
        "uv run --active open_instruct/grpo_fast.py --beta 0\n",
        "python open_instruct/grpo_vllm_thread_ray_gtrl.py --beta 0\n",
        "python open_instruct/grpo.py --beta 0\n",
    ):
        assert detect(Source(text, "run.sh")).name == "open-instruct"
    # Open-R1's src/open_r1/grpo.py stays TRL.
    assert detect(Source("accelerate launch src/open_r1/grpo.py --config r.yaml\n", "run.sh")).name == "trl"


# ------------------------------------------------------------------ writing


def test_written_launch_script_shape_and_read_back() -> None:
    source = translator.load(FIXTURES / "open-instruct" / "grpo_fast_8b_mason.sh")
    translation = translator.translate(source, to="open-instruct")
    text = translation.files["launch.sh"]
    lines = text.splitlines()
    start = lines.index("python open_instruct/grpo_fast.py \\")
    assert all(line.startswith("    --") or line == '    "$@"' for line in lines[start + 1 :])
    assert "# Ray cluster: 6 learner GPU(s) + 10 vLLM engine(s) × TP 1 = 16 GPUs" in text
    assert translation.plan == source.plan
    # Stale flags the target rejects are not written back; the rest of the source's flags are.
    assert "--max_token_length" not in text and "--chat_template_name tulu \\" in text


def test_writer_preserves_the_plan_from_verl_with_a_token_budget() -> None:
    # One plan, two spellings (sqlglot-style): 64 prompts × 8 = 512 samples; 4 updates of 128 samples,
    # 2 epochs → 8 updates; 8 learners; 8192-token micro-batches; 100 steps.
    plan = {
        "prompts_per_step": 64,
        "samples_per_prompt": 8,
        "samples_per_step": 512,
        "samples_per_optimizer_step": 128,
        "optimizer_steps_per_step": 8,
        "epochs_per_step": 2,
        "data_parallel_size": 8,
        "micro_batch_per_device": None,
        "grad_accum_steps": None,
        "total_steps": 100,
    }
    verl = (
        "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=64 "
        "actor_rollout_ref.rollout.n=8 actor_rollout_ref.actor.ppo_mini_batch_size=16 "
        "actor_rollout_ref.actor.ppo_epochs=2 actor_rollout_ref.actor.use_dynamic_bsz=True "
        "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=8192 actor_rollout_ref.rollout.name=vllm "
        "trainer.n_gpus_per_node=8 trainer.nnodes=1 trainer.total_training_steps=100\n"
    )
    # 100 steps × 512 samples = 51,200 episodes; 4 mini-batches; 1 row × 8192 tokens.
    open_instruct = fast(
        "--num_unique_prompts_rollout 64",
        "--num_samples_per_prompt_rollout 8",
        "--num_mini_batches 4",
        "--num_epochs 2",
        "--num_learners_per_node 8",
        "--per_device_train_batch_size 1",
        "--pack_length 8192",
        "--total_episodes 51200",
    )
    spellings = {"verl@0.9.1": verl, HEAD: open_instruct}
    for framework, text in spellings.items():
        read = translator.load(Source(text, "run.sh"), framework=framework)
        assert read.plan == plan, framework
        for target in spellings:
            written = translator.translate(read, to=target)
            assert written.plan == plan, f"{framework} → {target}"
            assert not [n for n in written.notes if n.code == "plan.not-preserved"]
    written = translator.translate(Source(verl, "run.sh"), to=HEAD, framework="verl@0.9.1").files["launch.sh"]
    assert "--pack_length 8192 \\" in written and "--total_episodes 51200 \\" in written


def test_legacy_target_writes_a_gtrl_script() -> None:
    # Before 2025-03-13 only the gtrl scripts exist: a GAE source becomes ppo_vllm_thread_ray_gtrl.py with
    # per-learner sizes: 224 prompts ÷ 7 = 32, 224 samples ÷ 7 = 32.
    source = translator.load(FIXTURES / "open-instruct" / "tulu3_8b_ppo_gtrl.sh")
    via_verl = translator.translate(source, to="verl")
    back = translator.translate(
        Source(via_verl.files["launch.sh"], "launch.sh", None, via_verl.files),
        to="open-instruct@2024.11.20",
        framework=f"verl@{via_verl.version}",
    )
    text = back.files["launch.sh"]
    assert "python open_instruct/ppo_vllm_thread_ray_gtrl.py \\" in text
    assert "--local_rollout_batch_size 32 \\" in text and "--local_mini_batch_size 32 \\" in text
    assert back.plan == source.plan


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("value,problem", [("abc", "whole number"), ("0", "greater than 0"), ("12.5", "whole number")])
def test_bad_batch_value(tmp_path: Path, value: str, problem: str) -> None:
    script = tmp_path / "run.sh"
    script.write_text(f"#!/bin/bash\npython open_instruct/grpo_fast.py \\\n  --num_unique_prompts_rollout {value}\n")
    assert_input_error(["explain", script], "num_unique_prompts_rollout", problem, "run.sh:2")


def test_bad_learner_list(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("python open_instruct/grpo_fast.py --num_learners_per_node 8 eight\n")
    assert_input_error(["explain", script], "num_learners_per_node", "whole numbers", "run.sh:1")


def test_unresolved_variable_in_the_training_flags(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("set -x\npython open_instruct/grpo_fast.py --num_unique_prompts_rollout $PROMPTS\n")
    # Open-Instruct's arithmetic cannot carry an unknown count yet: the variable is named (exit 2).
    assert_input_error(["explain", script], "$PROMPTS", "--env PROMPTS=VALUE")
    code, out, _ = run("explain", script, "--env", "PROMPTS=32", "--format", "json")
    assert code == 0 and '"prompts_per_step": 32' in out


def test_unresolved_variable_only_in_mason_options_is_not_an_error(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("python mason.py --image $IMAGE --gpus 8 -- python open_instruct/grpo_fast.py --beta 0\n")
    code, out, err = run("explain", script, "--format", "json")
    assert code == 0, err
    assert "input.unset-variable" in out


def test_no_launch_command_and_unsupported_program(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("echo python open_instruct/grpo_fast.py\n")
    assert_input_error(["explain", script, "--from", "open-instruct"], "no Open-Instruct launch command")
    script.write_text("python open_instruct/ppo_fast.py --beta 0\n")
    assert_input_error(["explain", script, "--from", "open-instruct"], "ppo_fast.py", "not read by rlconf")


def test_unknown_version() -> None:
    assert_input_error(
        ["explain", FIXTURES / "open-instruct" / "debug_single_gpu_uv.sh", "--from", "open-instruct@v9"],
        "unknown open-instruct version",
        "v0.3.0",
    )


# ------------------------------------------------------------------ round trips


# The fork_* fixtures test what a project's own copy of the program does to the plan
# (tests/test_open_instruct_forks.py); the launch arithmetic they share is the other cases'.
OI_CASES = [c for c in CASES if c.framework == "open-instruct" and not c.name.startswith("fork_")]
FAST_CASES = {
    "open-instruct/grpo_fast_8b_mason",
    "open-instruct/qwen3_dapo_uv_async",
    "open-instruct/debug_single_gpu_uv",
    "open-instruct/olmo2_1b_classic_kl_index3",
    "open-instruct/olmo3_32b_instruct_kl3_stale",
    "open-instruct/olmo3_32b_instruct_kl3_at_head",
    "open-instruct/grpo_fast_run_parts",
    "open-instruct/grpo_fast_fields",
    "open-instruct/slurm_bash_c_args_variable",
}
PACKED = {"micro_batch_per_device", "grad_accum_steps"}
# Plan fields the first leg cannot keep, and why.
LOSSY_FIRST_LEG: dict[str, dict[str, set[str]]] = {
    # verl expresses packed rows as a token budget (use_dynamic_bsz) and per-learner gtrl batches exactly.
    "verl": {
        # 64 prompts × 16 = 1024 samples per update do not split over 6 ranks (verl 0.9 asserts it): the mini-batch
        # must be a multiple of 6 / gcd(6, 16) = 3 prompts, at most 64 → 63 (1008 samples), ceil(1024 / 1008) = 2
        # updates per step.
        "open-instruct/grpo_fast_initial_2025_03": {"samples_per_optimizer_step", "optimizer_steps_per_step"},
    },
    "trl": {
        # TRL has no token budget: its writer picks a per-device sample count where the source packs rows.
        **dict.fromkeys(FAST_CASES, PACKED),
        # A PPO group of one: TRL's GRPO needs num_generations >= 2, so 224 prompts × 1 become 112 × 2.
        "open-instruct/tulu3_8b_ppo_gtrl": {"prompts_per_step", "samples_per_prompt"},
        # 1024 samples are not a multiple of 6 processes × 8: TRL rounds gradient_accumulation_steps and
        # steps_per_generation to 21 (1008 samples = 63 prompts), and packs by samples.
        "open-instruct/grpo_fast_initial_2025_03": {
            "prompts_per_step",
            "samples_per_step",
            "samples_per_optimizer_step",
        }
        | PACKED,
    },
}
# Fields still different after coming back (everything else returns exactly).
LOSSY_ROUND_TRIP: dict[str, dict[str, set[str]]] = {
    "verl": {},  # (grpo_fast_initial's changed mini-batch does not survive the way back: the plan returns)
    "trl": {
        "open-instruct/tulu3_8b_ppo_gtrl": {"prompts_per_step", "samples_per_prompt"},
        "open-instruct/grpo_fast_initial_2025_03": {
            "prompts_per_step",
            "samples_per_step",
            "samples_per_optimizer_step",
        },
    },
}


@pytest.mark.parametrize("other", ["verl", "trl"])
@pytest.mark.parametrize("case", OI_CASES, ids=case_id)
def test_round_trip_through_verl_and_trl(case: Case, other: str) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    there = translator.translate(source, to=other)
    back = translator.translate(
        Source(there.files["launch.sh"], "launch.sh", None, there.files),
        to=f"open-instruct@{source.version}",
    )
    key = case_id(case)
    first_leg = differing(source.plan, there.plan)
    assert first_leg == LOSSY_FIRST_LEG[other].get(key, set())
    assert noted(there) == first_leg, "every plan change of the first leg has a note"
    assert differing(source.plan, back.plan) == LOSSY_ROUND_TRIP[other].get(key, set())
    assert noted(back) == differing(there.plan, back.plan)


@pytest.mark.parametrize("case", OI_CASES, ids=case_id)
def test_round_trip_to_itself_keeps_plan_and_algorithm(case: Case) -> None:
    source = translator.load(case.path, **case.load_kwargs())
    again = translator.translate(source, to=f"open-instruct@{source.version}")
    assert again.plan == source.plan
    changed = [n for n in again.notes if n.code in ("plan.not-preserved", "translation.changed")]
    # The one allowed change: an async_steps that Open-Instruct itself rejects (active_sampling needs > 1)
    # is raised by the writer, which says so.
    if any(n.code == "asynchrony.changed" for n in again.notes):
        changed = [n for n in changed if n.source_keys != ["asynchrony.max_steps_ahead"]]
    assert not changed


# ------------------------------------------------------------------ the run beyond the batch plan
# docs/frameworks/open-instruct.md "Run parts": save_freq, checkpoint_state_freq and local_eval_every count
# training steps (one rollout step each); a mixer amount with a "." is a fraction, without one a prompt count.

RUN_PARTS = fast(
    "--model_name_or_path Qwen/Qwen3-8B",
    "--num_learners_per_node 4",
    "--vllm_num_engines 2",
    "--vllm_tensor_parallel_size 2",
    "--vllm_gpu_memory_utilization 0.8",
    "--dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 1.0 org/math 30186",
    "--dataset_mixer_list_splits train",
    "--dataset_mixer_eval_list org/eval 16",
    "--dataset_mixer_eval_list_splits test",
    "--save_freq 50",
    "--output_dir /out",
    "--keep_last_n_checkpoints 2",
    "--checkpoint_state_dir /ckpt",
    "--checkpoint_state_freq 50",
    "--local_eval_every 25",
    "--with_tracking",
    "--wandb_project oi-runs",
    "--exp_name my_run",
)


def test_run_parts_are_read() -> None:
    spec = load(RUN_PARTS).spec
    # Two datasets: the whole of gsm8k (1.0, a fraction) and 30186 prompts of math (a count).
    assert spec.data.train_sources == ["ai2-adapt-dev/rlvr_gsm8k_zs", "org/math"]
    assert spec.data.train_weights == [1.0, 30186.0] and spec.data.train_split == "train"
    # The eval list is one dataset capped at 16 prompts, split test.
    assert spec.data.eval_sources == ["org/eval"] and spec.data.eval_split == "test"
    assert spec.data.max_eval_prompts == 16
    # No --ground_truths_key / --sft_messages_key: the defaults "ground_truth" and "messages".
    assert (spec.data.answer_key, spec.data.prompt_key) == ("ground_truth", "messages")
    # apply_verifiable_reward defaults to True in grpo_fast: the built-in verifiers.
    assert spec.reward.builtin == ["open_instruct:verifiable"] and spec.reward.function_path is None
    # save_freq 50 training steps = 50 rollout steps; HF-format folders; state in /ckpt → resume auto.
    c = spec.checkpointing
    assert (c.every_steps, c.directory, c.hf_format, c.keep_last, c.resume) == (50, "/out", True, 2, "auto")
    assert spec.evaluation.every_steps == 25
    assert (spec.logging.project, spec.logging.run_name, spec.logging.backends) == ("oi-runs", "my_run", ["wandb"])
    # 2 engines × TP 2 = 4 rollout GPUs beside 4 learners.
    t = spec.topology
    assert (t.rollout_engines, t.rollout_gpus, t.rollout_gpu_memory_fraction) == (2, 4, 0.8)


def test_eval_cadence_without_eval_data_is_never() -> None:
    # local_eval_every only acts on dataset_mixer_eval_list; without it nothing is evaluated.
    assert load(fast("--local_eval_every 25")).spec.evaluation.every_steps == 0


def test_save_freq_minus_one_is_never_and_is_written_back() -> None:
    spec = load(fast("--save_freq -1")).spec
    assert spec.checkpointing.every_steps == 0
    assert (
        "--save_freq -1 \\"
        in translator.translate(Source(fast("--save_freq -1"), "run.sh"), to=HEAD).files["launch.sh"]
    )


def test_odd_mixer_is_a_config_error() -> None:
    with pytest.raises(translator.ConfigError) as raised:
        load(fast("--dataset_mixer_list org/a 1.0 org/b"))
    assert raised.value.key == "dataset_mixer_list" and "pairs" in str(raised.value)


def test_run_parts_round_trip() -> None:
    written = translator.translate(Source(RUN_PARTS, "run.sh"), to=HEAD).files["launch.sh"]
    for line in (
        "--dataset_mixer_list ai2-adapt-dev/rlvr_gsm8k_zs 1.0 org/math 30186",
        "--save_freq 50",
        "--dataset_mixer_eval_list org/eval 16",
        "--local_eval_every 25",
        "--with_tracking True",
        "--wandb_project oi-runs",
        "--exp_name my_run",
        "--checkpoint_state_dir /ckpt",
        "--keep_last_n_checkpoints 2",
        "--vllm_gpu_memory_utilization 0.8",
        "--vllm_num_engines 2",
    ):
        assert line in written


def test_older_versions_write_their_own_flag_names() -> None:
    # wandb_project_name before the OLMo-core config classes (2026.04.02).
    written = translator.translate(Source(RUN_PARTS, "run.sh"), to=CLASSIC).files["launch.sh"]
    assert "--wandb_project_name oi-runs" in written and "--wandb_project " not in written


SPEC = """framework = "verl"
[plan]
prompts_per_step = 64
samples_per_prompt = 8
samples_per_optimizer_step = 128
epochs_per_step = 1
data_parallel_size = 8
total_steps = 100
[topology]
nodes = 1
gpus_per_node = 8
training_gpus = 8
rollout_gpus = 0
rollout_tensor_parallel_size = 2
[reward]
function_path = "/home/me/reward.py"
function_name = "compute_score"
[data]
train_sources = ["/data/train.parquet"]
eval_sources = ["openai/gsm8k"]
eval_split = "test"
answer_key = "answer"
[checkpointing]
every_steps = 20
directory = "/ckpt/run1"
[evaluation]
every_steps = 10
before_training = true
[logging]
project = "proj"
run_name = "run1"
backends = ["console", "wandb", "tensorboard"]
"""


def test_foreign_run_parts_are_written_with_notes() -> None:
    translation = translator.translate(Source(SPEC, "spec.toml"), to=HEAD, framework="rlconf")
    written = translation.files["launch.sh"]
    for line in (
        "--dataset_mixer_list /data/train.parquet 1.0",
        "--dataset_mixer_eval_list openai/gsm8k 1.0",
        "--dataset_mixer_eval_list_splits test",
        "--ground_truths_key answer",
        "--save_freq 20",
        "--output_dir /ckpt/run1",
        "--local_eval_every 10",
        "--with_tracking True",
        "--wandb_project proj",
        "--exp_name run1",
        "--apply_verifiable_reward True",
    ):
        assert line in written
    # A reward file cannot be hooked in: a warning naming the file and what to do.
    assert "/home/me/reward.py:compute_score" in note(translation, "reward.not-expressible")
    assert "VerifierFunction" in note(translation, "reward.not-expressible")
    # 8 colocated GPUs become 8 learners + 1 engine × TP 2 = 10 GPUs: a warning saying so.
    assert "10 GPUs in all instead of 8" in note(translation, "topology.gpus-changed")
    assert "tensorboard" in note(translation, "logging.not-expressible")
    # before_training: grpo_fast's eval_on_step_0 (from 2025.10.20) runs the local evaluation at step 0.
    assert "--eval_on_step_0 True" in written
    assert not any("before training" in n.message for n in translation.notes)


@pytest.mark.parametrize(
    "flags,version",
    [
        # wandb_project_name is a flag up to 2026.03.20 (renamed wandb_project on 2026.04.02): the newest that has it.
        (("--wandb_project_name p",), "2026.03.20"),
        # local_eval_every from 2025.10.20 and wandb_project_name up to 2026.03.20: still 2026.03.20.
        (("--local_eval_every 10", "--wandb_project_name p"), "2026.03.20"),
        # num_evals exists only up to 2025.06.02 (INITIAL–2025.06.02): the newest that has it.
        (("--num_evals 3",), "2025.06.02"),
        # checkpoint_state_dir from 2025.06.02 with num_evals up to 2025.06.02: exactly 2025.06.02.
        (("--num_evals 3", "--checkpoint_state_dir /c", "--checkpoint_state_freq 10"), "2025.06.02"),
    ],
)
def test_run_part_flags_bound_the_version(flags: tuple[str, ...], version: str) -> None:
    assert load(fast(*flags), framework="open-instruct").spec.version == version


def test_a_verl_source_names_its_prompt_column() -> None:
    """verl reads the prompt from data.prompt_key (default ``prompt``; docs/data-contract.md), a chat list;
    grpo_fast.py reads it from --sft_messages_key (default ``messages``: open_instruct/dataset_transformation.py
    @e6c3044aa TokenizerConfig). The written line names ``prompt``, and no note says the column must become a
    chat list: it is one already."""
    translation = translator.translate(FIXTURES / "verl" / "v09_fetch_granularity_sp2.sh", to="open-instruct")
    assert "--sft_messages_key prompt \\" in translation.files["launch.sh"]
    assert not [n for n in translation.notes if n.code == "data.prompt-format"]
