"""The dev server trusts no one: only this machine's Host names, no folder listings, nosniff and the pages' CSP
on every response, a malformed request answered without a traceback, and a busy port named before any build."""

from __future__ import annotations

import functools
import http.client
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.commands.serve import CSP, BuildState, Handler, listen
from site_builder.errors import BuildError


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, list[str]]]:
    (tmp_path / "index.html").write_text("<html><body>home</body></html>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "a.css").write_text("p{}")
    logged: list[str] = []
    srv = listen(0)
    port = srv.server_address[1]
    srv.RequestHandlerClass = functools.partial(  # type: ignore[assignment]
        type("H", (Handler,), {"state": BuildState(), "port": port, "log": logged.append}), directory=str(tmp_path)
    )
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield port, logged
    srv.shutdown()
    srv.server_close()


def get(port: int, path: str, host: str | None = None) -> http.client.HTTPResponse:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.putrequest("GET", path, skip_host=True)
    c.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
    c.endheaders()
    r = c.getresponse()
    r.read()
    return r


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1", "localhost:1", ""])
def test_another_host_gets_403_and_one_log_line(served: tuple[int, list[str]], host: str) -> None:
    port, logged = served
    assert get(port, "/", host.format(port=port)).status == 403
    assert len(logged) == 1 and logged[0].startswith("serve: refused a request for Host")


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_this_machine_is_served_with_nosniff_and_the_csp(served: tuple[int, list[str]], host: str) -> None:
    port, _ = served
    r = get(port, "/", host.format(port=port))
    assert r.status == 200
    assert r.getheader("X-Content-Type-Options") == "nosniff"
    assert r.getheader("Content-Security-Policy") == CSP


def test_folders_are_never_listed(served: tuple[int, list[str]]) -> None:
    port, _ = served
    r = get(port, "/assets/")
    assert r.status == 404 and r.getheader("X-Content-Type-Options") == "nosniff"


@pytest.mark.parametrize("path", ["/%00", "/a%00b.html", "/../../etc/passwd", "/%ff%fe"])
def test_odd_paths_get_an_answer(served: tuple[int, list[str]], path: str) -> None:
    port, _ = served
    assert get(port, path).status in (400, 404)


def test_a_malformed_request_does_not_stop_the_server(served: tuple[int, list[str]]) -> None:
    port, _ = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"\x00\xff GARBAGE \r\n\r\n")
        s.recv(1024)
    assert get(port, "/").status == 200


def test_a_busy_port_is_named_before_anything_is_built() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(BuildError, match=rf"^serve: port {port} on 127\.0\.0\.1: expected a free port .*found"):
            listen(port)
