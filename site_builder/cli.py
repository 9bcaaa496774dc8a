"""Command line: ``python -m site_builder build|results|pin|check|figures|explain|changes|…``."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path

from site_builder.errors import BuildError, printable
from site_builder.outdir import interrupts_as_errors
from site_builder.paths import PROJECT, Options


def _common(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--vendor", type=Path, help="vendored data folder (default ../shared/vendor)")
    sp.add_argument("--reference", type=Path, help="reference facts folder (default ../shared/reference)")
    sp.add_argument("--project", type=Path, default=PROJECT, help="project folder (data/, content/, templates/)")


def _build(b: argparse.ArgumentParser) -> None:
    _common(b)
    b.add_argument("--out", type=Path, help="output folder (default site/)")
    b.add_argument("--cache", type=Path, help="results cache folder (default .cache/)")
    b.add_argument(
        "--no-cache",
        action="store_true",
        help="recompute every model and page; only the decks' PDFs are still kept in --cache (by their pages' bytes)",
    )
    b.add_argument(
        "--no-pdf",
        action="store_true",
        help="do not print the decks' PDFs (benchmarks, drafts): the site is then incomplete, its PDF links unprinted",
    )
    b.add_argument(
        "--template-seconds",
        type=float,
        default=Options.template_seconds,
        help=f"time limit for rendering one page's template (default {Options.template_seconds:g} s)",
    )
    b.add_argument(
        "--site-url", help="the published site's address, for sitemap.xml (default: paths from the site root)"
    )


def _serve(sv: argparse.ArgumentParser) -> None:
    _common(sv)
    sv.add_argument("--out", type=Path, help="output folder (default site/)")
    sv.add_argument("--port", type=int, default=8000)


def _pdf(pd: argparse.ArgumentParser) -> None:
    pd.add_argument("--project", type=Path, default=PROJECT, help="project folder")
    pd.add_argument("--out", type=Path, help="the built site (default site/)")


def _with_cache(sp: argparse.ArgumentParser) -> None:
    _common(sp)
    sp.add_argument("--cache", type=Path, help="results cache folder (default .cache/)")


def _figures(f: argparse.ArgumentParser) -> None:
    _common(f)
    f.add_argument("pattern", nargs="?", help="a substring of the key or text, or a pattern such as 'exp.final.*'")
    f.add_argument("--cache", type=Path, help="results cache folder (default .cache/)")


def _terms(t: argparse.ArgumentParser) -> None:
    _common(t)
    t.add_argument("pattern", nargs="?", help="a substring of the key, title or definition, or a pattern")


def _explain(ex: argparse.ArgumentParser) -> None:
    _common(ex)
    ex.add_argument("key", help="a registered figure key, such as exp.final.B")
    ex.add_argument("--cache", type=Path, help="results cache folder (default .cache/)")


def _changes(cg: argparse.ArgumentParser) -> None:
    _common(cg)
    cg.add_argument("old", help="a built site's figures.json or folder, or a git revision of this project")
    cg.add_argument("new", help="the same, for the newer side")


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "build": ("build the site (what `make site` runs)", _build),
    "serve": ("build, serve on 127.0.0.1 and rebuild on every change (`make serve`)", _serve),
    "results": ("run the models and write data/*/results.{md,json} (`make results`)", _common),
    "pin": ("rewrite data/sources.yaml with the SHA-256 of every input read", _common),
    "pdf": ("print every deck of a built site to PDF again, in place (the build prints them itself)", _pdf),
    "check": ("make every check a build makes, into a temporary folder; publish nothing", _with_cache),
    "figures": ("list the figures (key, text, source cell, pages) matching PATTERN", _figures),
    "terms": ("list the glossary terms (key, title, definition, groups) matching PATTERN", _terms),
    "explain": ("where figure KEY comes from: cell, writer, models, pinned inputs, pages", _explain),
    "changes": ("the figures that changed, appeared or disappeared from OLD to NEW", _changes),
    "charts": ("list the explorers a page may place with ::chart[name]", _common),
}
"""Each command: its line of help and what adds its arguments to its parser."""


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``only``, the top level and that one command's parser (the others are made only to
    explain a command line that is wrong or asks for help: making each costs argparse's message lookups)."""
    p = argparse.ArgumentParser(prog="python -m site_builder", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    for name, (help_line, arguments) in COMMANDS.items():
        if only is None or name == only:
            arguments(sub.add_parser(name, help=help_line))
    return p


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line's arguments, as :func:`parser` reads them. A command line naming a command, without help
    asked for, is read by that command's parser alone; if that parser refuses it, the whole one reads it again and
    says what is wrong, as it would have alone."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in COMMANDS and not any(a in ("-h", "--help") for a in args):
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                return parser(args[0]).parse_args(args)
        except SystemExit as e:
            if not e.code:  # help asked for by an abbreviation (--he): printed, as the whole parser prints it
                raise
    return parser().parse_args(args)


def _unencodable(args: argparse.Namespace) -> str | None:
    """The first path option that is not valid text (a non-ASCII name under an ASCII locale arrives as bytes the
    locale could not decode), as an error line; None when every one is text."""
    for name in ("project", "out", "vendor", "reference", "cache"):
        value = getattr(args, name, None)
        if value is None:
            continue
        try:
            str(value).encode("utf-8")
        except UnicodeEncodeError:
            return (
                f"error: --{name} {printable(str(value))}: expected a path the locale decodes (set a UTF-8 locale, "
                f"e.g. LC_ALL=C.UTF-8), found bytes it cannot"
            )
    return None


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    bad = _unencodable(args)
    if bad is not None:
        print(bad, file=sys.stderr)
        return 1
    opts = Options(
        project=args.project.resolve(),
        out=getattr(args, "out", None),
        vendor=getattr(args, "vendor", None),
        reference=getattr(args, "reference", None),
        cache=getattr(args, "cache", None),
        use_cache=not getattr(args, "no_cache", False),
        template_seconds=getattr(args, "template_seconds", Options.template_seconds),
        site_url=getattr(args, "site_url", None),
        # only --no-pdf says anything of printing: otherwise Options' own default (tests/build/conftest.py's
        # in-process builds replace Options by one that does not print)
        **({"print_decks": False} if getattr(args, "no_pdf", False) else {}),
    )
    try:
        if args.command in ("serve", "pdf"):  # long-running: they handle Ctrl-C themselves
            return _run(args, opts)
        with interrupts_as_errors():  # SIGTERM/SIGINT as one clean line; the build removes its temporary folder
            return _run(args, opts)
    except BuildError as e:  # Interrupted included: the one clean line
        print(f"error: {e}", file=sys.stderr)
        return 1
    except MemoryError:  # an input far larger than any the limits let through: still one line, nothing written
        print(
            f"error: {args.command}: memory: expected the inputs to fit in memory, found them too large",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:  # before the handlers were installed or after they were restored
        print("error: interrupted by SIGINT: nothing was written", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace, opts: Options) -> int:
    try:
        if args.command in ("build", "serve", "check", "figures", "explain"):
            from site_builder.cache.folder import usable

            opts = usable(opts, lambda line: print(line, file=sys.stderr))
        if args.command == "build":
            from site_builder.cache import uptodate

            state = uptodate.check(opts)
            if state.record is not None:  # nothing changed: done without importing the build's modules
                uptodate.skip(opts, state.record, print)
                return 0
            from site_builder.build import build

            build(opts, state=state)
        elif args.command == "pdf":
            from site_builder.printing.pdf import main as pdf_main

            return pdf_main((args.out or args.project / "site").resolve())
        elif args.command == "serve":
            from site_builder.commands.serve import serve

            return serve(opts, args.port)
        elif args.command in ("explain", "changes"):
            from site_builder.commands import provenance

            if args.command == "explain":
                provenance.explain(opts, args.key)
            else:
                provenance.changes(opts, args.old, args.new)
        elif args.command == "results":
            from site_builder.build import write_results

            write_results(opts)
        elif args.command == "pin":
            from site_builder.results.producers import reads
            from site_builder.sources import pins

            paths = opts.paths()
            got = pins.write_pins(paths.pins, pins.Roots(paths.vendor, paths.reference), reads())
            print(f"pinned {sum(len(v) for v in got.values())} files in data/sources.yaml")
        else:
            from site_builder.commands import authoring

            if args.command == "check":
                authoring.check(opts)
            elif args.command == "figures":
                authoring.figures(opts, args.pattern)
            elif args.command == "terms":
                authoring.terms(opts, args.pattern)
            else:
                authoring.charts(opts)
    except OSError as e:  # outside any reader or writer that names its file (a safety net, not the rule)
        where = e.filename if e.filename else args.command
        raise BuildError(
            f"{where}: file: expected it readable and writable, found {(e.strerror or str(e)).lower()}"
        ) from None
    return 0
