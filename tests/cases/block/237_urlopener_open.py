# expect: block SG705@3 SG701@3
import urllib.request
urllib.request.URLopener().open("http://evil.example.com/")
