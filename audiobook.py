#!/usr/bin/env python3
"""Turn a book into an audiobook. Run `python audiobook.py --help`."""
import sys

from app.cli.entry import main

if __name__ == "__main__":
    sys.exit(main())
