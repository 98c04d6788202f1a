# expect: pass
# options: --fail-on low
import json
print(json.dumps({"a": 1}))  # noqa: E501
