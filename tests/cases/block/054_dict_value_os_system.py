# expect: block SG201@3
import os
ops = {"run": os.system}
ops["run"]("id")
