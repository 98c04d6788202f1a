# expect: pass
# options: --allow-host example.org
import ssl, urllib.request

ctx = ssl.create_default_context()
if ctx.verify_mode == ssl.CERT_NONE:
    raise SystemExit("refusing an unverified context")
urllib.request.urlopen("https://example.org/", context=ctx)
