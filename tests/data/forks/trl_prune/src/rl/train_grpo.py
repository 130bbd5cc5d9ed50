# Written for rlconf's tests (not runnable).
from dataclasses import dataclass, field

from rl.engine import PruneTrainer
from trl import GRPOConfig, TrlParser


@dataclass
class PruneConfig(GRPOConfig):
    prune: bool = field(default=False, metadata={"help": "keep half of each group"})


if __name__ == "__main__":
    args = TrlParser((PruneConfig,)).parse_args_and_config()[0]
    PruneTrainer(model="model", args=args).train()
