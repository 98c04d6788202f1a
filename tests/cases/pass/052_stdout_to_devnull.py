# expect: pass
import os, sys
sys.stdout = open(os.devnull, "w")
sys.stderr = sys.stdout
sys.argv = ["prog", "--quiet"]
