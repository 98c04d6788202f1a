# expect: block SG201@4
import os.path
print(os.path.join("a", "b"))
os.system("id")
