"""Vendor the browser libraries the site ships, from the npm registry, pinned by SHA-256.

    python scripts/vendor_js.py          # fetch the versions below, copy the files, rewrite the pins

Each package is fetched with `npm pack` (npm's own integrity check applies), the listed files are
copied into site_builder/static/vendor/<folder>/ with the package's licence, and
static/vendor/SHA256SUMS and VERSIONS are rewritten. The build verifies those pins
(site_builder/static_assets.py). Commit the result.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "site_builder" / "static" / "vendor"

# folder: (npm package, version, {file in the package: name in the folder})
PACKAGES = {
    "reveal": (
        "reveal.js",
        "6.0.2",
        {"dist/reveal.js": "reveal.js", "dist/reveal.css": "reveal.css", "LICENSE": "LICENSE"},
    ),
    # The partial bundle (scatter, bar, pie): every chart the explorers draw, a quarter of the full bundle.
    "plotly": (
        "plotly.js-basic-dist-min",
        "4.1.1",
        {"plotly-basic.min.js": "plotly-basic.min.js", "LICENSE": "LICENSE"},
    ),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for folder, (package, version, files) in PACKAGES.items():
            out = (
                subprocess.run(
                    ["npm", "pack", f"{package}@{version}", "--silent"],
                    cwd=tmp,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            with tarfile.open(tmp / out) as tar:
                tar.extractall(tmp / folder, filter="data")
            dest = VENDOR / folder
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir(parents=True)
            for src, name in files.items():
                shutil.copyfile(tmp / folder / "package" / src, dest / name)
    sums = []
    for p in sorted(VENDOR.rglob("*")):
        if p.is_file() and p.name not in ("SHA256SUMS", "VERSIONS"):
            sums.append(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(VENDOR).as_posix()}")
    (VENDOR / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")
    versions = [f"{folder}\t{package}\t{version}" for folder, (package, version, _) in PACKAGES.items()]
    (VENDOR / "VERSIONS").write_text("\n".join(versions) + "\n", encoding="utf-8")
    print(f"vendored {len(sums)} files")


if __name__ == "__main__":
    main()
