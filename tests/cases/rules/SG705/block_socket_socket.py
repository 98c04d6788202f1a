# expect: block SG705@4
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
