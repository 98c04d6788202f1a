# expect: block SG304@3
import yaml
cfg = yaml.load(open("c.yml"))
