"""`python -m app` runs the command line, like audiobook.py (used when the app is installed without it)."""
import sys

from app.cli import main

code = main()
if code == 130:  # stopped: end within the time the stop announced (app/pipeline/stopping.py)
    from app.pipeline.stopping import exit_stopped

    exit_stopped(code)
sys.exit(code)
