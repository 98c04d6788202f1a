# expect: pass
import json

def load(data):
    return json.loads(data)
