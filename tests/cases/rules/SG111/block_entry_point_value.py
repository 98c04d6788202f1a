# expect: block SG111@4
from importlib.metadata import EntryPoint

EntryPoint(name="x", value="os:system", group="g").load()("id")
