# expect: block SG701@3
import requests
r = requests.get("https://evil.example.com/x")
