# expect: block SG703@3
import requests
requests.request("POST", "https://evil.example.com/")
