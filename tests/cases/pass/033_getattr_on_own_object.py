# expect: pass
class Cfg:
    debug = False
name = input()
print(getattr(Cfg, "debug"), getattr(Cfg(), name, None))
