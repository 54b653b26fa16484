"""audiobook: turn books into audiobooks."""

__version__ = "0.1.0"
