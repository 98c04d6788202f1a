# expect: block SG806@4
import shutil
from pathlib import Path
shutil.rmtree(Path.home())
