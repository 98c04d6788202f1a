# expect: pass
from pathlib import Path

Path("out") .joinpath("report.tmp").unlink(missing_ok=True)
