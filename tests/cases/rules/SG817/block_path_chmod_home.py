# expect: block SG817@4
from pathlib import Path

(Path.home() / ".local" / "bin" / "tool").chmod(0o755)
