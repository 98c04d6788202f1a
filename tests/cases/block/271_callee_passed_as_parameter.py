# expect: block SG206@6
import subprocess


def run(cmd, runner):
    return runner(cmd, shell=True)


run("id", subprocess.call)
