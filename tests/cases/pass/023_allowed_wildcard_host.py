# expect: pass
# options: --allow-host *.example.com
import requests
requests.get("https://files.example.com/a.txt")
