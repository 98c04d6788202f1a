# expect: pass
# options: --allow-host api.example.com
import requests

requests.request("GET", "https://api.example.com/v1")
