# expect: block SG206@4
# a callable kept in a list, then taken out by index and called with shell=True
import subprocess
runners = [subprocess.call]; runners[0]("id", shell=True)
