# expect: block SG824@4
import os

for root, dirs, files in os.walk("/"):
    for name in files:
        print(os.path.join(root, name))
