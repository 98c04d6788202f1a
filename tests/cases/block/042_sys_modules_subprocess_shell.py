# expect: block SG206@3
import sys
sys.modules["subprocess"].call("ls", shell=True)
