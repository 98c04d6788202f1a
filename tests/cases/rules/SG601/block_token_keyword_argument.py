# expect: block SG601@4 SG701@4
import requests

r = requests.get("https://api.example.com/", headers={"Authorization": "Bearer abcdef123456"})
