# expect: pass
import yaml
cfg = yaml.safe_load(open("config.yml"))
