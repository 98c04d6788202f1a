# expect: block SG805@5
import os

def read():
    return open(os.path.expanduser("~/.mozilla/firefox/abc.default-release/logins.json")).read()
