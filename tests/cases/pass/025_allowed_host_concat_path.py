# expect: pass
# options: --allow-host api.example.com
import requests
def get_user(uid):
    return requests.get("https://api.example.com/users/" + str(uid))
