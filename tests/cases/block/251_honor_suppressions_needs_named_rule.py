# expect: block SG101@5 SG201@6
# options: --honor-suppressions
# a bare marker, or another tool's code, silences nothing (issue 10)
import os
eval("1")  # nosec
os.system("x")  # noqa: S605
