# expect: pass
import os

settings = {"debug": False}
settings.update(debug=True)
env = dict(os.environ)
env.pop("HOME", None)


def clear():
    settings.clear()


clear()
os.environ.update(LANG="C")
