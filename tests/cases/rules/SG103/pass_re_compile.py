# expect: pass
import re

NUMBER = re.compile(r"\d+")
