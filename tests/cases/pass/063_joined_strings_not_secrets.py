# expect: pass
import os
prefix = os.environ.get("PREFIX", "")
password = prefix + os.environ["DB_PASSWORD"]
greeting = "hello, " + "world, how are you today"
url = "https://" + "example.org/" + "api/v1/items"
