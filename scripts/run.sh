#!/usr/bin/env bash
# Set up, build, and run the gate on the bundled examples (the README's first command): the static
# gate on examples/, then the golden stage on two solutions of a built-in task.
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
echo
echo "== snipgate check examples/golden/*.py --task sg/binary_search_leftmost (built-in golden suite, in the sandbox) =="
set +e
./build/snipgate check examples/golden/binary_search_ok.py examples/golden/binary_search_bug.py \
    --task sg/binary_search_leftmost
rc=$?
set -e
case $rc in
  1) echo "== verdict: block (exit 1): binary_search_ok.py passes; binary_search_bug.py returns an index, not the first one" ;;
  0) echo "== verdict: pass (exit 0): unexpected, the buggy example should be blocked"; exit 1 ;;
  *) echo "== snipgate failed (exit $rc)"; exit "$rc" ;;
esac
