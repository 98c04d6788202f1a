# expect: ok
# check: tmp_marker_absent
open("/tmp/sg_escape_marker", "w").write("leak")
