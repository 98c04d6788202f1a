# expect: pass
# options: --allow-host example.org
import ssl, urllib.request

ctx = ssl.create_default_context(cafile="/etc/ssl/certs/ca-certificates.crt")
urllib.request.urlopen("https://example.org/", context=ctx)
