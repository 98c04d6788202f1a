# expect: block SG201@4
import os
run = os.system
globals()["run"]("id")
