# expect: block SG705@3
import http.server
http.server.test(HandlerClass=http.server.SimpleHTTPRequestHandler, port=8000)
