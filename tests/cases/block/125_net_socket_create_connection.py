# expect: block SG701@3
import socket
socket.create_connection(("evil.example.com", 80))
