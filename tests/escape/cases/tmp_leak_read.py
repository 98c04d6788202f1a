# expect: exception
# check: tmp_marker_absent
print(open("/tmp/sg_escape_marker").read())
