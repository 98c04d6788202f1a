#!/usr/bin/env bash
# Install everything snipgate needs on a fresh Debian 12 machine, as root. Idempotent.
#  - Debian packages, by name (apt).
#  - The tree-sitter-python grammar and the tree-sitter runtime's C sources (as the npm package
#    `tree-sitter` ships them in vendor/tree-sitter/lib) from the npm registry, each pinned by
#    version and verified against its registry integrity hash, unpacked under build-deps/ (never
#    committed). Why not Debian's libtree-sitter 0.20.7: docs/design.md, "The tree-sitter runtime".
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir="${SNIPGATE_DEPS_DIR:-$here/build-deps}"

GRAMMAR_NAME=tree-sitter-python
GRAMMAR_VERSION=0.23.6
GRAMMAR_INTEGRITY='sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A=='

# The tree-sitter runtime (lib/src/lib.c, compiled into snipgate), from the npm package of the
# Node binding, which carries the runtime's C sources.
TS_NAME=tree-sitter
TS_VERSION=0.25.0
TS_INTEGRITY='sha512-PGZZzFW63eElZJDe/b/R/LbsjDDYJa5UEjLZJB59RQsMX+fo0j54fqBPn1MGKav/QNa0JR0zBiVaikYDWCj5KQ=='

# The TOML grammar (tree-sitter-grammars' tree-sitter-toml, MIT): reads `[tool.snipgate]` from
# pyproject.toml (gate/policy_toml.c). Debian 12 has no C TOML library (docs/design.md).
TOML_NAME=@tree-sitter-grammars/tree-sitter-toml
TOML_VERSION=0.7.0
TOML_INTEGRITY='sha512-873Kl518Qm5ghbWadISY41rwFjee0v+2bU4twwvAw2VAJcWwj2vBo3F3hOCXfbqHaFiqc4qh6eLhkMl2YZJS0g=='

# The official SARIF 2.1.0 JSON Schema (OASIS, sarif-2.1.0-rtm.5.json), as an MIT-licensed npm
# package ships it; tests validate every SARIF verdict against it. Never committed.
SARIF_PKG=@microsoft/jest-sarif
SARIF_VERSION=1.0.0-beta.0
SARIF_INTEGRITY='sha512-A1fOhPd6Ic5iDk4F9YPw1qNB4XF+7+IviR7xl8r2F6QzQkx5cpY9LsGk2rExiFIEcBbjpVnSmwWGBukASkiQ9A=='
SARIF_FILE=lib/schemas/sarif-2.1.0-rtm.5.json

PACKAGES=(
  build-essential cmake pkg-config clang libclang-rt-14-dev
  libseccomp-dev libcmocka-dev libjansson-dev libyajl-dev libyaml-dev libunistring-dev nettle-dev libmicrohttpd-dev
  python3 python3-dev python3-distributed python3-jsonschema pre-commit git nodejs npm ca-certificates openssl
)
# Peers for the benchmarks (bench/), and CPython's own tests (part of the audit benchmark's
# corpus): optional, installed with SNIPGATE_BENCH=1.
BENCH_PACKAGES=(bandit bubblewrap hyperfine wrk libpython3.11-testsuite)

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

# fetch_npm NAME VERSION INTEGRITY DIR CHECK_FILE MEMBER...: npm pack NAME@VERSION, verify the
# tarball's sha512 against INTEGRITY, unpack MEMBERs (paths under package/) into DIR.
fetch_npm() {
  local name=$1 version=$2 integrity=$3 dir=$4 check=$5
  shift 5
  local stamp="$dir/.verified"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$integrity" ] && [ -f "$dir/$check" ]; then
    log "$name@$version present"
    return
  fi
  mkdir -p "$deps_dir"
  local tmp
  tmp=$(mktemp -d "$deps_dir/.fetch.XXXXXX")
  log "fetching $name@$version from the npm registry"
  (cd "$tmp" && npm pack --silent "$name@$version" >/dev/null)
  local tarball
  tarball=$(ls "$tmp"/*.tgz)
  local got
  got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    log "integrity mismatch for $tarball: got $got, want $integrity"; rm -rf "$tmp"; exit 1
  fi
  rm -rf "$dir"; mkdir -p "$dir"
  tar -xzf "$tarball" -C "$dir" --strip-components=1 "$@"
  rm -rf "$tmp"
  printf '%s' "$integrity" > "$stamp"
  log "$name@$version verified and unpacked in $dir"
}

fetch_npm "$GRAMMAR_NAME" "$GRAMMAR_VERSION" "$GRAMMAR_INTEGRITY" "$deps_dir/$GRAMMAR_NAME-$GRAMMAR_VERSION" \
  src/parser.c package/src package/package.json
fetch_npm "$TS_NAME" "$TS_VERSION" "$TS_INTEGRITY" "$deps_dir/$TS_NAME-$TS_VERSION" \
  vendor/tree-sitter/lib/src/lib.c package/vendor/tree-sitter/lib package/package.json
fetch_npm "$TOML_NAME" "$TOML_VERSION" "$TOML_INTEGRITY" "$deps_dir/tree-sitter-toml-$TOML_VERSION" \
  src/parser.c package/src package/package.json package/LICENSE

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
