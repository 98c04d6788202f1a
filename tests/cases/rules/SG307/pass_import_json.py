# expect: pass
# options: --fail-on low
import json

blob = json.dumps({"a": 1})
