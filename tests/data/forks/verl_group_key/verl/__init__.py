# A project's own copy of verl (written for rlconf's tests): its trainer and workers.
