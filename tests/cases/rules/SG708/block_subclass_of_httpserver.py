# expect: block SG705@7 SG708@7
from http.server import HTTPServer, SimpleHTTPRequestHandler

class MyServer(HTTPServer):
    allow_reuse_address = True

MyServer(("0.0.0.0", 8000), SimpleHTTPRequestHandler).serve_forever()
