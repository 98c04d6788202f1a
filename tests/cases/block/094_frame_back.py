# expect: block SG502@3 SG501@3
import sys
caller = sys._getframe(1).f_back
