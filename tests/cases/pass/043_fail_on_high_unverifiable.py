# expect: pass
# options: --fail-on high
import requests
def fetch(url):
    return requests.get(url)
