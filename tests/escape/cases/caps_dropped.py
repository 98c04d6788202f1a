# expect: ok
# stdout-contains: CapEff:	0000000000000000
# stdout-contains: NoNewPrivs:	1
print(open("/proc/self/status").read())
