# expect: block SG603@3
import jwt
claims = jwt.decode(token, key="s3cr3t-value", algorithms=["HS256"])
