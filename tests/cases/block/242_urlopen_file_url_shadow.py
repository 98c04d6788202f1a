# expect: block SG805@3
import urllib.request
data = urllib.request.urlopen("file:///etc/shadow").read()
