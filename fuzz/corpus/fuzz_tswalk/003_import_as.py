# expect: block SG201@3
import os as operating_system
operating_system.system("id")
