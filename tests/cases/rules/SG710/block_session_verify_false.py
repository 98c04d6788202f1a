# expect: block SG705@5 SG710@6
# options: --allow-host api.example.com
import requests

s = requests.Session()
s.verify = False
s.get("https://api.example.com/")
