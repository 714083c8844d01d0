#!/usr/bin/env bash
# Installs the debug adapters the locus-dap end-to-end tests drive beyond debugpy (which
# scripts/install-test-peers.sh pins in the test venv): lldb-dap from Debian's lldb-19, with
# gcc for the C program the test builds, and Delve with the Go toolchain it builds programs
# with. Idempotent: does nothing when they are installed.
# See ../shared/DESIGN.md §7 and adapters/*.toml (each file's `install` line).
set -euo pipefail

need=()
command -v lldb-dap-19 >/dev/null 2>&1 || need+=(lldb-19)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v dlv >/dev/null 2>&1 || need+=(delve)
command -v go >/dev/null 2>&1 || need+=(golang-go)

if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need[@]}"
fi
echo "lldb-dap: $(command -v lldb-dap-19)"
echo "delve: $(command -v dlv) ($(dlv version | sed -n 2p)), $(go version)"
