# expect: pass
import hmac
def valid(password, stored_hash, hasher):
    if password == "" or password is None:
        return False
    if token == "EOF" or secret_name == "default":
        return False
    return hmac.compare_digest(hasher(password), stored_hash)
