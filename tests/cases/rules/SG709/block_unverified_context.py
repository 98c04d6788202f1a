# expect: block SG709@5
# options: --allow-host example.org
import ssl, urllib.request

ctx = ssl._create_unverified_context()
urllib.request.urlopen("https://example.org/", context=ctx)
