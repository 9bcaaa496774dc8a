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
import subprocess
import sys
import threading
from pathlib import Path

from site_builder.paths import Options, Paths

CLIENT = Path(__file__).resolve().parent / "serve_client.js"
INJECT = b'<script src="/__reload.js" defer></script>'


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
    state: BuildState

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/__reload":
            return self._send(self.state.snapshot(), "application/json")
        if path == "/__reload.js":
            return self._send(CLIENT.read_bytes(), "text/javascript")
        target = Path(self.translate_path(path))
        if target.is_dir():
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            html = target.read_bytes()
            html = html.replace(b"</body>", INJECT + b"</body>", 1) if b"</body>" in html else html + INJECT
            return self._send(html, "text/html; charset=utf-8")
        return super().do_GET()

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
        for p in (paths.content, paths.templates, paths.data, Path(__file__).resolve().parent / "static")
        if p.is_dir()
    ]


def serve(opts: Options, port: int) -> int:
    from watchfiles import watch

    paths = opts.paths()
    state = BuildState()
    if not rebuild(opts, paths, state) and not paths.out.is_dir():
        print(f"error: {paths.label(paths.out)}: expected a first good build to serve, found none", file=sys.stderr)
        return 1
    handler = functools.partial(type("H", (Handler,), {"state": state}), directory=str(paths.out))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    print(
        f"serving {paths.out} on http://127.0.0.1:{srv.server_address[1]}/ (rebuilds on change; Ctrl-C stops)",
        flush=True,
    )
    try:
        for _changes in watch(*watched(paths), debounce=200, step=50):
            rebuild(opts, paths, state)
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        srv.shutdown()
        srv.server_close()
    return 0
