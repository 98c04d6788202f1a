# expect: block SG202@6
from os import (
    path,
    popen,
)
popen("ls").read()
