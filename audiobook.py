#!/usr/bin/env python3
"""Turn a book into an audiobook. Run `python audiobook.py --help`."""
import sys

from app.cli.entry import main

if __name__ == "__main__":
    code = main()
    if code == 130 or sys.argv[1:2] == ["hub"]:  # stopped, or the hub (which a stop quits): end now
        from app.pipeline.stopping import exit_stopped

        exit_stopped(code)
    sys.exit(code)
