# The copy's dataset: a key of its own drops long prompts when the dataset is built (its rows, not a step's batch).
from torch.utils.data import Dataset


class RLHFDataset(Dataset):
    def __init__(self, rows, config):
        self.rows = rows
        if config.data.drop_long:
            self.rows = self.rows.filter(lambda row: len(row["prompt"]) < 512)
