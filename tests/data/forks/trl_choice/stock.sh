#!/bin/bash
# TRL's own trainer (--trainer keeps its default "grpo").
accelerate launch --num_processes 2 choose_trainer.py
