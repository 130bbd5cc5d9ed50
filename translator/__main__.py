"""``python -m translator`` runs the rlconf command."""

from translator.cli import main

if __name__ == "__main__":
    main(prog_name="rlconf")
