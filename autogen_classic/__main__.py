"""``python -m autogen_classic`` runs the ``autogen-classic`` command."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
