# expect: pass
import urllib.request
text = urllib.request.urlopen("file:///tmp/report.txt").read()
