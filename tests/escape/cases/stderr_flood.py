# expect: output_limit
import sys
while True:
    sys.stderr.write("y" * 65536)
