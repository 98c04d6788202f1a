# expect: pass
# options: --fail-on low
import os

entries = os.listdir(".")
