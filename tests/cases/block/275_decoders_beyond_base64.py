# expect: block SG201@3 SG201@4 SG201@5 SG201@6
import base64, os
getattr(os, base64.b32decode("ON4XG5DFNU======").decode())("id")
getattr(os, base64.b85decode(b"b9r-gWo-").decode())("id")
getattr(os, base64.a85decode("F*VhKASh").decode())("id")
getattr(os, base64.b32hexdecode("EDSN6T35DK======").decode())("id")
