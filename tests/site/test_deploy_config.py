"""The deployment files are valid as shipped: nginx accepts ``deploy/nginx.conf`` (a throwaway
certificate in place of the placeholders), and gunicorn loads ``deploy/gunicorn.conf.py``; run
in front of stand-in nodes, the site's nginx passes a long redirect on and limits what one
address holds at once."""

from __future__ import annotations

import http.client
import http.server
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from bench import scaleout, serve

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@pytest.mark.skipif(
    scaleout.nginx_binary() is None or shutil.which("openssl") is None,
    reason="nginx and openssl are needed to check the nginx configuration",
)
def test_nginx_accepts_the_shipped_site_configuration(tmp_path: Path) -> None:
    site = _with_test_certificate((DEPLOY / "nginx.conf").read_text(), tmp_path)
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"events {{}}\nhttp {{\n include {tmp_path}/site.conf;\n}}\n"
    )
    binary = scaleout.nginx_binary()
    assert binary is not None

    result = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
         "-g", f"pid {tmp_path}/pid; error_log {tmp_path}/error.log;"],
        capture_output=True, text=True,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def _with_test_certificate(site: str, folder: Path) -> str:
    """``site`` with a throwaway certificate made in ``folder`` in place of the placeholders,
    and the deploy folder's includes found where they are."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", folder / "key.pem", "-out", folder / "cert.pem"],
        check=True, capture_output=True,
    )  # fmt: skip
    site = site.replace("/etc/ssl/yahtzee/fullchain.pem", str(folder / "cert.pem"))
    site = site.replace("/etc/ssl/yahtzee/privkey.pem", str(folder / "key.pem"))
    return site.replace("/srv/yahtzee/deploy/", f"{DEPLOY}/")


def test_the_proxy_sets_the_headers_the_settings_believe() -> None:
    headers = (DEPLOY / "proxy_headers.conf").read_text()

    # TRUSTED_PROXY_COUNT=1: nginx appends the one address it saw; TRUST_X_FORWARDED_PROTO=1.
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in headers
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in headers
    assert "include /srv/yahtzee/deploy/proxy_headers.conf;" in (DEPLOY / "nginx.conf").read_text()


def test_gunicorn_loads_the_shipped_configuration() -> None:
    code = (
        "from gunicorn.config import Config; import runpy; c = Config(); "
        "[c.set(k, v) for k, v in runpy.run_path('deploy/gunicorn.conf.py').items() "
        " if k in c.settings]; print(c.worker_class_str, c.workers, c.threads, c.timeout)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    worker_class, workers, threads, timeout = result.stdout.split()
    assert (worker_class, threads) == ("sync", "1")
    assert int(workers) >= 1 and int(timeout) > 20  # above SQLite's busy timeout


def _header_lines(text: str) -> list[str]:
    return [
        line
        for line in text.splitlines()
        if line.startswith(("proxy_set_header", "proxy_http_version", "proxy_redirect"))
    ]


def test_streams_get_the_same_headers_unbuffered_and_held_open() -> None:
    streams = (DEPLOY / "stream_proxy.conf").read_text()

    assert _header_lines(streams) == _header_lines((DEPLOY / "proxy_headers.conf").read_text())
    assert "proxy_buffering off;" in streams
    assert "proxy_read_timeout 1h;" in streams  # far beyond the 15 s between heartbeats


def test_nginx_routes_the_games_streams_to_the_stream_pools() -> None:
    site = (DEPLOY / "nginx.conf").read_text()
    location = site.split("location ~ ^/play/[0-9]+/stream/$ {", 1)[1].split("}", 1)[0]

    assert "proxy_pass http://yahtzee_streams;" in location
    assert "include /srv/yahtzee/deploy/stream_proxy.conf;" in location
    assert "upstream yahtzee_streams {" in site and ":8001" in site


def test_gunicorn_loads_the_stream_pools_configuration() -> None:
    code = (
        "from gunicorn.config import Config; import runpy; c = Config(); "
        "[c.set(k, v) for k, v in runpy.run_path('deploy/gunicorn_streams.conf.py').items() "
        " if k in c.settings]; print(c.worker_class_str, c.workers, c.max_requests, c.bind[0]); "
        "c.worker_class"  # imports the worker class: it must exist
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    worker_class, workers, max_requests, bind = result.stdout.split()
    assert worker_class == "yahtzee_site.asgi_worker.Worker"
    assert int(workers) >= 1 and max_requests == "0" and bind == "127.0.0.1:8001"


# --- The shipped site in front of stand-in nodes ---------------------------------------------


def _directive(text: str, name: str) -> str:
    (value,) = re.findall(rf"^\s*{name} ([^;]+);", text, re.MULTILINE)
    return str(value)


def _tls_server(site: str) -> str:
    return site.split("listen 443 ssl", 1)[1]


def test_nginx_cuts_slow_clients_and_limits_each_address() -> None:
    site = (DEPLOY / "nginx.conf").read_text()
    served = _tls_server(site)

    assert re.search(r"^limit_conn_zone \$binary_remote_addr zone=yahtzee_addresses:", site, re.M)
    # Room for one account's streams (one per open game page) and the requests beside them.
    per_address = int(_directive(served, "limit_conn yahtzee_addresses"))
    assert settings.LIVE_STREAMS_PER_ACCOUNT + 10 <= per_address <= 1000
    assert _directive(served, "limit_conn_status") == "429"  # the page asks instead
    for server in site.split("\nserver {")[1:]:  # nginx's default is a minute
        assert _directive(server, "client_header_timeout") == "10s"
        assert _directive(server, "client_body_timeout") == "10s"


def test_an_answers_header_buffer_holds_twice_the_longest_request_line() -> None:
    line = _directive(
        _tls_server((DEPLOY / "nginx.conf").read_text()), "large_client_header_buffers"
    )
    proxy = (DEPLOY / "proxy_headers.conf").read_text()

    assert line == "4 8k"
    assert _directive(proxy, "proxy_buffer_size") == "16k"


class _Node(http.server.BaseHTTPRequestHandler):
    """A stand-in gunicorn node: ``/long-redirect/<n>`` answers a redirect whose Location is
    ``n`` bytes long (as the log-in's used to be for a long query); anything else, ok."""

    def do_GET(self) -> None:
        if self.path.startswith("/long-redirect/"):
            self.send_response(302)
            length = int(self.path.rsplit("/", 1)[1])
            self.send_header("Location", "/accounts/login/?next=" + "x" * (length - 22))
        else:
            self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


class _Streams:
    """A stand-in stream pool: takes each request whole and holds it, answering nothing."""

    def __init__(self) -> None:
        self.listening = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.port = int(self.listening.getsockname()[1])
        self.held: list[socket.socket] = []
        threading.Thread(target=self._take, daemon=True).start()

    def _take(self) -> None:
        while True:
            try:
                connection, _ = self.listening.accept()
            except OSError:
                return
            connection.settimeout(5)
            request = b""
            while b"\r\n\r\n" not in request:
                request += connection.recv(4096)
            self.held.append(connection)

    def close(self) -> None:
        self.listening.close()
        for connection in self.held:
            connection.close()


@pytest.fixture
def site_before_stand_ins(tmp_path: Path) -> Iterator[tuple[int, _Streams]]:
    """deploy/nginx.conf as shipped, on loopback ports over plain http (its TLS server's
    directives unchanged), in front of a stand-in node and a stand-in stream pool."""
    binary = scaleout.nginx_binary()
    if binary is None or shutil.which("openssl") is None:
        pytest.skip("nginx and openssl are needed to run the nginx configuration")
    node = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Node)
    threading.Thread(target=node.serve_forever, daemon=True).start()
    streams = _Streams()
    port = serve.free_port()
    site = (DEPLOY / "nginx.conf").read_text()
    for shipped, local in {
        "listen 80;": f"listen 127.0.0.1:{serve.free_port()};",
        "listen [::]:80;": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{port};",
        "listen [::]:443 ssl http2;": "",
        "server 10.0.0.11:8000 ": f"server 127.0.0.1:{node.server_port} ",
        "server 10.0.0.12:8000 max_fails=3 fail_timeout=5s;": "",
        "server 10.0.0.11:8001 ": f"server 127.0.0.1:{streams.port} ",
        "server 10.0.0.12:8001 max_fails=3 fail_timeout=5s;": "",
    }.items():
        assert shipped in site, shipped  # the test runs the shipped file, or fails
        site = site.replace(shipped, local)
    (tmp_path / "site.conf").write_text(_with_test_certificate(site, tmp_path))
    user = "user root;\n" if os.geteuid() == 0 else ""
    (tmp_path / "nginx.conf").write_text(
        f"{user}daemon off;\nmaster_process off;\npid {tmp_path}/pid;\n"
        f"error_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n access_log off;\n include {tmp_path}/site.conf;\n}}\n"
    )
    server = subprocess.Popen(
        [binary, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while _status(port, "/healthz") != 200:
            assert server.poll() is None and time.monotonic() < deadline, (
                tmp_path / "error.log"
            ).read_text()
            time.sleep(0.05)
        yield port, streams
    finally:
        server.terminate()
        server.wait(timeout=10)
        node.shutdown()
        streams.close()


def _status(port: int, path: str) -> int | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers={"Host": "yahtzee.example.com"})
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


def test_nginx_passes_on_a_redirect_with_a_long_location(
    site_before_stand_ins: tuple[int, _Streams],
) -> None:
    port, _ = site_before_stand_ins

    # The log-in's redirect of a logged-out request with a 4 KB query used to be 8 KB long.
    assert _status(port, "/long-redirect/12000") == 302


def test_nginx_refuses_an_address_more_requests_at_once_than_its_share(
    site_before_stand_ins: tuple[int, _Streams],
) -> None:
    port, streams = site_before_stand_ins
    per_address = int(
        _directive((DEPLOY / "nginx.conf").read_text(), "limit_conn yahtzee_addresses")
    )
    pages = []
    for game in range(per_address):
        page = socket.create_connection(("127.0.0.1", port), timeout=5)
        page.sendall(
            f"GET /play/{game}/stream/ HTTP/1.1\r\nHost: yahtzee.example.com\r\n\r\n".encode()
        )
        pages.append(page)
    deadline = time.monotonic() + 10
    while len(streams.held) < per_address and time.monotonic() < deadline:
        time.sleep(0.02)

    one_more = _status(port, "/play/1/stream/")
    for page in pages:
        page.close()

    assert len(streams.held) == per_address  # each open stream passed on to the pool
    assert one_more == 429


def test_the_task_workers_unit_runs_the_sites_worker_command() -> None:
    from django.core.management import get_commands

    unit = (DEPLOY / "yahtzee-tasks.service").read_text()
    (start,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    command = start.split("manage.py", 1)[1].split()[0]

    assert command == "run_tasks" and get_commands()[command] == "games"
    assert "Restart=always" in unit
