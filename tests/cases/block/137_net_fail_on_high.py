# expect: block SG701@4
# options: --fail-on high
import requests
requests.get("https://evil.example.com/")
def f(u):
    return requests.get(u)
