# expect: block SG702@4
import requests
def get(path):
    return requests.get("https://" + path)
