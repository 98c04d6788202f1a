# expect: block SG201@3
import sys
sys.modules["os"].system("id")
