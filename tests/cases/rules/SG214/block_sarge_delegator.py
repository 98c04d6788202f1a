# expect: block SG214@5 SG214@6
import delegator
import sarge

sarge.run("tar czf /tmp/x.tgz ~/.ssh")
delegator.run("id")
