# expect: block SG603@3
import jwt
token = jwt.encode({"user": "bob"}, "my-secret", algorithm="HS256")
