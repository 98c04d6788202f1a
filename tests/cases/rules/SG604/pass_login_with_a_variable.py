# expect: pass
import os
from requests.auth import HTTPBasicAuth
auth = HTTPBasicAuth("admin", os.environ["API_PASSWORD"])
empty = HTTPBasicAuth("anonymous", "")
