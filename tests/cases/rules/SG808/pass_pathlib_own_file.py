# expect: pass
from pathlib import Path
Path("output.txt").write_text("done")
