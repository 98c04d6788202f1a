# expect: pass
import yaml
cfg = yaml.load(text, Loader=yaml.SafeLoader)
