# expect: pass
import yaml
cfg = yaml.load(text, yaml.CSafeLoader)
