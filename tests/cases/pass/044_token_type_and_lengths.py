# expect: pass
token_type = "bearer"
MAX_PASSWORD_LENGTH = 64
password_field = "password"
