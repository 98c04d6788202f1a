# expect: pass
import requests
def demo():
    return requests.get("this is safe")
