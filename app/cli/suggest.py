"""Argument errors in one line, naming the closest option or command to a mistyped one.

Shared by every command-line parser (the convert options, `hub`, `backends
sglomni`, `cache`), so a typo anywhere gets the same answer:
"unknown option --concurency; did you mean --concurrency?", exit 2.
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from typing import NoReturn


class SuggestingParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, with the closest option or command for a typo."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {self.explain(message)} (see '{self.prog} --help')", file=sys.stderr)
        sys.exit(2)

    def explain(self, message: str) -> str:
        """Return argparse's `message` as one line, naming the closest option or choice to a mistyped one."""
        unknown = re.match(r"unrecognized arguments: (.+)", message)
        if unknown:
            word = unknown.group(1).split()[0]
            options = [o for o in self._option_string_actions if o.startswith("--")]
            if word.startswith("-"):
                return f"unknown option {word}" + did_you_mean(word.split("=")[0], options)
            return f"unexpected argument {word!r}"
        choice = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            word, offered = choice.group(2), re.findall(r"'?([\w.-]+)'?", choice.group(3))
            # A positional (a subcommand) is named by its dest or metavar; an option by its flag.
            what = choice.group(1) if choice.group(1).startswith("-") else "command"
            return f"unknown {what} {word!r}" + did_you_mean(word, offered, quote=True)
        return message


def did_you_mean(word: str, choices, *, quote: bool = False) -> str:
    """Return "; did you mean X?" for the closest of `choices`, or "" when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        return ""
    return f"; did you mean {close[0]!r}?" if quote else f"; did you mean {close[0]}?"
