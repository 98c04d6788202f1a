# expect: pass
# options: --allow-host api.example.com
import requests
def get_user(uid):
    return requests.get(f"https://api.example.com/users/{uid}", timeout=5)
