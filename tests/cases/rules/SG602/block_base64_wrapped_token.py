# expect: block SG602@4
import base64

TOKEN = base64.b64decode("Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaMDEyMzQ1Njc4OWFi").decode()
