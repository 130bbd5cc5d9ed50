# The copy's strategy, kept from OpenRLHF 0.4.x: accumulation = train batch // micro // world size (0.4.0–0.4.2's
# shape; 0.4.3 multiplies by the ring size at the end), and a flag of the project's own that halves it.


class DeepspeedStrategy:
    def __init__(self, args):
        self.args = args
        self.train_batch_size = args.train_batch_size
        self.micro_train_batch_size = args.micro_train_batch_size
        self.accumulated_gradient = self.train_batch_size // self.micro_train_batch_size // self.world_size
        if args.half_accum:
            self.accumulated_gradient = self.accumulated_gradient // 2
