# expect: block SG705@3 SG701@4
import requests
(requests.Session()
    .get("https://evil.example.com/"))
