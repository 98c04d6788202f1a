# Scribbles 0xff over the fuzzer's shared coverage map on every call (found through
# /proc/self/maps, written through /proc/self/mem): counters, comparison counts and lengths all
# out of range. The harness must read a bounded copy and carry on; the answer itself is correct.
def _scribble():
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                if "sg-coverage" in line:
                    lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                    with open("/proc/self/mem", "r+b", buffering=0) as mem:
                        mem.seek(lo)
                        mem.write(b"\xff" * (hi - lo))
                    return True
    except OSError:
        pass
    return False


def score(word, n):
    _scribble()
    return len(word) + n
