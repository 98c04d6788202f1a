# expect: block SG201@3
import os
getattr(os, bytes.fromhex("73797374656d").decode())("id")
