# expect: block SG701@3
from six.moves.urllib.request import urlopen
urlopen("https://evil.example.com/")
