# expect: pass
import os
password = os.environ["PW"]
api_key = os.environ.get("API_KEY")
