# expect: block SG201@3
import base64, os
getattr(os, base64.b64decode("c3lzdGVt").decode())("id")
