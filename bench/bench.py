"""Speed of rlconf, measured against the libraries it stands on (results go in README.md).

(a) cold start: `rlconf explain` and `rlconf translate` on a shipped fixture, against
    `python -c "import yaml, click"`, each the median of N fresh processes after two warm-up runs; wall time and
    CPU time (user + system, from getrusage), reported as ratios. The target is explain ≤ 1.3× the baseline.
(b) throughput: explaining 10,000 generated configs in one process, against plain yaml.load + yaml.dump of
    the same texts with the C loader; reported as a ratio.
(c) many files: `rlconf check DIR` on 200 configs in one process (wall and CPU time, median of several runs;
    target ≤ 1 s on 2 cores). The configs are built from the repository's fixtures: each fixture named by a
    ``fixtures/**/*.expect.yaml`` (a launch script, a YAML, or a directory fixture copied whole with the files its
    script names) is copied, cyclically, into its own folder of a temporary directory until there are 200; the
    ``--env`` values the fixtures expect are passed. The copies exercise every framework and version the
    fixtures cover, and the directory walk, content selection and per-file reading of `check DIR`.

Processes are started with bytecode caching allowed (PYTHONDONTWRITEBYTECODE removed from their environment),
as after `pip install .`, which compiles the modules: otherwise every process would compile rlconf from source.
Other load on the machine shows in the wall times first; the CPU times and the load average are printed with
them.

Run: python bench/bench.py [--runs 15] [--configs 10000] [--many 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "verl" / "v09_fetch_granularity_sp2.sh"


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], runs: int, warmups: int = 2) -> tuple[float, float]:
    """Median wall and CPU time (user + system of the child) of ``runs`` fresh processes, after ``warmups`` runs
    (bytecode caches written, files in the page cache)."""
    for _ in range(warmups):
        subprocess.run(command, capture_output=True, env=ENV)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, env=ENV)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def _cli() -> list[str]:
    rlconf = shutil.which("rlconf")
    return [rlconf] if rlconf else [sys.executable, "-m", "translator"]


def cold_start(runs: int) -> dict[str, float]:
    cli = _cli()
    baseline, baseline_cpu = timed([sys.executable, "-c", "import yaml, click"], runs)
    explain, explain_cpu = timed([*cli, "explain", str(FIXTURE)], runs)
    translate, translate_cpu = timed([*cli, "translate", str(FIXTURE), "--to", "trl"], runs)
    return {
        "baseline_s": baseline,
        "explain_s": explain,
        "translate_s": translate,
        "baseline_cpu_s": baseline_cpu,
        "explain_cpu_s": explain_cpu,
        "translate_cpu_s": translate_cpu,
        "explain_ratio": explain / baseline,
        "translate_ratio": translate / baseline,
        "explain_cpu_ratio": explain_cpu / baseline_cpu,
        "translate_cpu_ratio": translate_cpu / baseline_cpu,
    }


def generated_configs(count: int, seed: int = 7) -> list[tuple[str, str]]:
    """Realistic configs of several frameworks with random batch values (every one valid)."""
    rng = random.Random(seed)
    configs = []
    for i in range(count):
        n = rng.choice([4, 8, 16])
        micro = rng.choice([1, 2, 4, 8])
        if i % 2:
            recipe = {
                "model_name_or_path": "Qwen/Qwen2.5-7B-Instruct",
                "dataset_name": "org/data",
                "num_generations": n,
                "per_device_train_batch_size": micro * n,
                "gradient_accumulation_steps": rng.choice([1, 2, 4, 8]),
                "learning_rate": 1e-6,
                "beta": rng.choice([0.0, 0.04]),
                "max_completion_length": 1024,
                "use_vllm": True,
                "vllm_mode": "colocate",
                "num_train_epochs": 1,
                "bf16": True,
                "logging_steps": 10,
                "save_steps": 100,
                "output_dir": f"out/{i}",
                "lr_scheduler_type": "cosine",
                "warmup_ratio": 0.05,
                "temperature": 0.9,
            }
            configs.append((yaml.safe_dump(recipe), "trl"))
        else:
            mini = rng.choice([16, 32, 64])
            config = {
                "data": {
                    "train_batch_size": mini * rng.choice([1, 2, 4]),
                    "max_prompt_length": 512,
                    "max_response_length": 1024,
                    "train_files": "/data/train.parquet",
                },
                "actor_rollout_ref": {
                    "model": {"path": "Qwen/Qwen2.5-7B-Instruct"},
                    "actor": {
                        "ppo_mini_batch_size": mini,
                        "ppo_micro_batch_size_per_gpu": micro,
                        "use_kl_loss": True,
                        "kl_loss_coef": 0.001,
                        "optim": {"lr": 1e-6},
                    },
                    "rollout": {
                        "n": n,
                        "name": "vllm",
                        "tensor_model_parallel_size": 2,
                        "log_prob_micro_batch_size_per_gpu": micro,
                    },
                    "ref": {"log_prob_micro_batch_size_per_gpu": micro},
                },
                "algorithm": {"adv_estimator": "grpo"},
                "trainer": {"n_gpus_per_node": 8, "nnodes": 1, "total_epochs": 3, "project_name": "p"},
            }
            configs.append((yaml.safe_dump(config), "verl"))
    return configs


def throughput(count: int) -> dict[str, float]:
    import translator
    from translator.sources.files import Source

    configs = generated_configs(count)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    start = time.perf_counter()
    for text, _ in configs:
        yaml.dump(yaml.load(text, Loader=loader), Dumper=dumper)
    plain = time.perf_counter() - start
    start = time.perf_counter()
    for text, framework in configs:
        translator.explain(Source(text, "config.yaml"), framework=framework, num_processes=8)
    ours = time.perf_counter() - start
    return {
        "configs": count,
        "yaml_s": plain,
        "explain_s": ours,
        "ratio": ours / plain,
        "explain_per_config_ms": 1000 * ours / count,
    }


def fixture_copies(directory: Path, count: int) -> list[str]:
    """``count`` configs copied from the fixtures (a script or YAML, or a directory fixture with the files its
    launch script names), cyclically, each copy in its own folder; returns the --env the fixtures expect."""
    import yaml as _yaml

    from translator import dialects

    # the frameworks rlconf reads (the fixtures of the others wait for their dialects)
    expects = sorted(
        e
        for e in (ROOT / "fixtures").rglob("*.expect.yaml")
        if e.relative_to(ROOT / "fixtures").parts[0] in dialects.names()
    )
    env: dict[str, str] = {}
    for i in range(count):
        expect = expects[i % len(expects)]
        document = _yaml.safe_load(expect.read_text())
        env.update(document.get("options", {}).get("env", {}))
        relative = Path(document.get("input", expect.name.removesuffix(".expect.yaml")))
        source = expect.parent / relative.parts[0]  # a directory fixture is copied whole
        target = directory / f"copy{i:04d}" / source.name
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            target.parent.mkdir(parents=True)
            shutil.copy(source, target)
    return [a for k, v in sorted(env.items()) for a in ("--env", f"{k}={v}")]


def many_files(count: int, runs: int) -> dict[str, float]:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        env_args = fixture_copies(Path(directory), count)
        command = [*_cli(), "check", directory, *env_args, "--format", "json"]
        result = subprocess.run(command, capture_output=True, env=ENV)
        checked = json.loads(result.stdout)["summary"]["files"]
        wall_s, cpu_s = timed(command, runs, warmups=1)
    return {"configs": count, "checked": checked, "runs": runs, "check_s": wall_s, "check_cpu_s": cpu_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--configs", type=int, default=10_000)
    parser.add_argument("--many", type=int, default=200)
    args = parser.parse_args()
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start; "
        f"Python {sys.version.split()[0]}; rlconf: {' '.join(_cli())}"
    )
    cold = cold_start(args.runs)
    print(
        f"(a) cold start, median of {args.runs}: import yaml, click {cold['baseline_s'] * 1000:.0f} ms "
        f"(CPU {cold['baseline_cpu_s'] * 1000:.0f} ms); "
        f"explain {cold['explain_s'] * 1000:.0f} ms ({cold['explain_ratio']:.2f}x; "
        f"CPU {cold['explain_cpu_s'] * 1000:.0f} ms, {cold['explain_cpu_ratio']:.2f}x); "
        f"translate {cold['translate_s'] * 1000:.0f} ms ({cold['translate_ratio']:.2f}x; "
        f"CPU {cold['translate_cpu_s'] * 1000:.0f} ms, {cold['translate_cpu_ratio']:.2f}x)"
    )
    if args.configs:
        warm = throughput(args.configs)
        print(
            f"(b) {warm['configs']} configs: yaml.load+dump {warm['yaml_s']:.2f} s; "
            f"explain {warm['explain_s']:.2f} s ({warm['ratio']:.2f}x, "
            f"{warm['explain_per_config_ms']:.2f} ms per config)"
        )
    many = many_files(args.many, max(3, args.runs // 3))
    print(
        f"(c) rlconf check of {many['checked']} fixture configs in one process, median of {many['runs']}: "
        f"{many['check_s']:.2f} s wall, {many['check_cpu_s']:.2f} s CPU"
    )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
