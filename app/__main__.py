"""`python -m app` runs the command line, like audiobook.py (used when the app is installed without it)."""
import sys

from app.cli.entry import main

sys.exit(main())
