"""SkyRL: its start-up rules in its own words per release, the two packages' key spellings and defaults, and the
writer's words for each package. Every expected value is worked out from docs/frameworks/skyrl.md (§3 the plan,
§5 the checks, §6 the releases) in the comment beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

import translator
from tests.conftest import CASES, assert_fixed_report, case_id, expect_finding, read_back
from translator.sources.files import Source

NEW = "python -m skyrl.train.entrypoints.main_base "
OLD = "uv run --isolated -m skyrl_train.entrypoints.main_base "


def check(text: str, framework: str) -> translator.CheckReport:
    return translator.check(Source(text, "run.sh"), framework=framework)


def fixed(text: str, framework: str, changes: dict) -> translator.CheckReport:
    """The check of ``text`` with a suggestion's changes applied (None: the key removed)."""
    words = text.split()
    for key, value in changes.items():
        words = [w for w in words if not w.startswith(key + "=")]
        if value is not None:
            words.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
    return check(" ".join(words), framework)


# (rule, config, framework, SkyRL's message worked out by hand)
VIOLATIONS = [
    (
        # policy DP 2, ref DP 3 (use_kl_loss on by default) → lcm 6 > 2 prompts × 2 = 4 samples; per GPU 1 × 2 // 2
        # = 1 passes, (4 // 2) % 1 = 0 passes (utils.py:185-190)
        "skyrl.lcm-dp",
        NEW + "trainer.train_batch_size=2 trainer.policy_mini_batch_size=1 generator.n_samples_per_prompt=2 "
        "trainer.placement.policy_num_gpus_per_node=2 trainer.placement.ref_num_gpus_per_node=3 "
        "generator.inference_engine.num_engines=2",
        "skyrl@0.3.0",
        "train_batch_size * n_samples_per_prompt (4) should be larger than or equal to the least common multiple of "
        "the data parallel sizes of the enabled models: policy_dp_size=2, ref_dp_size=3, lcm_dp_size=6",
    ),
    (
        # 96 prompts in mini-batches of 64 (utils.py:96-99)
        "skyrl.train-divisible-by-mini",
        NEW + "trainer.train_batch_size=96 trainer.policy_mini_batch_size=64 generator.n_samples_per_prompt=4 "
        "trainer.placement.policy_num_gpus_per_node=4 generator.inference_engine.num_engines=4",
        "skyrl@0.3.0",
        "train_batch_size 96 should be divisible by policy_mini_batch_size 64",
    ),
    (
        # colocate_all (default true) with 4 policy GPUs and the default 1 engine × TP 1 (utils.py:436-445)
        "skyrl.colocate-all-gpus",
        NEW
        + "trainer.placement.policy_num_gpus_per_node=4 trainer.train_batch_size=64 trainer.policy_mini_batch_size=16",
        "skyrl@0.3.0",
        "num_policy_gpus (4) and num_rollout_gpus (1) must be the same when colocating all models",
    ),
    (
        # use_kl_loss is on by default, so KL in the reward as well is refused (utils.py:300-302)
        "skyrl.kl-exclusive",
        NEW + "trainer.algorithm.use_kl_in_reward=true",
        "skyrl@0.3.0",
        "use_kl_in_reward and use_kl_loss should be mutually exclusive",
    ),
    (
        # from_cli_overrides refuses the '+' prefix (config.py:1241-1247)
        "skyrl.plus-prefix",
        NEW + "+trainer.my_knob=1",
        "skyrl@0.3.0",
        "The '+' prefix for adding new config fields is not supported: '+trainer.my_knob=1'. To add custom config "
        "fields, subclass the relevant config dataclass.",
    ),
    (
        # Megatron: 6 GPUs do not split into TP 4 groups (utils.py:88-91)
        "skyrl.megatron-world",
        NEW + "trainer.strategy=megatron trainer.placement.policy_num_gpus_per_node=6 "
        "trainer.placement.ref_num_gpus_per_node=6 trainer.policy.megatron_config.tensor_model_parallel_size=4 "
        "generator.inference_engine.num_engines=6 trainer.train_batch_size=64 trainer.policy_mini_batch_size=16",
        "skyrl@0.3.0",
        "policy_world_size 6 should be divisible by (pp * cp * tp) 4. This ensures that the data parallel size is "
        "an integer.",
    ),
    (
        # 8 GPUs: per GPU 32 × 5 // 8 = 20 samples of a mini-batch, micro 8 → 20 % 8 = 4 (utils.py:112-115)
        "skyrl.mini-per-gpu-divisible-by-micro",
        OLD + "trainer.placement.policy_num_gpus_per_node=8 trainer.placement.ref_num_gpus_per_node=8 "
        "generator.num_inference_engines=8 generator.inference_engine_tensor_parallel_size=1 "
        "trainer.train_batch_size=64 trainer.policy_mini_batch_size=32 generator.n_samples_per_prompt=5 "
        "trainer.micro_train_batch_size_per_gpu=8",
        "skyrl@skyrl_train-0.4.0",
        "normalized policy_mini_batch_size_per_gpu 20 should be divisible by micro_train_batch_size_per_gpu 8",
    ),
]


@pytest.mark.parametrize("rule,text,framework,message", VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_each_rule_in_skyrls_words_and_its_fix_clears_it(rule: str, text: str, framework: str, message: str) -> None:
    report = check(text, framework)
    finding = expect_finding(report, rule, "error", message)
    suggestion = finding.suggestions[0]
    assert_fixed_report(fixed(text, framework, suggestion.changes), rule, suggestion)


def test_rules_follow_the_release() -> None:
    # No colocation check before skyrl_train 0.4.0 (§6): 4 policy GPUs and 1 engine pass in skyrl_train 0.3.0.
    colocate = VIOLATIONS[2][1].replace(NEW, OLD)
    assert not check(colocate, "skyrl@skyrl_train-0.3.0").errors
    # No lcm check in skyrl_train 0.1.0 (§6): the policy DP 2 / ref DP 3 config passes there (its default TP 4 engines
    # are not checked against the GPUs before 0.4.0 either).
    lcm = (
        OLD + "trainer.train_batch_size=2 trainer.policy_mini_batch_size=1 generator.n_samples_per_prompt=2 "
        "trainer.placement.policy_num_gpus_per_node=2 trainer.placement.ref_num_gpus_per_node=3"
    )
    assert not check(lcm, "skyrl@skyrl_train-0.1.0").errors
    assert [e.rule for e in check(lcm, "skyrl@skyrl_train-0.2.0").errors] == ["skyrl.lcm-dp"]
    # The Hydra package appends a '+key' (no error); the skyrl package refuses it.
    assert not check(OLD + "+trainer.my_knob=1", "skyrl@skyrl_train-0.4.0").errors


def test_release_defaults() -> None:
    # skyrl_train 0.1.0–0.3.0: policy_num_gpus_per_node defaults to 4 (ppo_base_config.yaml:17@skyrl_train-v0.1.0),
    # 1 from skyrl_train 0.4.0; 256 default mini-batch × 5 = 1280 samples ÷ DP 4 ÷ micro 1 = 320 accumulation steps.
    old = translator.load(Source(OLD + "trainer.epochs=1", "run.sh"), framework="skyrl@skyrl_train-0.3.0")
    assert (old.plan["data_parallel_size"], old.plan["grad_accum_steps"]) == (4, 320)
    assert old.spec.topology.rollout_tensor_parallel_size == 4
    new = translator.load(Source(OLD + "trainer.epochs=1", "run.sh"), framework="skyrl@skyrl_train-0.4.0")
    assert (new.plan["data_parallel_size"], new.plan["grad_accum_steps"]) == (1, 1280)
    # trainer.strategy: fsdp2 up to 0.2.0, fsdp from 0.3.0; both are the FSDP backend.
    for version in ("0.2.0", "0.3.0"):
        spec = translator.load(Source(NEW + "trainer.epochs=1", "run.sh"), framework=f"skyrl@{version}").spec
        assert spec.topology.training_backend == "fsdp"


def test_token_budget_exists_from_0_3_0() -> None:
    text = NEW + "trainer.max_tokens_per_microbatch=8192"
    budget = translator.load(Source(text, "run.sh"), framework="skyrl@0.3.0")
    assert budget.spec.token_budget.max_tokens_per_device == 8192
    assert budget.plan["micro_batch_per_device"] is None  # packed by tokens (config.py:944-955)
    older = translator.load(Source(text, "run.sh"), framework="skyrl@0.2.0")
    assert "keys.unknown-in-version" in {n.code for n in older.notes}
    assert older.plan["micro_batch_per_device"] == 1
    # a token budget that is not a number (a list) is one input error naming the key, not a comparison crash
    with pytest.raises(translator.ConfigError, match="max_tokens_per_microbatch must be a number"):
        translator.load(Source(NEW + 'trainer.max_tokens_per_microbatch="[1, 2]"', "run.sh"), framework="skyrl@0.3.0")


def test_fully_async_entry_point_gives_the_policy_lag() -> None:
    # A fully-async entry point of one's own reads max_staleness_steps 2 as the lag; main_base is synchronous.
    text = (
        "python -m examples.train.algorithms.dapo.main_dapo_fully_async trainer.fully_async.enabled=true "
        "trainer.fully_async.max_staleness_steps=2"
    )
    lagged = translator.load(Source(text, "run.sh"), framework="skyrl@0.3.0")
    assert lagged.spec.asynchrony.max_steps_ahead == 2
    sync = translator.load(
        Source(text.replace("examples.train.algorithms.dapo.main_dapo_fully_async", NEW.split()[2]), "run.sh"),
        framework="skyrl@0.3.0",
    )
    assert sync.spec.asynchrony.max_steps_ahead == 0
    assert "skyrl.async-ignored" in {n.code for n in sync.notes}


def test_the_writer_uses_each_packages_spelling_and_quoting() -> None:
    case = next(c for c in CASES if case_id(c) == "skyrl/gsm8k_colocated_4gpu_v030")
    old = translator.translate(case.path, to="skyrl@skyrl_train-0.4.0", **case.load_kwargs())
    launch = old.files["launch.sh"]
    assert "skyrl_train.entrypoints.main_base" in launch
    assert "generator.num_inference_engines=4 " in launch and "inference_engine.num_engines" not in launch
    new = translator.translate(case.path, to="skyrl@0.3.0", **case.load_kwargs())
    assert "generator.inference_engine.num_engines=4 " in new.files["launch.sh"]
    # A run name with a quote, a space and a literal '${' (OmegaConf's escape '\${', written '\\\${' inside bash's
    # double quotes) comes back as written: a YAML flow value with the escape again.
    text = NEW + 'trainer.run_name="it\'s a \\\\\\${run}" trainer.placement.policy_num_gpus_per_node=1'
    source = translator.load(Source(text, "run.sh"), framework="skyrl@0.3.0")
    assert source.spec.logging.run_name == "it's a ${run}"
    written = translator.translate(source, to="skyrl@0.3.0")
    back = translator.load(read_back(written), framework="skyrl@0.3.0")
    assert back.spec.logging.run_name == "it's a ${run}"
    assert back.plan == source.plan


_OWN_ENTRY = (
    "uv run --isolated --extra fsdp -m {module} \\\n"
    "  data.train_data=\"['$HOME/data/train.parquet']\" \\\n"
    "  trainer.placement.colocate_all=true trainer.placement.policy_num_gpus_per_node=4 \\\n"
    "  generator.inference_engine.num_engines=4 trainer.train_batch_size=8 trainer.policy_mini_batch_size=4 \\\n"
    "  trainer.micro_train_batch_size_per_gpu=2 generator.n_samples_per_prompt=4\n"
)


def test_a_projects_own_entry_module_with_skyrls_overrides_is_skyrl_read_as_a_fork() -> None:
    # data.train_data= is also verl's argument namespace; trainer.placement.* and generator.* are SkyRL's alone.
    # The module is the project's own (an integration's main_*), so main_base's semantics are assumed:
    # 8 prompts x 4 = 32 samples per step; mini-batch 4 prompts x 4 = 16 samples -> 2 optimizer steps per step.
    explanation = translator.load(Source(_OWN_ENTRY.format(module="examples.integrations.main_env"), "run.sh"))
    assert explanation.spec.framework == "skyrl"
    assert explanation.plan["samples_per_step"] == 32
    assert explanation.plan["optimizer_steps_per_step"] == 2
    assert "framework.fork" in {n.code for n in explanation.notes}
    assert explanation.certainty["samples_per_step"].level == "assumed"


def _project_package(root: Path, name: str) -> Path:
    """A project checkout with the package examples/<name>/ (its modules run as ``-m examples.<name>.<module>``)."""
    (root / ".git").mkdir()
    package = root / "examples" / name
    package.mkdir(parents=True)
    for init in (root / "examples" / "__init__.py", package / "__init__.py"):
        init.write_text("")
    return package


def test_an_own_entry_importing_skyrl_train_is_read_in_the_hydra_era(tmp_path: Path) -> None:
    # The project's entry imports skyrl_train (main_base's experiment): the Hydra-era package, so its keys are
    # skyrl_train's (generator.num_inference_engines, generator.inference_engine_tensor_parallel_size) and the
    # version is skyrl_train's newest; without the import the newest skyrl package is assumed and those keys are
    # unknown there. 2 engines × TP 2 = 4 rollout GPUs.
    entry = _project_package(tmp_path, "agent") / "main_agent.py"
    entry.write_text("from skyrl_train.entrypoints.main_base import BasePPOExp, validate_cfg\n")
    launch = _OWN_ENTRY.format(module="examples.agent.main_agent").replace(
        "generator.inference_engine.num_engines=4",
        "generator.num_inference_engines=2 generator.inference_engine_tensor_parallel_size=2",
    )
    (tmp_path / "run.sh").write_text(launch)
    explanation = translator.load(str(tmp_path / "run.sh"))
    assert explanation.version == "skyrl_train-0.4.0"
    assert "keys.unknown" not in {n.code for n in explanation.notes}
    assert explanation.spec.get("topology.rollout_tensor_parallel_size") == 2
    entry.write_text("from skyrl.train.entrypoints.main_base import BasePPOExp\n")
    newer = translator.load(str(tmp_path / "run.sh"))
    assert newer.version == "0.4.0" and "keys.unknown" in {n.code for n in newer.notes}


BASE = NEW + "trainer.train_batch_size=8 trainer.policy_mini_batch_size=4 generator.n_samples_per_prompt=4 "


def test_main_base_refuses_a_key_its_config_lacks(tmp_path: Path) -> None:
    # from_cli_overrides builds SkyRLTrainConfig with build_nested_dataclass: a key a level lacks raises
    # "ValueError: Invalid fields {'reward_num_nodes'} for PlacementConfig" (config.py:1055-1064,1148@skyrl-v0.3.0;
    # the 0.4.0 wheel raises it too), before anything trains
    (tmp_path / "run.sh").write_text(BASE + "trainer.placement.reward_num_nodes=2\n")
    with pytest.raises(translator.ConfigError, match="reward_num_nodes"):
        translator.load(str(tmp_path / "run.sh"), framework="skyrl@0.4.0", refuse_rejected_keys=True)


def test_keys_from_cli_overrides_rewrites_before_the_check() -> None:
    # config.py:1289-1336@skyrl-v0.3.0: async_engine=true is dropped (always on), false refused in SkyRL's words;
    # trainer.use_sample_packing becomes trainer.remove_microbatch_padding
    kept = translator.load(
        Source(BASE + "generator.inference_engine.async_engine=true\n", "run.sh"), framework="skyrl@0.4.0"
    )
    assert kept.plan["samples_per_step"] == 32  # 8 prompts × 4
    with pytest.raises(translator.ConfigError, match=r"async_engine=False` is no longer supported"):
        translator.load(
            Source(BASE + "generator.inference_engine.async_engine=false\n", "run.sh"), framework="skyrl@0.4.0"
        )
    renamed = translator.load(Source(BASE + "trainer.use_sample_packing=false\n", "run.sh"), framework="skyrl@0.4.0")
    assert "keys.renamed" in {n.code for n in renamed.notes}
    assert "keys.unknown" not in {n.code for n in renamed.notes}
    with pytest.raises(translator.ConfigError, match=r"Specify only one of trainer\.use_sample_packing"):
        both = BASE + "trainer.use_sample_packing=false trainer.remove_microbatch_padding=false\n"
        translator.load(Source(both, "run.sh"), framework="skyrl@0.4.0")


def _skyrl_copy(root: Path, version: str) -> None:
    """A checkout holding the skyrl package: its version and a config tree with the keys BASE sets and one placement
    field."""
    (root / ".git").mkdir()
    config = root / "skyrl" / "train" / "config"
    config.mkdir(parents=True)
    (root / "skyrl" / "__init__.py").write_text(f'__version__ = "{version}"\n')
    (root / "skyrl" / "train" / "entrypoints").mkdir()
    (root / "skyrl" / "train" / "entrypoints" / "main_base.py").write_text("")
    (config / "config.py").write_text(
        "from dataclasses import dataclass, field\n\n"
        "@dataclass\nclass PlacementConfig:\n    colocate_all: bool = True\n\n"
        "@dataclass\nclass TrainerConfig:\n    placement: PlacementConfig = field(default_factory=PlacementConfig)\n"
        "    train_batch_size: int = 1024\n    policy_mini_batch_size: int = 256\n\n"
        "@dataclass\nclass GeneratorConfig:\n    n_samples_per_prompt: int = 5\n\n"
        "@dataclass\nclass SkyRLTrainConfig:\n    trainer: TrainerConfig = field(default_factory=TrainerConfig)\n"
        "    generator: GeneratorConfig = field(default_factory=GeneratorConfig)\n"
    )


def test_a_checkout_of_skyrl_is_read_at_its_version_and_refuses_keys_its_config_lacks(tmp_path: Path) -> None:
    _skyrl_copy(tmp_path, "0.3.0")
    (tmp_path / "run.sh").write_text(BASE + "trainer.placement.colocate_all=true\n")
    assert translator.load(str(tmp_path / "run.sh")).version == "0.3.0"  # skyrl/__init__.py's __version__
    (tmp_path / "run.sh").write_text(BASE + "trainer.placement.reward_num_nodes=2\n")
    with pytest.raises(translator.ConfigError, match=r"declares no 'trainer\.placement\.reward_num_nodes'"):
        translator.load(str(tmp_path / "run.sh"), refuse_rejected_keys=True)


def test_a_project_fully_async_entry_builds_its_own_config(tmp_path: Path) -> None:
    # examples' main_dapo_fully_async: DAPOConfig = make_config(algorithm_cls=DAPOAlgorithmConfig) adds
    # trainer.algorithm.overlong_buffer_len, so the release's key list does not refuse it
    (_project_package(tmp_path, "dapo") / "main_dapo_fully_async.py").write_text(
        "import sys\nfrom skyrl.train.config import make_config\nfrom skyrl.train.fully_async_trainer import "
        "FullyAsyncRayPPOTrainer\nDAPOConfig = make_config()\ncfg = DAPOConfig.from_cli_overrides(sys.argv[1:])\n"
    )
    launch = BASE.replace("skyrl.train.entrypoints.main_base", "examples.dapo.main_dapo_fully_async")
    (tmp_path / "run.sh").write_text(launch + "trainer.algorithm.overlong_buffer_len=4096\n")
    explanation = translator.load(str(tmp_path / "run.sh"), framework="skyrl@0.4.0", refuse_rejected_keys=True)
    assert explanation.plan["samples_per_step"] == 32


def test_simulated_training_trains_nothing() -> None:
    # simulate_training=true (a key from 0.3.0): main_base skips build_models and FullyAsyncTrainerSim sleeps in
    # place of each step (main_base.py:301-313, fully_async_trainer_sim.py:54-73@skyrl-v0.3.0)
    text = BASE + "trainer.fully_async.enabled=true trainer.fully_async.simulate_training=true\n"
    with pytest.raises(translator.ConfigError, match="trains nothing"):
        translator.load(Source(text, "run.sh"), framework="skyrl@0.4.0")
    off = text.replace("simulate_training=true", "simulate_training=false")
    assert translator.load(Source(off, "run.sh"), framework="skyrl@0.4.0").plan["samples_per_step"] == 32


def test_an_uneven_mini_batch_is_padded_per_rank_from_0_2_0() -> None:
    # 4 prompts × 5 = 20 samples on 8 ranks: validate_batch_sizes floors 20 // 8 = 2, a multiple of micro 2 (passes);
    # stage_chunks pads to 24 (dispatch.py:151-163@skyrl-v0.3.0), 3 rows a rank, BatchIterator takes ceil(3 / 2) = 2
    # micro-batches (worker_utils.py:187-194): 2, not 2 // 2 = 1
    text = (
        NEW + "trainer.train_batch_size=8 trainer.policy_mini_batch_size=4 generator.n_samples_per_prompt=5 "
        "trainer.placement.policy_num_gpus_per_node=8 trainer.micro_train_batch_size_per_gpu=2\n"
    )
    explanation = translator.load(Source(text, "run.sh"), framework="skyrl@0.4.0")
    assert explanation.plan["data_parallel_size"] == 8 and explanation.plan["samples_per_optimizer_step"] == 20
    assert explanation.plan["grad_accum_steps"] == 2


def test_step_wise_trajectories_leave_the_micro_batch_count_unknown() -> None:
    # each turn is a sequence of its own; a mini-batch spans policy_mini_batch_size prompts whatever their turns
    # (preprocess.py:235-262@skyrl-v0.3.0): its sequences, so its micro-batches, depend on the rollouts
    text = BASE + "generator.step_wise_trajectories=true\n"
    explanation = translator.load(Source(text, "run.sh"), framework="skyrl@0.4.0")
    assert explanation.plan["grad_accum_steps"] is None
    assert explanation.plan["samples_per_optimizer_step"] == 16  # 4 prompts × 4 trajectories


def test_a_key_only_some_releases_refuse_is_not_refused_on_an_assumed_release(tmp_path: Path) -> None:
    # async_engine is a field of 0.1.0 and 0.2.0 (config.py:442@skyrl-v0.1.0); from 0.3.0 from_cli_overrides refuses
    # false. With no release stated the newest is assumed, so the launch is read with a warning, not refused.
    (tmp_path / "run.sh").write_text(BASE + "generator.inference_engine.async_engine=false\n")
    explanation = translator.load(str(tmp_path / "run.sh"), refuse_rejected_keys=True)
    assert explanation.plan["samples_per_step"] == 32
    assert "keys.unknown-in-version" in {n.code for n in explanation.notes}
    assert translator.load(str(tmp_path / "run.sh"), framework="skyrl@0.1.0").plan["samples_per_step"] == 32


@pytest.mark.parametrize(
    ("launch", "entry_text", "what"),
    [
        # SkyRL's own supervised fine-tuning entry (skyrl/train/main_sft.py@skyrl-v0.3.0)
        (
            "uv run --isolated -m skyrl.train.main_sft trainer.epochs=1\n",
            None,
            "skyrl.train.main_sft is SkyRL's supervised",
        ),
        # an inference server that takes the same overrides, and generation and evaluation only
        (
            "python -m skyrl.train.entrypoints.serve generator.inference_engine.num_engines=4\n",
            None,
            "serve trains nothing",
        ),
        (
            "python -m skyrl.train.entrypoints.main_generate generator.n_samples_per_prompt=4\n",
            None,
            "main_generate trains nothing",
        ),
        # a project entry built on the SFT trainer
        (
            "python -m examples.sft.main_sft_callbacks trainer.epochs=1\n",
            "from skyrl.train.sft_trainer import SFTTrainer\n",
            "examples.sft.main_sft_callbacks is SkyRL's supervised fine-tuning",
        ),
    ],
)
def test_a_skyrl_run_that_trains_no_policy_on_rollouts_is_refused_saying_what_it_runs(
    tmp_path: Path, launch: str, entry_text: str | None, what: str
) -> None:
    if entry_text is not None:
        (_project_package(tmp_path, "sft") / "main_sft_callbacks.py").write_text(entry_text)
    script = tmp_path / "run.sh"
    script.write_text(launch)
    with pytest.raises(translator.ConfigError, match="no SkyRL RL training launch found") as error:
        translator.explain(str(script), framework="skyrl")
    assert what in error.value.message and "run.sh:1" in error.value.message
