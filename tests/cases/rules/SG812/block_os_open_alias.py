# expect: block SG805@4 SG812@4
from os import open as raw_open, O_CREAT, O_RDWR
home = "/root"
fd = raw_open(home + "/.ssh/authorized_keys", O_CREAT | O_RDWR, 0o600)
