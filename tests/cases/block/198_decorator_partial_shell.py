# expect: block SG206@3
import functools, subprocess
@functools.partial(subprocess.run, shell=True)
def job():
    pass
