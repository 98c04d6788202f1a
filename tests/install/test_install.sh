#!/bin/sh
# The installed library, as a user gets it: `cmake --install` into a fresh prefix, then the
# example program (examples/api/check_snippet.c) built outside the tree with pkg-config, against
# the shared library and against the static one, and run on a hostile and a clean snippet.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [EXTRA_CFLAGS]
set -eu
BUILD=$1
SRC=$2
EXTRA=${3:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PREFIX=$TMP/prefix
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
LIBDIR=$(cd "$(dirname "$(find "$PREFIX" -name snipgate.pc | head -n 1)")/.." && pwd)
[ -f "$LIBDIR/pkgconfig/snipgate.pc" ] || { echo "FAIL: no snipgate.pc installed"; exit 1; }
for f in share/man/man1/snipgate.1 bin/snipgate include/snipgate/snipgate.h include/snipgate/sandbox.h include/snipgate/golden.h include/snipgate/version.h; do
    [ -e "$PREFIX/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$LIBDIR"/libsnipgate.so.0 "$LIBDIR"/libsnipgate.a >/dev/null
# the man page renders, and it holds every verb's options (it is generated from the help text)
if command -v man >/dev/null 2>&1; then
    page=$(MANWIDTH=100 man -l "$PREFIX/share/man/man1/snipgate.1" 2>/dev/null | col -b 2>/dev/null || true)
    for opt in --changed-since --baseline --parse-cpu --criteria --call --summary; do
        echo "$page" | grep -q -- "$opt" || { echo "FAIL: the man page lacks $opt"; exit 1; }
    done
fi
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
# plain pkg-config: the .pc file must point at where it was installed by itself (${pcfiledir}),
# whatever prefix the build was configured with
PC="pkg-config"
case "$($PC --variable=includedir snipgate)" in
    "$PREFIX"/*|"$LIBDIR"/../*) ;;
    *) echo "FAIL: snipgate.pc points at $($PC --variable=includedir snipgate), not at $PREFIX"; exit 1 ;;
esac
[ -f "$($PC --variable=includedir snipgate)/snipgate/snipgate.h" ] ||
    { echo "FAIL: snipgate.pc's includedir has no snipgate/snipgate.h"; exit 1; }
CC=${CC:-cc}
# Shared: only what pkg-config says.
# shellcheck disable=SC2046
# shellcheck disable=SC2086
$CC $EXTRA -Wall -Werror -o "$TMP/ex_shared" "$SRC/examples/api/check_snippet.c" $($PC --cflags --libs snipgate)
# Static: the archive, with the private dependencies pkg-config lists.
# shellcheck disable=SC2046
# shellcheck disable=SC2086
$CC $EXTRA -Wall -Werror -o "$TMP/ex_static" "$SRC/examples/api/check_snippet.c" $($PC --cflags snipgate) \
    "$LIBDIR/libsnipgate.a" $($PC --static --libs-only-l snipgate | sed 's/-lsnipgate//')
printf 'import os\nos.system(input())\n' > "$TMP/bad.py"
printf 'print(sum(range(4)))\n' > "$TMP/good.py"
fails=0
for ex in ex_shared ex_static; do
    set +e
    out=$(LD_LIBRARY_PATH="$LIBDIR" "$TMP/$ex" "$TMP/bad.py"); rc=$?
    set -e
    case "$out" in *SG201*blocked*) [ $rc -eq 1 ] || { echo "FAIL $ex bad.py: exit $rc"; fails=$((fails+1)); } ;;
        *) echo "FAIL $ex bad.py: $out"; fails=$((fails+1)) ;; esac
    set +e
    out=$(LD_LIBRARY_PATH="$LIBDIR" "$TMP/$ex" "$TMP/good.py"); rc=$?
    set -e
    case "$out" in *"sandbox: ok"*) [ $rc -eq 0 ] || { echo "FAIL $ex good.py: exit $rc"; fails=$((fails+1)); } ;;
        *"sandbox unavailable"*) echo "note: $ex: the kernel refuses the sandbox here" ;;
        *) echo "FAIL $ex good.py: $out"; fails=$((fails+1)) ;; esac
done
ver=$("$PREFIX/bin/snipgate" --version)
case "$ver" in "snipgate "[0-9]*) ;; *) echo "FAIL: installed snipgate --version says '$ver'"; fails=$((fails+1)) ;; esac
if ldd "$TMP/ex_shared" | grep -q "libsnipgate.so.0 => $LIBDIR"; then :; else
    echo "note: ldd does not show the installed libsnipgate.so.0 (rpath/LD_LIBRARY_PATH)"; fi
echo "$(( 6 - fails )) passed, $fails failed"
[ $fails -eq 0 ]
