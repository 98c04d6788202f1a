# expect: pass
# options: --allow-host api.example.com
import requests

def fetch():
    return requests.request("GET", url="https://api.example.com/v1")
