# expect: block SG609@4 SG701@4
import requests

requests.get("https://api.example.com/items", auth=("admin", "S3cretPassw0rd"))
