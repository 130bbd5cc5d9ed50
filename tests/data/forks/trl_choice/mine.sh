#!/bin/bash
# The project's trainer.
accelerate launch --num_processes 2 train.py --trainer mine
