# expect: pass
import json
data = json.loads('{"a": 1}')
print(json.dumps(data, indent=2))
