# expect: pass
import base64, codecs
msg = base64.b64decode("aGVsbG8=").decode()
rot = codecs.decode("uryyb", "rot13")
print("{} {}".format(msg, rot)[::-1], "%s!" % msg)
