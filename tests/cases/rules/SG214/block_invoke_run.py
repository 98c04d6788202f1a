# expect: block SG214@4
from invoke import run

run("id; whoami", hide=True)
