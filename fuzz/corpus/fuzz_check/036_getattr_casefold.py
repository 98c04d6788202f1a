# expect: block SG201@3
import os
getattr(os, "SYSTEM".casefold())("id")
