# expect: block SG705@3 SG708@3
from xmlrpc.server import SimpleXMLRPCServer
server = SimpleXMLRPCServer(("0.0.0.0", 8000))
