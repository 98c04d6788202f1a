# expect: block SG305@3
import yaml
cfg = yaml.unsafe_load(text)
