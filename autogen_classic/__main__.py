"""``python -m autogen_classic`` runs the ``autogen-classic`` command."""

from .cli import main

raise SystemExit(main())
