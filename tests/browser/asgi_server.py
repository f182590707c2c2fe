"""The browser tests' live server: the site's ASGI application under uvicorn, in a thread of the
test process, as production serves the game's streams (pytest-django's own live server is WSGI,
where a stream would be refused and the pages would only ask).

It shares the test database and this process's broadcast (``games.play.broadcast.hub``), so a
test can cut every open stream as a restarted node would.
"""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.test.utils import modify_settings

HOST = "localhost"


class AsgiLiveServer:
    """What pytest-django's ``live_server`` offers (``url``, ``stop``), over uvicorn."""

    def __init__(self) -> None:
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": HOST})
        listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", 0))
        self.port = listening.getsockname()[1]
        config = uvicorn.Config(
            ASGIStaticFilesHandler(get_asgi_application()),
            lifespan="off",
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [listening]}, name="asgi-live", daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the ASGI live server did not start")
            time.sleep(0.01)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
