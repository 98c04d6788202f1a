# expect: pass
class Config:
    pass
cfg = Config()
cfg.open = True
settings = {}
settings["modules"] = ["a", "b"]
