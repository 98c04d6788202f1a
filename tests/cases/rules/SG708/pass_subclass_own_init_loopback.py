# expect: pass
from http.server import HTTPServer, SimpleHTTPRequestHandler


class LocalServer(HTTPServer):
    def __init__(self, port):
        super().__init__(("127.0.0.1", port), SimpleHTTPRequestHandler)
