# expect: block SG821@5
import stat
from pathlib import Path

Path("tool").chmod(stat.S_ISUID | stat.S_IRWXU)
