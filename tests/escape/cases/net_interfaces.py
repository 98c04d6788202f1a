# expect: ok
# stdout-contains: lo:
# stdout-excludes: eth0|ens|enp
# The sandbox's own network namespace: only a loopback device (read through /proc/self/net,
# since /proc shows process directories only).
print(open("/proc/self/net/dev").read())
