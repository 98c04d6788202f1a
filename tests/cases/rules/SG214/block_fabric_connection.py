# expect: block SG214@5
from fabric import Connection

c = Connection("deploy@example.com")
c.run("rm -rf /srv/app/cache")
