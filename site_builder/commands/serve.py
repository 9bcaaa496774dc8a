"""``make serve``: build, serve the site on loopback, rebuild on every change and reload the open page.

Each rebuild runs as a fresh ``python -m site_builder build`` process (so a change to the code is
picked up too) and uses the results cache, so a content edit costs a fraction of a second. A failed
rebuild leaves the last good site served and shows its one-line error in the page; the next save
that builds recovers. The reload script is injected into HTML responses by this server only: the
built site stays byte-for-byte what ``make site`` writes.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from site_builder.errors import BuildError
from site_builder.paths import Options, Paths

CLIENT = Path(__file__).resolve().parent / "serve_client.js"
INJECT = b'<script src="/__reload.js" defer></script>'
# The pages' own policy (templates/base.html), sent as a header too: the reload script is a file of this server.
CSP = (
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'"
)


class BuildState:
    def __init__(self) -> None:
        self.id = 0
        self.error: str | None = None
        self.lock = threading.Lock()

    def snapshot(self) -> bytes:
        with self.lock:
            return json.dumps({"id": self.id, "error": self.error}).encode()


def build_args(opts: Options, paths: Paths) -> list[str]:
    args = [sys.executable, "-m", "site_builder", "build", "--project", str(paths.project)]
    args += ["--out", str(paths.out), "--vendor", str(paths.vendor), "--reference", str(paths.reference)]
    if paths.cache is None:
        args.append("--no-cache")
    else:
        args += ["--cache", str(paths.cache)]
    return args


def rebuild(opts: Options, paths: Paths, state: BuildState, log=print) -> bool:  # type: ignore[no-untyped-def]
    proc = subprocess.run(build_args(opts, paths), capture_output=True, text=True, check=False)
    with state.lock:
        if proc.returncode == 0:
            state.id += 1
            state.error = None
            log(proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "built")
        else:
            lines = proc.stderr.strip().splitlines()
            state.error = lines[-1] if lines else f"build exited with status {proc.returncode}"
            log(state.error)
    return proc.returncode == 0


class Handler(http.server.SimpleHTTPRequestHandler):
    """The site's files, for this machine's browser only: a request whose ``Host`` is not ``127.0.0.1:PORT`` or
    ``localhost:PORT`` gets 403 (so a page elsewhere cannot read the dev site through DNS rebinding), folders are
    never listed, every response says ``nosniff`` and carries the pages' CSP, and a malformed request is answered
    (or dropped) without a traceback."""

    state: BuildState
    port: int = 0
    log: Callable[[str], None] = print

    def log_message(self, format: str, *args: object) -> None:
        pass

    def log_error(self, format: str, *args: object) -> None:
        pass

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError, ValueError, UnicodeError):
            self.close_connection = True  # a client gone or a request no handler can read: nothing to answer

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        return host in (f"127.0.0.1:{self.port}", f"localhost:{self.port}")

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def list_directory(self, path: str | os.PathLike[str]) -> None:  # type: ignore[override]
        self.send_error(404, "Not found")
        return None

    def do_HEAD(self) -> None:
        if not self._host_ok():
            return self._refuse()
        super().do_HEAD()

    def do_GET(self) -> None:
        if not self._host_ok():
            return self._refuse()
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if "\x00" in path or "%00" in path:
            return self.send_error(400, "Bad request")
        if path == "/__reload":
            return self._send(self.state.snapshot(), "application/json")
        if path == "/__reload.js":
            return self._send(CLIENT.read_bytes(), "text/javascript")
        try:
            target = Path(self.translate_path(path))
            if target.is_dir():
                target = target / "index.html"
            if target.suffix == ".html" and target.is_file():
                html = target.read_bytes()
                html = html.replace(b"</body>", INJECT + b"</body>", 1) if b"</body>" in html else html + INJECT
                return self._send(html, "text/html; charset=utf-8")
        except (OSError, ValueError):
            return self.send_error(404, "Not found")
        return super().do_GET()

    def _refuse(self) -> None:
        host = (self.headers.get("Host") or "").replace("\n", " ")[:80]
        type(self).log(
            f"serve: refused a request for Host {host!r} (only 127.0.0.1:{self.port} and localhost:{self.port})"
        )
        self.send_error(403, "Forbidden")

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def watched(paths: Paths) -> list[Path]:
    return [
        p
        for p in (paths.content, paths.templates, paths.data, Path(__file__).resolve().parent.parent / "static")
        if p.is_dir()
    ]


def listen(port: int) -> http.server.ThreadingHTTPServer:
    """The server socket on 127.0.0.1 (before any build, so a port taken is said at once, with its number)."""
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    except OSError as e:
        raise BuildError(
            f"serve: port {port} on 127.0.0.1: expected a free port (choose one with --port or PORT=…), "
            f"found {(e.strerror or type(e).__name__).lower()}"
        ) from None


def serve(opts: Options, port: int) -> int:
    try:
        from watchfiles import watch
    except ImportError:
        raise BuildError(
            "serve: watchfiles: expected the file watcher installed (`make serve` installs requirements/serve.txt), "
            "found it missing"
        ) from None

    paths = opts.paths()
    state = BuildState()
    srv = listen(port)
    bound = srv.server_address[1]
    srv.RequestHandlerClass = functools.partial(  # type: ignore[assignment]
        type("H", (Handler,), {"state": state, "port": bound}), directory=str(paths.out)
    )
    try:
        if not rebuild(opts, paths, state) and not paths.out.is_dir():
            print(f"error: {paths.label(paths.out)}: expected a first good build to serve, found none", file=sys.stderr)
            return 1
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        print(f"serving {paths.out} on http://127.0.0.1:{bound}/ (rebuilds on change; Ctrl-C stops)", flush=True)
        try:
            for _changes in watch(*watched(paths), debounce=200, step=50):
                rebuild(opts, paths, state)
                sys.stdout.flush()
        except KeyboardInterrupt:
            pass
        finally:
            srv.shutdown()
    finally:
        srv.server_close()
    return 0
