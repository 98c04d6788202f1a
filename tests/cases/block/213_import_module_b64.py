# expect: block SG104@3 SG201@3
import base64, importlib
importlib.import_module(base64.b64decode("b3M=").decode()).system("id")
