"""Vendor the browser libraries the site ships, from the npm registry, pinned by SHA-256.

    python scripts/vendor_js.py           # fetch/build the versions below, copy the files, rewrite the pins
    python scripts/vendor_js.py --check   # the same into a temporary folder: exit 1 unless every file is
                                          # byte for byte the committed one

Needs node and npm. reveal.js is fetched with `npm pack` (npm's own integrity check applies) and its listed
files are copied, its notes plugin's speaker view split into speaker.html and speaker.js (see SPEAKER_OPEN). Plotly is built, not fetched: scripts/plotly_bundle/ pins plotly.js, esbuild and acorn
(exact versions and integrity hashes in its package-lock.json); `npm ci --ignore-scripts` installs them there
(node_modules/, git-ignored) and `node build.mjs` writes the bundle of the scatter and bar traces only
(build.mjs says what is in it and why); plotly.js's LICENSE is copied next to it. Each package goes into
site_builder/static/vendor/<folder>/, and static/vendor/SHA256SUMS and VERSIONS are rewritten. The build
verifies those pins (site_builder/static_assets.py). Commit the result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
VENDOR = PROJECT / "site_builder" / "static" / "vendor"
PLOTLY_BUNDLE = PROJECT / "scripts" / "plotly_bundle"
META = ("SHA256SUMS", "VERSIONS")

# folder: (npm package, version, {file in the package: name in the folder})
PACKAGES = {
    "reveal": (
        "reveal.js",
        "6.0.2",
        {
            "dist/reveal.js": "reveal.js",
            "dist/reveal.css": "reveal.css",
            "dist/plugin/notes.js": "notes.js",
            "LICENSE": "LICENSE",
        },
    ),
}
# The notes plugin writes its speaker view into an about:blank window with document.write, inline script
# included, which the site's CSP (script-src 'self') blocks. The same page, split into files of the site:
# reveal/speaker.html (the plugin's markup and styles, its <script> replaced by a link to speaker.js) and
# reveal/speaker.js (the plugin's script, unchanged). deck.js opens speaker.html and connects it.
SPEAKER_OPEN = "t.document.write(`"
SPEAKER_END = "</html>`)"
# folder: (description in VERSIONS, bundle file name; templates/base.html names it). build.mjs writes
# THIRD-PARTY-LICENSES.txt beside it.
BUILT = {"plotly": ("plotly.js (custom: scatter, bar)", "plotly-scatter-bar.min.js")}


def fetch(folder: str, tmp: Path, dest: Path) -> str:
    package, version, files = PACKAGES[folder]
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
    dest.mkdir(parents=True)
    for src, name in files.items():
        shutil.copyfile(tmp / folder / "package" / src, dest / name)
    if folder == "reveal":
        split_speaker_view(dest)
    return f"{folder}\t{package}\t{version}"


def split_speaker_view(dest: Path) -> None:
    """Write speaker.html and speaker.js from the speaker view notes.js holds as a template string."""
    js = (dest / "notes.js").read_text(encoding="utf-8")
    start = js.index(SPEAKER_OPEN) + len(SPEAKER_OPEN)
    if js.count(SPEAKER_OPEN) != 1:
        raise SystemExit("notes.js: expected one speaker view template")
    page = js[start : js.index(SPEAKER_END, start) + len("</html>")]
    # The template's escapes (a template literal: \` \$ \\ and <\/script>) back to the page's text.
    page = re.sub(r"\\([`$\\/])", r"\1", page)
    if "${" in page:
        raise SystemExit("notes.js: the speaker view template interpolates values; split it by hand")
    open_tag, close_tag = "<script>", "</script>"
    if page.count(open_tag) != 1 or page.count(close_tag) != 1:
        raise SystemExit("notes.js: expected one inline <script> in the speaker view")
    a = page.index(open_tag)
    b = page.index(close_tag)
    (dest / "speaker.js").write_text(page[a + len(open_tag) : b].strip("\n") + "\n", encoding="utf-8")
    page = page[:a] + '<script src="speaker.js" defer></script>' + page[b + len(close_tag) :]
    (dest / "speaker.html").write_text(page.lstrip("\n"), encoding="utf-8")


def build_plotly(dest: Path) -> str:
    description, name = BUILT["plotly"]
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], cwd=PLOTLY_BUNDLE, check=True
    )
    dest.mkdir(parents=True)
    subprocess.run(["node", "build.mjs", str(dest / name)], cwd=PLOTLY_BUNDLE, check=True)
    package = PLOTLY_BUNDLE / "node_modules" / "plotly.js"
    shutil.copyfile(package / "LICENSE", dest / "LICENSE")
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    return f"plotly\t{description}\t{version}"


def vendor(into: Path) -> None:
    """Write every vendored folder, SHA256SUMS and VERSIONS into `into` (an empty or absent folder)."""
    versions = []
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for folder in sorted(PACKAGES.keys() | BUILT.keys()):
            dest = into / folder
            versions.append(build_plotly(dest) if folder in BUILT else fetch(folder, tmp, dest))
    sums = []
    for p in sorted(into.rglob("*")):
        if p.is_file() and p.name not in META:
            sums.append(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(into).as_posix()}")
    (into / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")
    (into / "VERSIONS").write_text("\n".join(versions) + "\n", encoding="utf-8")
    print(f"vendored {len(sums)} files")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="rebuild into a temporary folder and compare, write nothing")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        fresh = Path(t) / "vendor"
        vendor(fresh)
        if not args.check:  # everything built: replace the vendored folder's contents
            for p in VENDOR.iterdir():
                shutil.rmtree(p) if p.is_dir() else p.unlink()
            shutil.copytree(fresh, VENDOR, dirs_exist_ok=True)
            return 0
        names = {p.relative_to(root).as_posix() for root in (VENDOR, fresh) for p in root.rglob("*") if p.is_file()}
        differ = [
            n
            for n in sorted(names)
            if not ((VENDOR / n).is_file() and (fresh / n).is_file())
            or (VENDOR / n).read_bytes() != (fresh / n).read_bytes()
        ]
    for n in differ:
        print(f"differs: site_builder/static/vendor/{n}", file=sys.stderr)
    print("identical to the committed files" if not differ else f"{len(differ)} file(s) differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
