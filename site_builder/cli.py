"""Command line: ``python -m site_builder build|results|pin``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from site_builder.build import PROJECT, Options, build, load_inputs, write_results
from site_builder.errors import BuildError
from site_builder.sources import pins

PIN_PATTERNS = {
    "vendor": [
        "demo-fixed-band/tinystories-gpu/results.json",
        "demo-fixed-band/tinystories-gpu/results.md",
        "demo-fixed-band/curves/*.jsonl",
    ],
    "reference": ["presets.yaml"],
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m site_builder", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--vendor", type=Path, help="vendored data folder (default ../shared/vendor)")
        sp.add_argument("--reference", type=Path, help="reference facts folder (default ../shared/reference)")
        sp.add_argument("--project", type=Path, default=PROJECT, help="project folder (data/, content/, templates/)")

    b = sub.add_parser("build", help="build the site (what `make site` runs)")
    common(b)
    b.add_argument("--out", type=Path, help="output folder (default site/)")
    r = sub.add_parser("results", help="run the models and write data/*/results.{md,json} (`make results`)")
    common(r)
    pn = sub.add_parser("pin", help="rewrite data/sources.yaml with the SHA-256 of every input read")
    common(pn)
    c = sub.add_parser("check", help="verify pins and validate every input, build nothing")
    common(c)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    opts = Options(
        project=args.project.resolve(), out=getattr(args, "out", None), vendor=args.vendor, reference=args.reference
    )
    try:
        if args.command == "build":
            build(opts)
        elif args.command == "results":
            write_results(opts)
        elif args.command == "pin":
            _, vendor, reference = opts.resolved()
            got = pins.write_pins(opts.project / "data" / "sources.yaml", pins.Roots(vendor, reference), PIN_PATTERNS)
            print(f"pinned {sum(len(v) for v in got.values())} files in data/sources.yaml")
        else:
            load_inputs(opts)
            print("inputs verified")
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0
