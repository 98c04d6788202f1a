# expect: block SG701@3
import urllib.request
urllib.request.urlopen("http://evil.example.com/")
