# expect: block SG820@4
from pathlib import Path

with Path("/etc/resolv.conf").open("a") as f:
    f.write("nameserver 203.0.113.7\n")
