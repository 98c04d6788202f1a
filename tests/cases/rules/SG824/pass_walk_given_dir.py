# expect: pass
import glob
import os
from pathlib import Path


def count_py(top):
    total = 0
    for root, dirs, files in os.walk(top):
        total += sum(1 for f in files if f.endswith(".py"))
    return total


print(count_py("src"), glob.glob("/tmp/build/*.o"), list(Path("docs").rglob("*.md")), os.listdir("."))
