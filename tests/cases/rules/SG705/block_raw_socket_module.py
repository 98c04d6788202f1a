# expect: block SG705@4
import _socket

s = _socket.socket()
