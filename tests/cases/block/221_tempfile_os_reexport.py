# expect: block SG201@3
import tempfile
tempfile._os.system("id")
