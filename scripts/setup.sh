#!/usr/bin/env bash
# Install everything snipgate needs on a fresh Debian 12 machine, as root. Idempotent.
#  - Debian packages, by name (apt).
#  - The tree-sitter-python grammar from the npm registry, pinned by version and verified
#    against its registry integrity hash, unpacked under build-deps/ (never committed).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir="${SNIPGATE_DEPS_DIR:-$here/build-deps}"

GRAMMAR_NAME=tree-sitter-python
GRAMMAR_VERSION=0.23.6
GRAMMAR_INTEGRITY='sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A=='

# The official SARIF 2.1.0 JSON Schema (OASIS, sarif-2.1.0-rtm.5.json), as an MIT-licensed npm
# package ships it; tests validate every SARIF verdict against it. Never committed.
SARIF_PKG=@microsoft/jest-sarif
SARIF_VERSION=1.0.0-beta.0
SARIF_INTEGRITY='sha512-A1fOhPd6Ic5iDk4F9YPw1qNB4XF+7+IviR7xl8r2F6QzQkx5cpY9LsGk2rExiFIEcBbjpVnSmwWGBukASkiQ9A=='
SARIF_FILE=lib/schemas/sarif-2.1.0-rtm.5.json

PACKAGES=(
  build-essential cmake pkg-config clang libclang-rt-14-dev
  libtree-sitter-dev libseccomp-dev libcmocka-dev libjansson-dev libyaml-dev libunistring-dev nettle-dev libmicrohttpd-dev
  python3 python3-dev python3-distributed python3-jsonschema pre-commit git nodejs npm ca-certificates openssl
)
# Peers for the benchmarks (bench/): optional, installed with SNIPGATE_BENCH=1.
BENCH_PACKAGES=(bandit bubblewrap hyperfine wrk)

log() { printf 'setup: %s\n' "$*" >&2; }

need_install=()
want=("${PACKAGES[@]}")
[ "${SNIPGATE_BENCH:-0}" = 1 ] && want+=("${BENCH_PACKAGES[@]}")
for p in "${want[@]}"; do
  # nodejs may come from another Debian-format repo that already bundles npm.
  if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
  if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_install+=("$p")
done
if [ ${#need_install[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    log "missing packages: ${need_install[*]} (run this script as root to install them)"; exit 1
  fi
  log "installing: ${need_install[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_install[@]}" >/dev/null
fi

grammar_dir="$deps_dir/$GRAMMAR_NAME-$GRAMMAR_VERSION"
stamp="$grammar_dir/.verified"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$GRAMMAR_INTEGRITY" ] && [ -f "$grammar_dir/src/parser.c" ]; then
  log "grammar $GRAMMAR_NAME@$GRAMMAR_VERSION present"
else
  mkdir -p "$deps_dir"
  tmp=$(mktemp -d "$deps_dir/.fetch.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  log "fetching $GRAMMAR_NAME@$GRAMMAR_VERSION from the npm registry"
  (cd "$tmp" && npm pack --silent "$GRAMMAR_NAME@$GRAMMAR_VERSION" >/dev/null)
  tarball=$(ls "$tmp"/*.tgz)
  got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
  if [ "$got" != "$GRAMMAR_INTEGRITY" ]; then
    log "integrity mismatch for $tarball: got $got, want $GRAMMAR_INTEGRITY"; exit 1
  fi
  rm -rf "$grammar_dir"; mkdir -p "$grammar_dir"
  tar -xzf "$tarball" -C "$grammar_dir" --strip-components=1 package/src package/package.json
  printf '%s' "$GRAMMAR_INTEGRITY" > "$stamp"
  log "grammar verified and unpacked in $grammar_dir"
fi

sarif_dir="$deps_dir/sarif-schema"
sarif_stamp="$sarif_dir/.verified"
if [ -f "$sarif_stamp" ] && [ "$(cat "$sarif_stamp")" = "$SARIF_INTEGRITY" ] && [ -f "$sarif_dir/sarif-2.1.0.json" ]; then
  log "SARIF 2.1.0 schema present"
else
  mkdir -p "$deps_dir"
  stmp=$(mktemp -d "$deps_dir/.fetch.XXXXXX")
  log "fetching the SARIF 2.1.0 schema ($SARIF_PKG@$SARIF_VERSION) from the npm registry"
  (cd "$stmp" && npm pack --silent "$SARIF_PKG@$SARIF_VERSION" >/dev/null)
  starball=$(ls "$stmp"/*.tgz)
  sgot="sha512-$(openssl dgst -sha512 -binary "$starball" | base64 -w0)"
  if [ "$sgot" != "$SARIF_INTEGRITY" ]; then
    log "integrity mismatch for $starball: got $sgot, want $SARIF_INTEGRITY"; rm -rf "$stmp"; exit 1
  fi
  rm -rf "$sarif_dir"; mkdir -p "$sarif_dir"
  tar -xzf "$starball" -C "$stmp" "package/$SARIF_FILE"
  mv "$stmp/package/$SARIF_FILE" "$sarif_dir/sarif-2.1.0.json"
  rm -rf "$stmp"
  printf '%s' "$SARIF_INTEGRITY" > "$sarif_stamp"
  log "SARIF schema verified and unpacked in $sarif_dir"
fi
