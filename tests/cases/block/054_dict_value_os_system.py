# expect: block SG201@3 SG201@4
import os
ops = {"run": os.system}
ops["run"]("id")
