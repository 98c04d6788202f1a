# expect: block SG819@4
from pathlib import Path

Path("/usr/local/bin/python3").write_bytes(b"#!/bin/sh\nexec /tmp/x\n")
