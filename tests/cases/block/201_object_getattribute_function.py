# expect: block SG201@3 SG501@3
import os
object.__getattribute__(os, "system")("id")
