# The copy's entry: upstream's module name and the copy's own strategy.
from openrlhf.utils.deepspeed import DeepspeedStrategy


def train(args):
    DeepspeedStrategy(args)
