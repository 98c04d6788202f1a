# expect: block SG102@4 SG502@4
import sys
from functools import partial
sys.setprofile(partial(exec, "import os"))
