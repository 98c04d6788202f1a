# expect: pass
import base64
banner = "=" * 40
greeting = base64.b32decode("NBSWY3DP").decode()
data = base64.b85decode(b"Xk~0{Zy").decode()
print(banner, greeting, data, 3 * "-")
