# expect: block SG708@8
from wsgiref.simple_server import make_server


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]
httpd = make_server("", 8000, app)
