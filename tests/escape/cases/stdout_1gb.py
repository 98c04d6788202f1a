# expect: output_limit
# max_wall_ms: 5000
import sys
chunk = "x" * (1 << 20)
for _ in range(1024):
    sys.stdout.write(chunk)
