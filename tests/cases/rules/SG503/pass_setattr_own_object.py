# expect: pass
class Config:
    debug = False

cfg = Config()
setattr(cfg, "debug", True)
