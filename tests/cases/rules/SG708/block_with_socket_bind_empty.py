# expect: block SG705@3 SG708@4
import socket
with socket.socket() as srv:
    srv.bind(("", 8080))
