# expect: block SG817@4
from pathlib import Path

Path("/etc/hosts").unlink()
