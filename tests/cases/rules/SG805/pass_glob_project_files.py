# expect: pass
import glob

def sources(root):
    return glob.glob(root + "/**/*.py", recursive=True)
