# expect: block SG603@3
from jwt import encode
token = encode({"sub": "admin"}, "changeme-please")
