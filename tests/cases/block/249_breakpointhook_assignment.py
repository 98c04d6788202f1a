# expect: block SG201@3 SG503@3
import sys, os
sys.breakpointhook = os.system
