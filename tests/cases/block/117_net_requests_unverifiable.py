# expect: block SG702@4
import requests
def fetch(url):
    return requests.get(url)
