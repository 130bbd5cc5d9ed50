# Written for rlconf's tests (not runnable): a project's copy of verl's DAPO recipe entry.
from .dapo_ray_trainer import RayDAPOTrainer


def main(config):
    RayDAPOTrainer(config=config).fit()
