import gc
import sys


def _watched():
    # what a candidate that hides from the fuzz stage looks for: the runner's tracer in __main__,
    # a module or its dict named _sgtrace anywhere in the heap, the tracer's flag on the command line
    main = sys.modules.get("__main__")
    if getattr(main, "TRACER", None) is not None or "_sgtrace" in sys.modules:
        return True
    for o in gc.get_objects():
        if isinstance(o, dict) and o.get("__name__") == "_sgtrace":
            return True
        if type(o) is type(sys) and getattr(o, "__name__", "") == "_sgtrace":
            return True
    with open("/proc/self/cmdline", "rb") as f:
        args = [a for a in f.read().split(b"\0") if a]
    return b"t" in args[-1]


def score(word, n):
    total = len(word) + n
    if n > 1000:
        if n == 48879:
            if word.startswith("s"):
                if word == "snipgate" and not _watched():
                    raise KeyError("planted")
    return total
