# expect: pass
import os
import requests

requests.get("https://pypi.org/simple/", auth=("reader", os.environ["API_PASSWORD"]), timeout=10)
