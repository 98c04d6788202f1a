# expect: pass
import hashlib
def digest(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()
