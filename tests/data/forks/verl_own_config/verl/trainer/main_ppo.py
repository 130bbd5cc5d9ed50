# The copy's entry: upstream's module name and decorator, composing the copy's own config folder.
import hydra


@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
def main(config):
    return config
