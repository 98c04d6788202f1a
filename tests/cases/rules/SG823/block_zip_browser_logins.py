# expect: block SG823@5
import os, zipfile

with zipfile.ZipFile("/tmp/a.zip", "w") as z:
    z.write(os.path.expanduser("~/.config/google-chrome/Default/Login Data"))
