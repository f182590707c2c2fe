"""nginx for the scale-out scenario: a whole configuration of its own (``deploy/``'s proxy headers,
loopback only) in front of the gunicorn nodes, started and stopped around a run."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from bench.output import BenchError
from bench.scenarios import allowed_host

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


def nginx_config(
    folder: Path, *, port: int, upstreams: Sequence[int], stream_upstreams: Sequence[int] = ()
) -> str:
    """A whole nginx configuration for the bench: deploy's proxy headers, loopback only; the
    games' streams to the stream pools (``stream_upstreams``) as deploy/nginx.conf routes them."""
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temp).mkdir(exist_ok=True)
    servers = "".join(
        f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=5s;\n" for p in upstreams
    )
    stream_servers = "".join(
        f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=5s;\n" for p in stream_upstreams
    )
    streams = (
        f"""    upstream yahtzee_streams {{
{stream_servers}    }}
"""
        if stream_upstreams
        else ""
    )
    stream_location = (
        f"""        location ~ ^/play/[0-9]+/stream/$ {{
            proxy_pass http://yahtzee_streams;
            include {DEPLOY / "stream_proxy.conf"};
            proxy_next_upstream error timeout http_502 http_503;
        }}
"""
        if stream_upstreams
        else ""
    )
    mime = "include /etc/nginx/mime.types;" if Path("/etc/nginx/mime.types").exists() else ""
    # As root, nginx's workers would drop to "nobody", who may not enter the 0700 var/.
    user = "user root;" if os.geteuid() == 0 else ""
    return f"""{user}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    {mime}
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream yahtzee_nodes {{
{servers}    }}
{streams}    server {{
        listen 127.0.0.1:{port};
{stream_location}        location /static/ {{
            alias {settings.STATIC_ROOT}/;
            gzip_static on;
            expires max;
        }}
        location / {{
            proxy_pass http://yahtzee_nodes;
            include {DEPLOY / "proxy_headers.conf"};
            proxy_next_upstream error timeout http_502;
            add_header X-Bench-Node $upstream_addr always;
        }}
    }}
}}
"""


@contextmanager
def nginx(
    binary: str, *, port: int, upstreams: Sequence[int], stream_upstreams: Sequence[int] = ()
) -> Iterator[None]:
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as name:
        folder = Path(name)
        conf = folder / "nginx.conf"
        conf.write_text(
            nginx_config(folder, port=port, upstreams=upstreams, stream_upstreams=stream_upstreams)
        )
        check = subprocess.run(
            [binary, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True
        )
        if check.returncode != 0:
            raise BenchError(f"nginx refused the bench configuration: {check.stderr.strip()}")
        server = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 10
            while not answers(port, "/healthz"):
                if server.poll() is not None or time.monotonic() > deadline:
                    log = (
                        (folder / "error.log").read_text()
                        if (folder / "error.log").exists()
                        else ""
                    )
                    raise BenchError(f"nginx did not start on port {port}: {log.strip()}")
                time.sleep(0.1)
            yield
        finally:
            server.send_signal(signal.SIGQUIT)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def answers(port: int, path: str) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path, headers={"Host": allowed_host()})
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False
