# expect: block SG704@5
import requests

def fetch(url):
    return requests.request("GET", url)
