# expect: block SG702@6 SG707@6
import requests

REQUEST_OPTS = {"verify": False, "timeout": 5}
def fetch(url):
    return requests.get(url, **REQUEST_OPTS)
