# expect: exception
# args: --max-output 1K
# max_json_bytes: 24000
# A forged exception frame with a megabyte of text: every text field the supervisor takes from a
# frame is capped like the output.
import os
def field(tag, data):
    return tag + len(data).to_bytes(4, "little") + data
body = field(b"k", b"exception") + field(b"t", b"E" * 2000) + field(b"m", b"\x01" * 900000) + field(b"b", b"\x02" * 90000)
os.write(6, len(body).to_bytes(4, "little") + body)
os._exit(1)
