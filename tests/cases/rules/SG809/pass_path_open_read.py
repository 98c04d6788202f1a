# expect: pass
from pathlib import Path
with Path("~/.bashrc").expanduser().open() as f:
    print(f.readline())
