"""The watchers' streams are tested as a game's are (``tests/streams``): each change through
this process's broadcast and, when a Redis answers, through Redis pub/sub."""

from tests.streams.conftest import transport

__all__ = ["transport"]
