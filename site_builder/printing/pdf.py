"""The decks' PDFs: each deck page printed in Debian's Chromium, one 16:9 slide per page, every chart drawn.

The build's print phase (site_builder/printing/store.py) calls :func:`print_pages` on its temporary output folder,
served on 127.0.0.1 by :func:`serving`. Chromium is driven over its DevTools pipe (``--remote-debugging-pipe``:
JSON messages on file descriptors 3 and 4), with the standard library only: building the site needs no
Playwright. Each deck is opened at 1280×720 CSS pixels in the light scheme, its charts are awaited, the
print media is switched on and the slides are fitted for print, and ``Page.printToPDF`` prints it with the
print stylesheets (a 1280×720 CSS pixel page, 960×540 pt). :func:`fixed` then removes the time stamps Chromium
writes and gives the file a document id made from its key, so that the bytes depend only on what was printed.

``python -m site_builder pdf`` (:func:`main`) prints the decks of an already built site again, in place.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import http.server
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from site_builder.chromium import CHROMIUM, stamps
from site_builder.errors import BuildError

MISSING = f"pdf: {CHROMIUM}: expected Debian's chromium (`make chromium` installs it)"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    "--lang=en-US",
    "--remote-debugging-pipe",
]
WIDTH, HEIGHT = 1280, 720  # CSS pixels: the slide, the viewport and the printed page
WAIT_SECONDS = 60.0  # for one reply or one deck's charts: a browser that says nothing for this long is stuck
AT_ONCE = 1  # decks printed at a time: several tabs at once stall (a background tab does not draw its charts)

READY = """new Promise((resolve, reject) => {
  const t0 = Date.now();
  (function poll() {
    const charts = Array.from(document.querySelectorAll('figure.chart'));
    if (document.readyState === 'complete' && charts.every(f => f.dataset.ready === 'true')) {
      document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve(charts.length))));
      return;
    }
    if (Date.now() - t0 > LIMIT) {
      const late = charts.filter(f => f.dataset.ready !== 'true').map(f => f.id || f.dataset.chart || '?');
      reject(new Error('charts not drawn: ' + (late.join(', ') || document.readyState)));
      return;
    }
    setTimeout(poll, 25);
  })();
})""".replace("LIMIT", str(int(WAIT_SECONDS * 1000 - 5000)))

FIT = """new Promise(resolve => {
  if (window.SiteDeck && window.SiteDeck.fitForPrint) window.SiteDeck.fitForPrint();
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
})"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    seen: set[str] | None = None  # the paths asked for, when the caller keeps them

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        if self.seen is not None:
            self.seen.add(urllib.parse.unquote(urllib.parse.urlsplit(self.path).path))
        return super().send_head()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = False  # every request's thread is joined by server_close(): none outlives the phase
    block_on_close = True


@contextlib.contextmanager
def serving(site: Path, seen: set[str] | None = None) -> Iterator[str]:
    """``site`` served on 127.0.0.1 (a free port) while the block runs; every thread is gone when it ends (the
    build forks processes afterwards, which is safe only from a single thread). ``seen``, if given, receives the
    path of every request."""
    handler = type("_Seen", (_Quiet,), {"seen": seen}) if seen is not None else _Quiet
    srv = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=srv.serve_forever, name="pdf-server")
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        thread.join()
        srv.server_close()


def version(exe: str = CHROMIUM, memo: Path | None = None) -> str:
    """``chromium --version`` (``Chromium 156.0.8078.114 built on Debian…``), or a one-line BuildError when there is
    no such browser. Kept in ``memo`` (a JSON file) under the program files' sizes, times and inodes: asking the
    browser costs about 0.2 s, a build that prints nothing new should not pay it."""
    if not os.path.isfile(exe) or not os.access(exe, os.X_OK):
        raise BuildError(f"{MISSING}, found none")
    now = stamps(exe)
    if memo is not None:
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            kept = json.loads(memo.read_text("utf-8"))
            if kept.get("exe") == exe and kept.get("stamps") == now and isinstance(kept.get("version"), str):
                return kept["version"]
    try:
        done = subprocess.run([exe, "--version"], capture_output=True, timeout=WAIT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BuildError(f"{MISSING}, found it not answering --version ({type(e).__name__})") from None
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    line = lines[0].strip() if lines else ""
    if done.returncode != 0 or not re.fullmatch(r"Chromium \d+(\.\d+)+\b.*", line):
        raise BuildError(f"{MISSING}, found {line[:80] or f'exit status {done.returncode}'!r} from --version")
    if memo is not None:
        with contextlib.suppress(OSError):
            tmp = memo.with_name(f".{memo.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"exe": exe, "stamps": now, "version": line}), "utf-8")
            tmp.replace(memo)
    return line


def _high(fd: int) -> int:
    """``fd`` moved to a number above 9 (closed on exec): the child's 3 and 4 are then dup2 targets that no source
    can collide with."""
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    """Debian's Chromium, headless, driven over its DevTools pipe (fd 3: what it reads, fd 4: what it writes)."""

    def __init__(self, exe: str = CHROMIUM) -> None:
        if not os.path.isfile(exe) or not os.access(exe, os.X_OK):
            raise BuildError(f"{MISSING}, found none")
        self.exe = exe
        self.profile = tempfile.mkdtemp(prefix="site-builder-chromium-")
        self.pid = 0
        self._id = 0
        self._buf = bytearray()
        self._kept: list[dict] = []  # replies and load events not yet waited for
        fds: list[int] = []
        try:
            to_child, self._w = (_high(fd) for fd in os.pipe())
            self._r, from_child = (_high(fd) for fd in os.pipe())
            fds = [to_child, from_child]
            devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
            fds.append(devnull)
            actions = [(os.POSIX_SPAWN_DUP2, devnull, n) for n in (0, 1, 2)]
            actions += [(os.POSIX_SPAWN_DUP2, to_child, 3), (os.POSIX_SPAWN_DUP2, from_child, 4)]
            argv = [exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"]
            env = {**os.environ, "TZ": "UTC"}
            self.pid = os.posix_spawn(exe, argv, env, file_actions=actions)
        except OSError as e:
            self.close()
            raise BuildError(
                f"{MISSING}, found it would not start ({(e.strerror or type(e).__name__).lower()})"
            ) from None
        finally:
            for fd in fds:
                os.close(fd)

    # ------------------------------------------------------------------------------------------ messages
    def send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        self._id += 1
        msg: dict = {"id": self._id, "method": method, "params": params or {}}
        if session is not None:
            msg["sessionId"] = session
        data = memoryview(json.dumps(msg).encode() + b"\0")
        while data:
            try:
                n = os.write(self._w, data)
            except BrokenPipeError:
                raise BuildError(f"pdf: {self.exe}: expected the browser to print the decks, found it gone") from None
            data = data[n:]
        return self._id

    def _next(self, deadline: float, what: str) -> dict:
        start = 0
        while (end := self._buf.find(b"\0", start)) < 0:
            start = len(self._buf)
            left = deadline - time.monotonic()
            ready = select.select([self._r], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise BuildError(
                    f"pdf: {what}: expected the browser to answer within {WAIT_SECONDS:g} s, found no answer"
                )
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise BuildError(f"pdf: {what}: expected the browser to print the decks, found it gone")
            self._buf += chunk
        raw = bytes(self._buf[:end])
        del self._buf[: end + 1]
        return json.loads(raw)

    def wait(self, want: set[int] | None = None, load: str | None = None, what: str = "browser") -> dict:
        """The reply to one of the commands ``want``, or the load event of session ``load``."""

        def match(m: dict) -> bool:
            if want is not None and m.get("id") in want:
                return True
            return load is not None and m.get("method") == "Page.loadEventFired" and m.get("sessionId") == load

        for i, m in enumerate(self._kept):
            if match(m):
                return self._kept.pop(i)
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            m = self._next(deadline, what)
            if m.get("method") in ("Inspector.targetCrashed", "Target.targetCrashed"):
                raise BuildError(f"pdf: {what}: expected the browser to print the deck, found its tab crashed")
            if match(m):
                return m
            if "id" in m or m.get("method") == "Page.loadEventFired":
                self._kept.append(m)

    def result(self, ids: int | list[int], what: str) -> list[dict]:
        """The results of commands ``ids`` (in that order), each checked for an error or a thrown exception."""
        ids = [ids] if isinstance(ids, int) else ids
        got: dict[int, dict] = {}
        while len(got) < len(ids):
            m = self.wait(set(ids) - got.keys(), what=what)
            got[m["id"]] = m
        out = []
        for i in ids:
            m = got[i]
            if "error" in m:
                msg = str(m["error"].get("message", m["error"]))[:160]
                raise BuildError(f"pdf: {what}: expected the browser to print the deck, found {msg!r}")
            res = m.get("result", {})
            if "exceptionDetails" in res:
                d = res["exceptionDetails"]
                msg = str(d.get("exception", {}).get("description") or d.get("text") or "an exception")
                raise BuildError(f"pdf: {what}: expected every chart drawn, found {msg.splitlines()[0][:160]!r}")
            out.append(res)
        return out

    def call(self, method: str, params: dict | None = None, session: str | None = None, what: str = "browser") -> dict:
        return self.result(self.send(method, params, session), what)[0]

    def close(self) -> None:
        """End the browser (politely, then by force) and remove its profile."""
        if self.pid:
            with contextlib.suppress(BuildError, OSError):
                self.send("Browser.close")
            deadline = time.monotonic() + 5
            while True:
                try:
                    done, _ = os.waitpid(self.pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if done:
                    break
                if time.monotonic() > deadline:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(self.pid, signal.SIGKILL)
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(self.pid, 0)
                    break
                time.sleep(0.02)
            self.pid = 0
        for fd in ("_r", "_w"):
            if hasattr(self, fd):
                with contextlib.suppress(OSError):
                    os.close(getattr(self, fd))
                delattr(self, fd)
        shutil.rmtree(self.profile, ignore_errors=True)


@contextlib.contextmanager
def browser(exe: str = CHROMIUM) -> Iterator[Browser]:
    b = Browser(exe)
    try:
        yield b
    finally:
        b.close()


def print_pages(b: Browser, base: str, urls: list[str]) -> dict[str, bytes]:
    """Each page (a site path under ``base``) printed to PDF as Chromium writes it (:func:`fixed` not applied);
    up to :data:`AT_ONCE` are loaded and drawn at the same time, each in its own tab."""
    out: dict[str, bytes] = {}
    for i in range(0, len(urls), AT_ONCE):
        batch = urls[i : i + AT_ONCE]
        tabs: dict[str, str] = {}
        for url in batch:
            target = b.call("Target.createTarget", {"url": "about:blank"}, what=url)["targetId"]
            s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True}, what=url)["sessionId"]
            tabs[url] = s
            ids = [
                b.send("Page.enable", session=s),
                b.send(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
                    s,
                ),
                b.send("Emulation.setEmulatedMedia", {"media": "", "features": _FEATURES}, s),
                b.send("Emulation.setTimezoneOverride", {"timezoneId": "UTC"}, s),
            ]
            b.result(ids, url)
            nav = b.call("Page.navigate", {"url": base + url}, s, what=url)
            if nav.get("errorText"):
                raise BuildError(f"pdf: {url}: expected the deck page to load, found {nav['errorText']!r}")
        for url, s in tabs.items():
            b.wait(load=s, what=url)
        ready = [b.send("Runtime.evaluate", {"expression": READY, "awaitPromise": True}, s) for s in tabs.values()]
        for url, rid in zip(tabs, ready, strict=True):
            b.result(rid, url)
        fits = []
        for s in tabs.values():
            b.send("Emulation.setEmulatedMedia", {"media": "print", "features": _FEATURES}, s)
            fits.append(b.send("Runtime.evaluate", {"expression": FIT, "awaitPromise": True}, s))
        for url, fid in zip(tabs, fits, strict=True):
            b.result(fid, url)
        prints = [b.send("Page.printToPDF", _PRINT, s) for s in tabs.values()]
        for url, pid in zip(tabs, prints, strict=True):
            out[url] = base64.b64decode(b.result(pid, url)[0]["data"])
        for s in tabs.values():
            b.send("Page.close", session=s)
    return out


_FEATURES = [
    {"name": "prefers-color-scheme", "value": "light"},
    {"name": "prefers-reduced-motion", "value": "reduce"},
]
_PRINT = {
    "printBackground": True,
    "preferCSSPageSize": True,
    "paperWidth": WIDTH / 96,
    "paperHeight": HEIGHT / 96,
    "marginTop": 0,
    "marginBottom": 0,
    "marginLeft": 0,
    "marginRight": 0,
    "displayHeaderFooter": False,
    "generateTaggedPDF": False,
    "generateDocumentOutline": False,
    "transferMode": "ReturnAsBase64",
}

_DATE = re.compile(rb"/(?:CreationDate|ModDate)\s*\((?:\\.|[^\\)])*\)")
_TRAILER = re.compile(rb"trailer\s*<<")


def fixed(data: bytes, key: str, base: str = "") -> bytes:
    """A PDF as Chromium wrote it, made a function of what was printed: the creation and modification dates
    blanked (replaced by as many spaces, so every byte offset in the cross-reference table still holds) and a
    document id, the first 16 bytes of ``key`` (a SHA-256 in hex), added to the trailer (which follows that table:
    no offset moves)."""
    if not data.startswith(b"%PDF-"):
        raise BuildError(f"pdf: {key[:12]}: expected the browser to write a PDF, found {data[:16]!r}")
    data = _DATE.sub(lambda m: b" " * len(m.group()), data)
    if base:  # links to the loopback server that served the print: paths from the site root, padded to length
        local = re.compile(rb"\(" + re.escape(base.encode()) + rb"((?:\\.|[^\\)])*)\)")
        data = local.sub(lambda m: b"(/" + m.group(1) + b")" + b" " * (len(base) - 1), data)
    found = list(_TRAILER.finditer(data))
    if found and b"/ID" not in data[found[-1].start() :]:
        at = found[-1].end()
        ident = key[:32].encode()
        data = data[:at] + b"/ID [<" + ident + b"> <" + ident + b">]\n" + data[at:]
    return data


def main(site: Path) -> int:
    """``python -m site_builder pdf``: print the decks of the built site in ``site`` again, in place (``make site``
    writes them itself; this is for a site built by an older version)."""
    if not (site / "index.html").is_file():
        raise BuildError(f"{site}: site: expected a built site (run make site), found none")
    urls = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/decks/*/index.html"))
    ver = version()
    with browser() as b, serving(site) as served:
        printed = print_pages(b, served, urls)
        base = served
    for url, data in printed.items():
        page = (site / url / "index.html").read_bytes()
        key = hashlib.sha256(f"{ver}\n".encode() + page).hexdigest()
        out = site / (url.rstrip("/") + ".pdf")
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        tmp.write_bytes(fixed(data, key, base))
        tmp.replace(out)  # a new file: never written through a link into the cache
        print(f"wrote {out}")
    return 0
