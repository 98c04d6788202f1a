# expect: block SG805@4 SG824@4
import glob

for p in glob.glob("/**/id_rsa", recursive=True):
    print(open(p).read())
