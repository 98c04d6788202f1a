# expect: block SG201@3
import os
getattr(os, "metsys"[::-1])("id")
