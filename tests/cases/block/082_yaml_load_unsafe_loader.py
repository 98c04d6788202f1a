# expect: block SG304@3 SG305@3
import yaml
cfg = yaml.load(text, Loader=yaml.Loader)
