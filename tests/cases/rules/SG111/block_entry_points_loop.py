# expect: block SG111@4
import importlib.metadata as md

for ep in md.entry_points(group="console_scripts"):
    ep.load()()
