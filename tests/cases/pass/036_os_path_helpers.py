# expect: pass
import os
from os import path
import os.path as osp
print(os.getcwd(), path.join("a", "b"), osp.basename("/x/y"), os.environ.get("HOME"))
