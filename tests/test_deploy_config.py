"""The deployment files are valid as shipped: nginx accepts ``deploy/nginx.conf`` (a throwaway
certificate in place of the placeholders), and gunicorn loads ``deploy/gunicorn.conf.py``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import scaleout

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


@pytest.mark.skipif(
    scaleout.nginx_binary() is None or shutil.which("openssl") is None,
    reason="nginx and openssl are needed to check the nginx configuration",
)
def test_nginx_accepts_the_shipped_site_configuration(tmp_path: Path) -> None:
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", tmp_path / "key.pem", "-out", tmp_path / "cert.pem"],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (DEPLOY / "nginx.conf").read_text()
    site = site.replace("/etc/ssl/yahtzee/fullchain.pem", str(tmp_path / "cert.pem"))
    site = site.replace("/etc/ssl/yahtzee/privkey.pem", str(tmp_path / "key.pem"))
    site = site.replace("/srv/yahtzee/deploy/", f"{DEPLOY}/")
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
