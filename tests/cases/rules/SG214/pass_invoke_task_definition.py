# expect: pass
from invoke import task


@task
def hello(c, name="world"):
    """Say hello."""
    return "hello " + name
