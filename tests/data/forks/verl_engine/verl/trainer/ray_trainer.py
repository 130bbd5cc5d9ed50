class RayPPOTrainer:
    def __init__(self, config, worker):
        self.config, self.worker = config, worker

    def fit(self):
        return self.worker
