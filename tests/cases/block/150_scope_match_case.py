# expect: block SG201@5
import os
match 1:
    case _:
        os.system("ls")
