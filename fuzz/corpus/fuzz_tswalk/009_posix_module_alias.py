# expect: block SG201@3
import posix
posix.system("id")
