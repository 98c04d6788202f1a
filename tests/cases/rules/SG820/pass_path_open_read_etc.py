# expect: pass
from pathlib import Path

with Path("/etc/resolv.conf").open() as f:
    conf = f.read()
