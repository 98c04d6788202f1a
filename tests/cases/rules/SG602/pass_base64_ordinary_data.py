# expect: pass
import base64

greeting = base64.b64decode("aGVsbG8sIHdvcmxkISBoZWxsbywgd29ybGQh").decode()
payload = base64.b64encode(b"ghp_not_a_token").decode()
print(greeting, payload)
