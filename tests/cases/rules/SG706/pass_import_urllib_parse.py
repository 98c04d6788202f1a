# expect: pass
# options: --fail-on low
import urllib.parse

parts = urllib.parse.urlsplit("https://example.com/a")
