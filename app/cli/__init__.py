"""The front door: the command line, its parser, help, suggestions and subcommands (backends, cache, the queue of books),
and the app's one error boundary (entry.py).
"""
