# expect: ok
# stdout-excludes: eth0|ens|enp
print(open("/proc/net/dev").read())
