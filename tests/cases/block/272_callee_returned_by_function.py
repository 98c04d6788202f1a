# expect: block SG206@9
import subprocess


def get_runner():
    return subprocess.Popen


get_runner()("id", shell=True)
