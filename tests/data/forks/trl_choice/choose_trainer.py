# Written for rlconf's tests (not runnable): the script's own options (parsed in a function, in the __main__
# block) give GRPOConfig its batch, and --trainer picks TRL's trainer or the project's.
import argparse

from mine import MyTrainer
from trl import GRPOConfig, GRPOTrainer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trainer", type=str, default="grpo")
    parser.add_argument("--per_device_train_batch_size", type=int, default=2)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=3)
    parser.add_argument("--num_generations", type=int, default=4)
    args = parser.parse_args()
    return args


if __name__ == "__main__":
    args = parse_args()
    config = GRPOConfig(
        output_dir="out",
        per_device_train_batch_size=args.per_device_train_batch_size,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        num_generations=args.num_generations,
    )
    if args.trainer.lower() == "grpo":
        trainer = GRPOTrainer(model="m", args=config)
    elif args.trainer.lower() == "mine":
        trainer = MyTrainer(model="m", args=config)
    trainer.train()
