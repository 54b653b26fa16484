"""The ground floor: errors, paths, files, processes, settings, URLs, the one HTTP door, redaction, fail points.

Every other package may use it; it imports nothing above it.
"""
