# A project's copy of OpenRLHF's launcher, cut to the one start-up check the tests need (written for the
# tests, not taken from OpenRLHF): the group estimators need more than one sample per prompt.
import argparse


def validate(args):
    if args.advantage_estimator in ("rloo", "reinforce_baseline", "group_norm"):
        assert args.n_samples_per_prompt > 1, f"{args.advantage_estimator} requires n_samples_per_prompt > 1"


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--advantage_estimator", default="gae")
    parser.add_argument("--n_samples_per_prompt", type=int, default=1)
    validate(parser.parse_known_args()[0])
