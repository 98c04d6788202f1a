# expect: block SG824@4
from pathlib import Path

for p in Path("/").rglob("*.pem"):
    print(p.read_text())
