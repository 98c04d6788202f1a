# expect: pass
class Handler:
    def do_get(self):
        return 1
def dispatch(h, verb):
    return getattr(h, "do_" + verb)()
