# expect: pass
class Config:
    debug = False

def get(cfg, name):
    return getattr(cfg, name)
