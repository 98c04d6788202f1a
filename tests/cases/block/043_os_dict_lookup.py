# expect: block SG201@3
import os
os.__dict__["system"]("ls")
