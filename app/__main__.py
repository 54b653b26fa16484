"""`python -m app` runs the command line, like audiobook.py (used when the app is installed without it)."""
import sys

from app.cli.entry import main

code = main()
if code == 130 or sys.argv[1:2] == ["hub"]:  # stopped, or the hub (which a stop quits): end now
    from app.pipeline.stopping import exit_stopped

    exit_stopped(code)
sys.exit(code)
