"""How the bench talks to whoever runs it: progress and report lines, and the error that stops a
run. The management command hands in its own streams and style, so colours and tests work as
for any command."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.management.base import OutputWrapper
from django.core.management.color import Style


class BenchError(Exception):
    """A run that cannot go on, or that ended over its limits; the message says why."""


@dataclass(frozen=True)
class Console:
    stdout: OutputWrapper
    stderr: OutputWrapper
    style: Style

    def line(self, text: str = "") -> None:
        # Flushed at once: a fill runs for minutes and its progress should show as it goes.
        self.stdout.write(text)
        self.stdout.flush()

    def warning(self, text: str) -> None:
        self.line(self.style.WARNING(text))

    def success(self, text: str) -> None:
        self.line(self.style.SUCCESS(text))

    def failure(self, text: str) -> None:
        self.stderr.write(text)
