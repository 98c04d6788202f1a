# expect: exception
# check: hostfile_absent
open("{HOSTFILE}", "w").write("escaped")
