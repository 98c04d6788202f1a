# expect: pass
# options: --allow-host api.example.com
import requests
requests.get("https://API.Example.COM:8443/health")
