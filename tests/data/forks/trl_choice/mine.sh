#!/bin/bash
# The project's trainer.
accelerate launch --num_processes 2 choose_trainer.py --trainer mine
