# expect: pass
# options: --allow-host api.example.com
import requests

def fetch():
    return requests.get("https://api.example.com/v1")
