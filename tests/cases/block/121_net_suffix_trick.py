# expect: block SG701@4
# options: --allow-host api.example.com
import requests
requests.get("https://api.example.com.evil.example.net/")
