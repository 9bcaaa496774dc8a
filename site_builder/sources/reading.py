"""The one place the build reads input files: every failure is a one-line InputError.

- :func:`read_text` reads a bounded, regular, UTF-8 file (any OSError, a folder, a FIFO, bad UTF-8 or an
  oversized file is an InputError naming the file, and the line for bad bytes);
- :func:`load_yaml` parses YAML safely: no anchors or aliases (so no alias bombs), bounded size and
  nesting, no repeated keys, and every YAMLError or constructor failure (``2024-02-30``, ``!!bool maybe``,
  a 5000-digit integer…) named by the file's real line;
- :func:`load_json` / :func:`load_jsonl` parse JSON with NaN/Infinity, overflowing floats, huge integers,
  repeated keys, lone surrogates and deep nesting rejected, errors named by line and column;
- :func:`sha256_file` hashes a file, OSError as InputError.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import json.decoder
import json.scanner
import math
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from site_builder.errors import SURROGATE as _SURROGATE
from site_builder.errors import InputError
from site_builder.errors import one_line as _one_line

KIB = 1024
MIB = 1024 * KIB

CONTENT_MAX_BYTES = 1 * MIB
"""Default limit for Markdown content pages and templates."""
DATA_MAX_BYTES = 16 * MIB
"""Default limit for results files, JSON and JSONL (the vendored results.json is ~30 KB)."""
YAML_MAX_BYTES = 1 * MIB
"""Default limit for YAML files (sources.yaml, presets.yaml are a few KB)."""
DEFAULT_MAX_BYTES = DATA_MAX_BYTES
"""The limit :func:`read_text` applies when none is given."""

JSON_MAX_DEPTH = 64
"""Default limit on JSON nesting (arrays/objects inside arrays/objects)."""
JSON_MAX_INT_DIGITS = 30
"""Integers in JSON with more digits than this are rejected (before Python converts them)."""

_BOM = b"\xef\xbb\xbf"

_ERRNO_REASONS = {
    errno.ENOENT: "no such file",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "a folder",
    errno.ENOTDIR: "no such file (a parent in its path is not a folder)",
    errno.ELOOP: "a symbolic link loop",
    errno.ENAMETOOLONG: "a path too long",
    errno.ENXIO: "a device or socket, not a file",
}


def _reason(err: OSError, path: Path) -> str:
    if err.errno == errno.ENOENT and os.path.islink(path):
        return "a dangling symbolic link"
    reason = _ERRNO_REASONS.get(err.errno or 0)
    if reason is None:
        reason = (err.strerror or type(err).__name__).lower()
    return reason


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _open_regular(path: Path, label: str) -> tuple[int, os.stat_result]:
    """Open ``path`` for reading without blocking on a FIFO; refuse anything but a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise InputError(label, "file", "a readable file", _reason(e, path)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(label, "file", "a readable file", _kind(st.st_mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def _read_fd(fd: int, limit: int, path: Path, label: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    try:
        while total <= limit:
            chunk = os.read(fd, min(1 * MIB, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as e:
        raise InputError(label, "file", "a readable file", _reason(e, path)) from None
    return b"".join(chunks)


def links_stay_inside(folder: Path, label: str, inside: Path) -> list[str]:
    """Refuse a symbolic link under ``folder`` (``label`` names the folder in errors) that points outside
    ``inside`` (the project), a link to a folder (its files would be read under another name, or forever in a
    loop) and a name that is not valid text: one line naming the link, never its target's content.

    Returns what is under ``folder`` (files, folders, links to files), as POSIX paths relative to it, ordered as the
    paths' parts sort. One listing of each folder, the entries' types taken from it (no call per file unless it is a
    link): a large site's content folder holds thousands of files."""
    root = os.path.realpath(inside)
    found: list[str] = []

    def bad(rel: str, want: str, got: str) -> InputError:
        return InputError(f"{label}/{rel}", "file", want, got)

    def visit(path: str, prefix: str) -> None:
        try:
            with os.scandir(path) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            return  # as os.walk: a folder that cannot be listed is the reader's to name, when it reads a file in it
        folders = []
        for entry in entries:
            rel = prefix + entry.name
            try:
                entry.name.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(f"{label}/{rel}", "file name", "a name in UTF-8", "bytes that are not UTF-8") from None
            if entry.is_symlink():
                if os.path.isdir(entry.path):
                    raise bad(rel, "a file or folder, not a link to a folder", "a symbolic link")
                target = os.path.realpath(entry.path)
                if os.path.exists(target) and not _under(target, root):  # a dangling link: the reader names it
                    raise bad(rel, "a file inside the project", "a symbolic link to a file outside it")
                found.append(rel)
            elif entry.is_dir(follow_symlinks=False):
                folders.append((entry.path, rel + "/"))
                found.append(rel)
            else:
                found.append(rel)
        for sub, sub_prefix in folders:
            visit(sub, sub_prefix)

    visit(os.fspath(folder), "")
    found.sort(key=lambda rel: rel.split("/"))
    return found


def _under(path: str, root: str) -> bool:
    """Whether the real path ``path`` is ``root`` or inside it (as PurePath.is_relative_to, on text)."""
    return path == root or path.startswith(root if root.endswith("/") else root + "/")


def read_text(path: Path, label: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (``label`` names it in errors).

    Like ``Path.read_text(encoding="utf-8")``: newlines are translated (``\\r\\n`` and ``\\r`` become
    ``\\n``); a leading UTF-8 byte-order mark is dropped.

    Raises InputError(label, "file", "a readable file", reason) when the file cannot be opened or read
    (reason: "no such file", "a dangling symbolic link", "permission denied", "a folder", "a named pipe",
    …); InputError(label, "file", "at most N bytes", "M bytes") when it is larger than ``max_bytes``;
    InputError(label, "line L column C", "UTF-8 text", "byte 0x..") at the first byte that is not UTF-8.
    """
    return decode_text(read_bytes(path, label, max_bytes), label)


def read_text_and_sha256(path: Path, label: str, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str]:
    """:func:`read_text` and the hex SHA-256 of the very bytes it read (to check a pin without a second read)."""
    data = read_bytes(path, label, max_bytes)
    return decode_text(data, label), hashlib.sha256(data).hexdigest()


def read_bytes(path: Path, label: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, with :func:`read_text`'s errors for opening, reading and size."""
    path = Path(path)
    fd, st = _open_regular(path, label)
    try:
        if st.st_size > max_bytes:
            raise InputError(label, "file", f"at most {max_bytes} bytes", f"{st.st_size} bytes")
        data = _read_fd(fd, max_bytes, path, label)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise InputError(label, "file", f"at most {max_bytes} bytes", f"more than {max_bytes} bytes")
    return data


def decode_text(data: bytes, label: str) -> str:
    """UTF-8 ``data`` as text (BOM dropped, newlines translated); bad bytes are an InputError naming line and column."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start : e.start].decode("utf-8", errors="replace")) + 1
        raise InputError(label, f"line {line} column {column}", "UTF-8 text", f"byte 0x{data[e.start]:02x}") from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def sha256_file(path: Path, label: str) -> str:
    """The hex SHA-256 of the regular file ``path``.

    Raises InputError(label, "file", "a readable file", reason) like :func:`read_text` (no size limit).
    """
    path = Path(path)
    fd, _ = _open_regular(path, label)
    h = hashlib.sha256()
    try:
        while True:
            block = os.read(fd, 1 * MIB)
            if not block:
                break
            h.update(block)
    except OSError as e:
        raise InputError(label, "file", "a readable file", _reason(e, path)) from None
    finally:
        os.close(fd)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------- YAML


def load_yaml(
    text: str, label: str, first_line: int = 1, max_chars: int | None = None, max_depth: int | None = None
) -> object:
    """Parse one YAML document safely (``None`` for an empty one): :func:`site_builder.sources.yaml_text.load_yaml`,
    imported on first use (PyYAML takes longer to import than a build after a one-page edit reads YAML for)."""
    from site_builder.sources.yaml_text import load_yaml as load

    limits = {k: v for k, v in (("max_chars", max_chars), ("max_depth", max_depth)) if v is not None}
    return load(text, label, first_line, **limits)


# ---------------------------------------------------------------------------------------------- JSON


class _Reject(Exception):
    """Raised inside json hooks; located in the text afterwards (only on the error path)."""

    def __init__(self, expected: str, found: str, token: re.Pattern[str] | None) -> None:
        self.expected = expected
        self.found = found
        self.token = token


class _Repeated(Exception):
    def __init__(self, key: str, pos: int | None = None) -> None:
        self.key = key
        self.pos = pos


# JSON tokens outside strings, for locating a rejected value on the error path (compiled when an error needs one).
_JSON_STRING = r'"(?:[^"\\]|\\.)*"'
_TOKENS = {
    "nonfinite": rf"{_JSON_STRING}|(-?Infinity|NaN)",
    "number": rf"{_JSON_STRING}|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)",
    "bracket": rf"{_JSON_STRING}|([\[\]{{}}])",
    "lone surrogate escape": (
        r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
        r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    ),
}


@functools.cache
def _token(name: str) -> re.Pattern[str]:
    return re.compile(_TOKENS[name])


def _line_col(text: str, pos: int, first_line: int) -> str:
    line = text.count("\n", 0, pos) + first_line
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line} column {col}"


def _json_hooks(max_int_digits: int) -> dict[str, Any]:
    def parse_constant(name: str) -> float:
        raise _Reject("a finite number", name, _token("nonfinite"))

    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > max_int_digits:
            found = f"an integer of {len(digits.lstrip('-'))} digits"
            raise _Reject(f"an integer of at most {max_int_digits} digits", found, None)
        return int(digits)

    def parse_float(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise _Reject("a finite number", _one_line(digits, 40), None)
        return value

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(items)
        if len(d) != len(items):
            seen: set[str] = set()
            for k, _ in items:
                if k in seen:
                    raise _Repeated(k)
                seen.add(k)
        return d

    return {
        "parse_constant": parse_constant,
        "parse_int": parse_int,
        "parse_float": parse_float,
        "object_pairs_hook": pairs,
    }


def _locate_token(text: str, token: re.Pattern[str], found: str) -> int | None:
    for m in token.finditer(text):
        if m.group(1) == found:
            return m.start(1)
    return None


def _locate_number(text: str, rej: _Reject, max_int_digits: int) -> int | None:
    for m in _token("number").finditer(text):
        tok = m.group(1)
        if tok is None:
            continue
        if rej.found.startswith("an integer"):
            if tok.lstrip("-").isdigit() and len(tok.lstrip("-")) > max_int_digits:
                return m.start(1)
        elif not tok.lstrip("-").isdigit():
            try:
                if not math.isfinite(float(tok)):
                    return m.start(1)
            except ValueError:
                continue
    return None


def _locate_depth(text: str, max_depth: int) -> int | None:
    depth = 0
    for m in _token("bracket").finditer(text):
        b = m.group(1)
        if b is None:
            continue
        if b in "[{":
            depth += 1
            if depth > max_depth:
                return m.start(1)
        else:
            depth -= 1
    return None


def _locate_repeated(text: str) -> int | None:
    """Re-decode with the pure-Python scanner to find the object holding a key twice (error path only)."""
    decoder = json.JSONDecoder()
    starts: list[int] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(items)
        if len(d) != len(items):
            raise _Repeated("", starts[-1])
        return d

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> Any:
        starts.append(s_and_end[1] - 1)
        result = json.decoder.JSONObject(s_and_end, *args)
        starts.pop()
        return result

    decoder.object_pairs_hook = pairs
    decoder.parse_object = parse_object  # type: ignore[assignment]
    decoder.parse_constant = float  # type: ignore[assignment]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    try:
        decoder.decode(text)
    except _Repeated as e:
        return e.pos
    except (ValueError, RecursionError):
        return None
    return None


def _walk_checks(value: object, max_depth: int) -> tuple[str, str] | None:
    """Iteratively check nesting depth and lone surrogates; (expected, found) of the first problem."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        obj, depth = stack.pop()
        if isinstance(obj, dict):
            if depth + 1 > max_depth:
                return (f"JSON nested at most {max_depth} levels deep", f"level {depth + 1}")
            for k, v in obj.items():
                if not k.isascii() and _SURROGATE.search(k):
                    return ("a string of Unicode characters", "a lone surrogate escape")
                if isinstance(v, dict | list):
                    stack.append((v, depth + 1))
                elif isinstance(v, str) and not v.isascii() and _SURROGATE.search(v):
                    return ("a string of Unicode characters", "a lone surrogate escape")
        elif isinstance(obj, list):
            if depth + 1 > max_depth:
                return (f"JSON nested at most {max_depth} levels deep", f"level {depth + 1}")
            for v in obj:
                if isinstance(v, dict | list):
                    stack.append((v, depth + 1))
                elif isinstance(v, str) and not v.isascii() and _SURROGATE.search(v):
                    return ("a string of Unicode characters", "a lone surrogate escape")
        elif isinstance(obj, str) and not obj.isascii() and _SURROGATE.search(obj):
            return ("a string of Unicode characters", "a lone surrogate escape")
    return None


def load_json(
    text: str,
    label: str,
    max_depth: int = JSON_MAX_DEPTH,
    first_line: int = 1,
    max_int_digits: int = JSON_MAX_INT_DIGITS,
) -> object:
    """Parse one JSON document strictly; ``first_line`` offsets line numbers (for a JSONL line).

    Raises InputError(label, "line L column C", expected, found) for: invalid JSON ("valid JSON",
    the decoder's message); ``NaN``/``Infinity``/``-Infinity`` or a float overflowing to infinity
    ("a finite number", "NaN"); an integer of more than ``max_int_digits`` digits; nesting deeper than
    ``max_depth``; an object with a repeated key ("each key once in an object", "'k' again"); a lone
    surrogate escape such as ``"\\ud800"``. (Where a position cannot be found, WHERE is "file".)
    """
    if not isinstance(text, str):
        raise TypeError("load_json takes str")
    hooks = _json_hooks(max_int_digits)

    def at(pos: int | None) -> str:
        return (
            _line_col(text, pos, first_line)
            if pos is not None
            else ("file" if first_line == 1 else f"line {first_line}")
        )

    try:
        value = json.loads(text, **hooks)
    except _Reject as rej:
        if rej.token is not None:
            pos = _locate_token(text, rej.token, rej.found)
        else:
            pos = _locate_number(text, rej, max_int_digits)
        raise InputError(label, at(pos), rej.expected, rej.found) from None
    except _Repeated as rep:
        pos = _locate_repeated(text)
        raise InputError(
            label, at(pos), "each key once in an object", f"{_one_line(repr(rep.key), 60)} again"
        ) from None
    except json.JSONDecodeError as e:
        where = f"line {e.lineno + first_line - 1} column {e.colno}"
        raise InputError(label, where, "valid JSON", _one_line(e.msg)) from None
    except RecursionError:
        pos = _locate_depth(text, max_depth)
        raise InputError(label, at(pos), f"JSON nested at most {max_depth} levels deep", "deeper nesting") from None
    problem = _walk_checks(value, max_depth)
    if problem is not None:
        expected, found = problem
        if found.startswith("level"):
            pos = _locate_depth(text, max_depth)
        else:
            m = _token("lone surrogate escape").search(text)
            pos = m.start() if m else None
        raise InputError(label, at(pos), expected, found)
    return value


def load_jsonl(text: str, label: str, max_depth: int = JSON_MAX_DEPTH) -> list[object]:
    """One JSON value per line (``str.splitlines``); errors name the file's line via :func:`load_json`."""
    return list(_iter_jsonl(text, label, max_depth))


def _iter_jsonl(text: str, label: str, max_depth: int) -> Iterator[object]:
    for n, line in enumerate(text.splitlines(), start=1):
        yield load_json(line, label, max_depth=max_depth, first_line=n)


__all__ = [
    "CONTENT_MAX_BYTES",
    "DATA_MAX_BYTES",
    "DEFAULT_MAX_BYTES",
    "JSON_MAX_DEPTH",
    "JSON_MAX_INT_DIGITS",
    "YAML_MAX_BYTES",
    "decode_text",
    "load_json",
    "load_jsonl",
    "load_yaml",
    "read_bytes",
    "read_text",
    "read_text_and_sha256",
    "sha256_file",
]
