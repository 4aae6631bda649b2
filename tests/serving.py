"""A ``tilelay serve`` process on loopback for tests and benchmarks: started on a free port,
waited for, and stopped (or killed with SIGKILL) by its process id."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["Server", "request"]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def request(
    conn: http.client.HTTPConnection, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """One request on ``conn``: (status, JSON answer or None)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, None


class Server:
    """``tilelay serve --db DB`` in its own process (environment ``env`` added, and the
    serve command's ``args``)."""

    def __init__(
        self, db: Path, env: Mapping[str, str] | None = None, args: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.env = dict(env or {})
        self.args = args
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def host(self) -> str:
        return "127.0.0.1"

    def connection(self, timeout: float = 30) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def start(self, timeout: float = 30) -> Server:
        self.port = _free_port()
        code = "import sys; from tilelay.cli import main; sys.exit(main())"
        argv = [sys.executable, "-c", code, "serve", "--port", str(self.port)]
        argv += ["--db", str(self.db), "--log-level", "warning", *self.args]
        self.proc = subprocess.Popen(
            argv,
            env={**os.environ, **self.env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server stopped at start: {err[-2000:]}")
            try:
                conn = self.connection(timeout=2)
                status, _ = request(conn, "GET", "/api/boards")
                conn.close()
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not answer in time")

    def kill(self) -> None:
        """SIGKILL: the process ends at once, nothing flushed or closed."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not end."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
