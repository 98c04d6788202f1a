# expect: block SG702@5
import requests

def fetch(url):
    return requests.get(url)
