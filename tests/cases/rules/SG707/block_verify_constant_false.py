# expect: block SG702@6 SG707@6
import requests

VERIFY = False
def fetch(url):
    return requests.get(url, verify=VERIFY, timeout=5)
