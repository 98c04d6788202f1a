# expect: ok
# stdout-contains: sandbox
import socket
print(socket.gethostname())
