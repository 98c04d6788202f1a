# expect: block SG309@3
from ruamel.yaml import YAML
data = YAML(typ="unsafe").load(text)
