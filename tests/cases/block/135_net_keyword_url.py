# expect: block SG701@3
import requests
requests.get(url="https://evil.example.com/")
