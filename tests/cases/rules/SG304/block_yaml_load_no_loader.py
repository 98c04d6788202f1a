# expect: block SG304@5
import yaml

def parse(text):
    return yaml.load(text)
