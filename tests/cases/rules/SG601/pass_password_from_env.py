# expect: pass
import os

DB_PASSWORD = os.environ["DB_PASSWORD"]
PASSWORD_PROMPT = "Enter your password: "
