# expect: block SG707@5
# options: --allow-host api.example.com
import requests

r = requests.get("https://api.example.com/v1", verify=False)
