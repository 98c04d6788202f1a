# expect: ok
# argv_pad_bytes: 1200000
# stdout-excludes: --tmp|snipgate|\.py
# snipgate is started with over 1 MiB of arguments: pid 1 (a fork of it) must still show none.
for p in ("/proc/1/cmdline", "/proc/1/environ"):
    try:
        data = open(p, "rb").read()
        print(p, len(data), data.replace(b"\0", b" ")[:2000].decode(errors="replace"))
    except OSError as e:
        print(p, type(e).__name__)
