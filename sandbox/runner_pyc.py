# Build step: precompile the in-sandbox runner (runner.py) to bytecode, so that a cold launch does
# not compile it from source (~0.6 ms of interpreter CPU). Output: the interpreter's 4-byte magic
# number, then marshal.dumps((startup_code, later_code)) -- the two parts of runner.py split at the
# `#@later` marker, compiled exactly as the bootstrap would compile them. At run time the bootstrap
# uses the bytecode only if the sandbox's interpreter has the same magic number; otherwise it
# compiles the source, which always travels with it.
# Usage: python3 -I -S runner_pyc.py runner.py OUT
import marshal
import sys

src_path, out_path = sys.argv[1], sys.argv[2]
with open(src_path, "rb") as f:
    src = f.read()
head, later = src.split(b"\n#@later\n", 1)
codes = (compile(head, "<sg-runner>", "exec", dont_inherit=True),
         compile(later, "<sg-runner>", "exec", dont_inherit=True))
magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
with open(out_path, "wb") as f:
    f.write(magic + marshal.dumps(codes))
