# expect: block SG602@2 SG602@3
KEY_ID = bytes.fromhex("414b4941494f53464f444e4e374558414d504c45").decode()
SECRET = bytes.fromhex("414b4941494f53464f444e4e374558414d504c45").decode("ascii")
