# expect: pass
# options: --allow-host api.example.com
import requests

r = requests.get("https://api.example.com/v1", timeout=5)
