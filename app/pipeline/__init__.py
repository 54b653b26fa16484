"""Plan a run, schedule chunks on a backend, cache and resume, report progress."""
