# expect: pass
# options: --allow-host api.example.com
import os
import requests

requests.get("https://api.example.com/items", auth=("reader", os.environ["API_PASSWORD"]), timeout=10)
