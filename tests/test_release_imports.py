"""The launched code's imports of the installed framework, against the names each release defines
(translator/frameworks/{trl,verl,openrlhf}/release_names.txt, from the PyPI wheels by scripts/gen_release_names.py):
under a release the project states, an import that release lacks stops the launch (ImportError before training),
so rlconf refuses it (exit 2); for TRL, with no release stated, the imports bound the release rlconf assumes.

The release facts the tests rely on, read in the wheels themselves (unzip -l / grep):
- trl/extras/profiling.py is first shipped in trl 0.16.0 (absent from 0.15.2's wheel);
- trl/import_utils.py defines is_rich_available up to 0.17.0; 0.18.0's no longer does;
- GRPOConfig and GRPOTrainer are exported by the top-level trl from 0.14.0 (the first GRPO release) on.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import translator
from translator.cli import main
from translator.dialects.registry import get as get_dialect
from translator.dialects.release_names import load

CONFIG = (
    "    args = GRPOConfig(output_dir='o', per_device_train_batch_size=4, num_generations=8,\n"
    "                      gradient_accumulation_steps=2)\n"
    "    GRPOTrainer(model='m', args=args, reward_funcs=[], train_dataset=None).train()\n"
)


def _project(root: Path, imports: str, pin: str | None, own_trl: bool = False) -> Path:
    """A project (top marked by .git) whose launch runs src/train.py on 8 processes; train.py's top holds
    ``imports`` after `from trl import GRPOConfig, GRPOTrainer`; requirements.txt pins ``pin``."""
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    if pin:
        (root / "requirements.txt").write_text(pin + "\n")
    if own_trl:  # the project's own copy of trl, found first from the script's folder
        (root / "src" / "trl" / "extras").mkdir(parents=True)
        (root / "src" / "trl" / "__init__.py").write_text("GRPOConfig = GRPOTrainer = None\n")
        (root / "src" / "trl" / "extras" / "__init__.py").write_text("")
        (root / "src" / "trl" / "extras" / "profiling.py").write_text("def profiling_decorator(f):\n    return f\n")
    (root / "src" / "train.py").write_text(
        f"from trl import GRPOConfig, GRPOTrainer\n{imports}\n\n\ndef main():\n{CONFIG}\n\nmain()\n"
    )
    (root / "run.sh").write_text("accelerate launch --num_processes 8 src/train.py\n")
    return root / "run.sh"


def test_an_import_the_pinned_release_lacks_stops_the_launch(tmp_path: Path) -> None:
    script = _project(tmp_path, "from trl.extras.profiling import profiling_decorator", "trl==0.14.0")
    with pytest.raises(translator.ConfigError, match=r"trl\.extras\.profiling.*trl 0\.14\.0") as error:
        translator.explain(str(script))
    assert error.value.file == "src/train.py" and error.value.line == 2
    assert "0.16.0" in (error.value.hint or "")
    result = CliRunner().invoke(main, ["explain", str(script)])
    assert result.exit_code == 2 and "ImportError" in result.output


def test_a_name_removed_before_the_pinned_release_stops_the_launch(tmp_path: Path) -> None:
    script = _project(tmp_path, "from trl.import_utils import is_rich_available", "trl==0.18.0")
    with pytest.raises(translator.ConfigError, match=r"imports is_rich_available from trl\.import_utils"):
        translator.explain(str(script))


def test_an_import_the_pinned_release_has_reads(tmp_path: Path) -> None:
    script = _project(tmp_path, "from trl.extras.profiling import profiling_decorator", "trl==0.16.0")
    explanation = translator.explain(str(script))
    assert explanation.spec.version == "0.16.0"
    # trl 0.16.0: num_generations 8 completions per prompt; 4 per device × 8 processes × 2 accumulation steps
    assert explanation.spec.plan.samples_per_prompt == 8


def test_an_import_under_try_or_of_the_projects_own_trl_is_not_judged(tmp_path: Path) -> None:
    guarded = "try:\n    from trl.extras.profiling import profiling_decorator\nexcept ImportError:\n    pass"
    translator.explain(str(_project(tmp_path / "a", guarded, "trl==0.14.0")))
    # its own trl package (src/trl/) is what `import trl` finds from the script's folder: not the release
    own = _project(tmp_path / "b", "from trl.extras.profiling import profiling_decorator", "trl==0.14.0", True)
    translator.explain(str(own))


def test_a_commit_pin_is_judged_against_the_releases_around_it(tmp_path: Path) -> None:
    # commit 0f26049e precedes 0.16.0 in trl's history (commits.txt: "before 0.16.0"): the candidates are 0.15.2
    # and 0.16.0. profiling exists at 0.16.0, so the import may work at that commit: not refused
    pin = "trl @ git+https://github.com/huggingface/trl.git@0f26049e"
    translator.explain(str(_project(tmp_path / "a", "from trl.extras.profiling import profiling_decorator", pin)))
    # a name neither 0.15.2 nor 0.16.0 has (GRPOTrainer's file defines no such name in any release) is refused
    with pytest.raises(translator.ConfigError, match=r"trl 0\.15\.2 and 0\.16\.0"):
        translator.explain(str(_project(tmp_path / "b", "from trl.trainer.grpo_trainer import NoSuchName", pin)))


def test_imports_bound_the_assumed_release(tmp_path: Path) -> None:
    # no pin, no version-specific key: without imports, the newest release would be assumed; is_rich_available in
    # trl.import_utils exists up to 0.17.0, so the newest release the script can run on is 0.17.0
    script = _project(tmp_path, "from trl.import_utils import is_rich_available", None)
    explanation = translator.explain(str(script))
    assert explanation.spec.version == "0.17.0"
    assumed = [n.message for n in explanation.notes if n.code == "version.assumed"]
    assert assumed and "trl.import_utils" in assumed[0] and "0.14.0–0.17.0" in assumed[0]


def test_the_release_table_reads_as_the_wheels_say() -> None:
    path = get_dialect("trl").release_table()
    assert path is not None
    table = load(path)
    assert table.releases_with("trl.extras.profiling", "profiling_decorator")[0] == "0.16.0"
    assert table.releases_with("trl.import_utils", "is_rich_available")[-1] == "0.17.0"
    assert table.missing("trl", "GRPOTrainer", "0.14.0") is None
    assert table.missing("trl.extras.profiling", None, "0.15.2") == "trl.extras.profiling"
    assert table.missing("trl.no_such_module", None, "1.16.0") == "trl.no_such_module"
    assert table.missing("numpy", "array", "1.16.0") is None  # another package: nothing to tell by


VERL_LAUNCH = """\
python3 -m mylab.main_ppo data.train_batch_size=32 actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    trainer.n_gpus_per_node=8 trainer.nnodes=1
"""
OPENRLHF_LAUNCH = """\
python3 -m mylab.train_ppo_ray --pretrain m --actor_num_nodes 1 --actor_num_gpus_per_node 8 \\
    --vllm_num_engines 2 --vllm_tensor_parallel_size 1 --colocate_all_models --micro_train_batch_size 4 \\
    --train_batch_size 128 --micro_rollout_batch_size 8 --rollout_batch_size 32 --n_samples_per_prompt 4 \\
    --prompt_data d --input_key q --remote_rm_url r.py
"""


def _entry_project(root: Path, pin: str, module: str, imports: str, launch: str) -> Path:
    """A project whose launch runs its own entry module mylab.<module> (the installed framework's release, pinned in
    requirements.txt, is what it imports)."""
    (root / ".git").mkdir(parents=True)
    (root / "mylab").mkdir()
    (root / "requirements.txt").write_text(pin + "\n")
    (root / "mylab" / "__init__.py").write_text("")
    (root / "mylab" / f"{module}.py").write_text(f"{imports}\n\n\ndef main():\n    pass\n")
    (root / "run.sh").write_text(launch)
    return root / "run.sh"


def test_a_verl_entry_importing_what_the_pinned_verl_lacks_is_refused(tmp_path: Path) -> None:
    # verl/trainer/ppo/core_algos.py defines agg_loss from verl 0.4.0 on (absent from 0.3.0.post1's wheel)
    imports = "from verl.trainer.ppo.core_algos import agg_loss"
    old = _entry_project(tmp_path / "a", "verl==0.3.0.post1", "main_ppo", imports, VERL_LAUNCH)
    with pytest.raises(translator.ConfigError, match=r"agg_loss from verl\.trainer\.ppo\.core_algos.*0\.3\.0\.post1"):
        translator.explain(str(old))
    # 8 GPUs, 32 prompts × 4 = 128 samples, mini-batch 16 prompts × 4 = 64 samples: 2 updates per step
    explanation = translator.explain(
        str(_entry_project(tmp_path / "b", "verl==0.4.0", "main_ppo", imports, VERL_LAUNCH))
    )
    assert explanation.spec.plan.optimizer_steps_per_step == 2


def test_an_openrlhf_entry_importing_what_the_pinned_release_lacks_is_refused(tmp_path: Path) -> None:
    # openrlhf/models/__init__.py exports aggregate_loss from 0.10.3 on (not in 0.10.2 or earlier)
    imports = "from openrlhf.models import aggregate_loss"
    script = _entry_project(tmp_path, "openrlhf==0.8.0", "train_ppo_ray", imports, OPENRLHF_LAUNCH)
    result = CliRunner().invoke(main, ["explain", str(script)])
    assert result.exit_code == 2 and "aggregate_loss from openrlhf.models" in result.output


def test_a_lock_entry_installed_from_git_is_no_release(tmp_path: Path) -> None:
    # uv.lock locks verl from a fork's git repository: its `version = "0.3.0.post1"` is the fork's own metadata,
    # and the fork may define names no release has, so the entry's imports are not judged against a release
    imports = "from verl.trainer.ppo.core_algos import agg_loss"
    script = _entry_project(tmp_path, "", "main_ppo", imports, VERL_LAUNCH)
    (tmp_path / "requirements.txt").unlink()
    (tmp_path / "uv.lock").write_text(
        'version = 1\n\n[[package]]\nname = "verl"\nversion = "0.3.0.post1"\n'
        'source = { git = "https://github.com/someone/verl-fork?rev=main#fc628e73f3bc4c5b4ea30163a8f38e65751a9962" }\n'
    )
    assert translator.explain(str(script)).spec.plan.optimizer_steps_per_step == 2


@pytest.mark.parametrize(("pin", "stops"), [("trl==0.14.0", True), ("trl==0.16.0", False)])
def test_a_recipe_read_alone_is_judged_by_the_imports_of_the_script_that_reads_it(
    tmp_path: Path, pin: str, stops: bool
) -> None:
    # recipes/qwen/grpo/config.yaml is read by the project's one GRPO script, src/grpo.py (a TrlParser and
    # GRPOTrainer): what that script imports at start-up must exist in the pinned release, as for a launch.
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text(pin + "\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "grpo.py").write_text(
        "from trl import GRPOConfig, GRPOTrainer, TrlParser\nfrom trl.extras.profiling import profiling_decorator\n"
        "\n\ndef main():\n    (args,) = TrlParser((GRPOConfig,)).parse_args_and_config()\n"
        "    GRPOTrainer(model='m', args=args, reward_funcs=[]).train()\n\n\nmain()\n"
    )
    recipe = tmp_path / "recipes" / "qwen" / "grpo" / "config.yaml"
    recipe.parent.mkdir(parents=True)
    recipe.write_text("per_device_train_batch_size: 4\nnum_generations: 8\ngradient_accumulation_steps: 2\n")
    if stops:
        with pytest.raises(translator.ConfigError, match=r"trl\.extras\.profiling.*trl 0\.14\.0"):
            translator.explain(str(recipe))
    else:
        assert translator.explain(str(recipe)).spec.version == "0.16.0"
