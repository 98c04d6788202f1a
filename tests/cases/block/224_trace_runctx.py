# expect: block SG106@4
import trace
t = trace.Trace(count=False)
t.runctx("import os", {}, {})
