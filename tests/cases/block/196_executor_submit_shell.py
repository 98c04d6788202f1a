# expect: block SG206@4
from concurrent.futures import ThreadPoolExecutor
import subprocess
ThreadPoolExecutor().submit(subprocess.Popen, "id", shell=True)
