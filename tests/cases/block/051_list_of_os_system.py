# expect: block SG201@3 SG201@4
import os
handlers = [os.system]
handlers[0]("id")
