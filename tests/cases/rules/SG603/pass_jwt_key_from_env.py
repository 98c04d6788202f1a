# expect: pass
import os, jwt
token = jwt.encode({"user": "bob"}, os.environ["JWT_SECRET"], algorithm="HS256")
