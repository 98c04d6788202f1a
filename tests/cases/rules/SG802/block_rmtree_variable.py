# expect: block SG802@6
# options: --fail-on low
import shutil

def clean(build_dir):
    shutil.rmtree(build_dir)
