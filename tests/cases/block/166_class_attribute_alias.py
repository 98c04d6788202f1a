# expect: block SG201@4 SG201@5
import os
class A:
    system = os.system
A.system("id")
