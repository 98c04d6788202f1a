# expect: block SG201@3
import os
handlers = [os.system]
handlers[0]("id")
