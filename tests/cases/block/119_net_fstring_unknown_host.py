# expect: block SG702@4
import requests
host = input()
requests.get(f"https://{host}/x")
