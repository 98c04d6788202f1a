# expect: pass
from pathlib import Path

Path("usr/local/notes.txt").write_text("hello")
