"""The copy's entry (written for rlconf's tests): it runs the copy's trainer."""
