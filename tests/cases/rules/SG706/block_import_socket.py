# expect: block SG706@3
# options: --fail-on low
import socket

HOST = socket.gethostname
