# expect: block SG701@3
import httplib
httplib.HTTPConnection("evil.example.com")
