# expect: block SG507@4
import os as o

vars(o).pop("system")
