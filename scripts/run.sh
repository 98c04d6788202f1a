#!/usr/bin/env bash
# Set up, build, and run the static gate on the bundled examples (the README's first command).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "== snipgate check examples/ examples/llm_answer.md (default rules) =="
set +e
./build/snipgate check examples/ examples/llm_answer.md "$@"
rc=$?
set -e
case $rc in
  0) echo "== verdict: pass (exit 0)" ;;
  1) echo "== verdict: block (exit 1): the examples include hostile snippets, so this is the expected verdict" ;;
  *) echo "== snipgate failed (exit $rc)"; exit "$rc" ;;
esac
