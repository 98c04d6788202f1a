# expect: pass
# options: --fail-on low
import os

def prepare(build_dir):
    os.makedirs(build_dir, exist_ok=True)
