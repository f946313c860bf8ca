"""``python -m scorer``: the command line."""

from scorer.cli import main

raise SystemExit(main())
