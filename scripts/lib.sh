# What the install scripts share; sourced, never run. The sourcing script sets
# LIB_NAME (the prefix of its messages) first, and runs under `set -euo pipefail`.

# Prints "$LIB_NAME: <message>" on stderr and ends the script with status 1.
fail() {
  echo "$LIB_NAME: $*" >&2
  exit 1
}

# Installs Debian packages with apt-get (through sudo unless root), updating the package lists
# and trying again when the first attempt fails; fails the script when they cannot be installed.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || fail "$* missing and apt-get is not available to install it"
  echo "$LIB_NAME: installing $* (apt-get)" >&2
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  ${sudo[@]+"${sudo[@]}"} apt-get install -y "$@" >&2 \
    || { ${sudo[@]+"${sudo[@]}"} apt-get update >&2 && ${sudo[@]+"${sudo[@]}"} apt-get install -y "$@" >&2; } \
    || fail "apt-get could not install $*"
}

# cache_claim DIR STAMP READY RESULT: takes the cache folder DIR for one build.
# When the command READY succeeds (the work is done already) it prints RESULT and ends the
# script with status 0. Otherwise it creates DIR and holds the lock "DIR.lock" (on fd 9, until
# the script ends), so that runs in parallel (tests may all call an install script) build
# once: the others wait for the lock, find READY true, print RESULT and end. It returns with
# the stamp STAMP removed, for the build to write it last, once everything is in place.
cache_claim() {
  local dir="$1" stamp="$2" ready="$3" result="$4"
  if "$ready"; then
    echo "$result"
    exit 0
  fi
  mkdir -p "$dir"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$dir.lock"
    if ! flock -n 9; then
      echo "$LIB_NAME: waiting for another build of $dir" >&2
      flock 9 || fail "cannot lock $dir.lock"
    fi
    if "$ready"; then
      echo "$result"
      exit 0
    fi
  fi
  rm -f "$stamp"
}
