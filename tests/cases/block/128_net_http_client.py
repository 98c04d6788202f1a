# expect: block SG701@3
import http.client
conn = http.client.HTTPSConnection("evil.example.com")
