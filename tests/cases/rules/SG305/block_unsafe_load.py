# expect: block SG305@5
import yaml

def parse(text):
    return yaml.unsafe_load(text)
