# expect: block SG210@4
import subprocess
# argv[0] is only a name: executable= is the program, here a shell reading "-c id"
subprocess.run(["ls", "-c", "id"], executable="/bin/bash")
