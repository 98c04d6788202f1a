# expect: block SG707@4
# options: --allow-host api.example.com
import requests
requests.get("https://api.example.com/", verify=False)
