# expect: pass
import yaml
from yaml import SafeLoader as SL
cfg = yaml.load(text, Loader=SL)
