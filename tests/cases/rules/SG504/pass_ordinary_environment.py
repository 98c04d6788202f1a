# expect: pass
import os
os.environ["MY_APP_MODE"] = "test"
os.environ.setdefault("TZ", "UTC")
