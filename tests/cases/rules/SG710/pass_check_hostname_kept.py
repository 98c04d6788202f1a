# expect: pass
import ssl

ctx = ssl.create_default_context(cafile="/etc/ssl/certs/ca-certificates.crt")
ctx.check_hostname = True
ctx.minimum_version = ssl.TLSVersion.TLSv1_2
