# expect: pass
password_prompt = "Enter password: "
token_url = "https://auth.example.com/token"
secret_name = "db-password"
