"""How many processes a launch line starts (translator/sources/processes.py), each expected count from the
launcher's own code: torch/distributed/run.py@v2.13.0 (--nproc-per-node default "1"; "gpu"/"auto" count the
visible devices) and deepspeed/launcher/runner.py@v0.19.8 main (no hostfile: the local node; --num_gpus N takes
slots 0..N-1; --include localhost:SLOTS those slots; else every visible device)."""

from __future__ import annotations

import pytest

from translator.errors import ConfigError
from translator.sources.processes import processes
from translator.sources.shell import parse_shell


def _count(script: str) -> int | None:
    command = parse_shell(script).commands[-1]
    words = command.argv[: command.argv.index("train.py")]
    return processes(words, command, "run.sh:1").total


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("python train.py", 1),
        ("torchrun train.py", 1),  # the default --nproc-per-node "1"
        ("torchrun --nproc_per_node 4 --nnodes 2 train.py", 8),
        ("python -m torch.distributed.run --nproc-per-node=2 train.py", 2),
        ("torchrun --nproc_per_node gpu train.py", None),  # the machine's GPUs
        ("CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node gpu train.py", 2),
        ("torchrun --nproc_per_node 4 --nnodes 1:4 train.py", None),  # elastic: as many nodes as join
        ("deepspeed --num_gpus 4 train.py", 4),
        ("deepspeed --master_port 29500 --include localhost:2,3 train.py", 2),
        ("deepspeed --include worker-0@worker-1:0,2 train.py", None),  # two hosts
        ("deepspeed train.py", None),  # every GPU of the machine
        ("export CUDA_VISIBLE_DEVICES=0,1,2\ndeepspeed train.py", 3),
        ("#!/bin/bash\n#SBATCH --gres=gpu:a100:2\ndeepspeed train.py", 2),  # Slurm gives the batch step 2 GPUs
        ("#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus=4\ndeepspeed train.py", 4),
        ("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus=8\ndeepspeed train.py", None),  # per job, not per node
        ("deepspeed --hostfile hosts.txt train.py", None),  # the hosts of a file
        ("accelerate launch train.py", None),  # the machine's accelerate config
        ("python -m accelerate.commands.launch train.py", None),
        ("accelerate launch --num_processes 3 train.py", 3),
    ],
)
def test_processes_a_launcher_starts(script: str, expected: int | None) -> None:
    assert _count(script) == expected


def test_a_count_that_is_no_number_is_refused() -> None:
    with pytest.raises(ConfigError, match="--num_gpus must be a whole number, got 'x'"):
        _count("deepspeed --num_gpus x train.py")


def test_an_elastic_node_range_leaves_a_trl_launchs_world_size_unknown() -> None:
    # torchrun --nnodes 1:4 runs on as many nodes as join (1 to 4): the processes are 2 per node × an unknown count
    import translator

    launch = (
        "torchrun --nproc_per_node 2 --nnodes 1:4 train_grpo.py --output_dir o --per_device_train_batch_size 4 "
        "--num_generations 8\n"
    )
    assert translator.load(launch, framework="trl@1.16.0").spec.plan.data_parallel_size is None
