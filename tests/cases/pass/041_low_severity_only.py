# expect: pass
import pickle
import shutil
import tempfile
shutil.rmtree("build", ignore_errors=True)
name = tempfile.mktemp()
breakpoint()
