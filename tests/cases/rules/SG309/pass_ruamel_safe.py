# expect: pass
from ruamel.yaml import YAML
data = YAML(typ="safe").load(text)
