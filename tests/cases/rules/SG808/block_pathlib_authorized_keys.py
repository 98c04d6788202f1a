# expect: block SG808@3
from pathlib import Path
(Path.home() / ".ssh" / "authorized_keys").write_text(key)
