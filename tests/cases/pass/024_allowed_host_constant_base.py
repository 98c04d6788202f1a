# expect: pass
# options: --allow-host api.example.com
import requests
BASE = "https://api.example.com"
requests.get(BASE + "/users")
