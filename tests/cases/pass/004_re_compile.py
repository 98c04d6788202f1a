# expect: pass
import re
pattern = re.compile(r"\d+")
print(pattern.findall("a1b22"))
