# expect: block SG201@3
import os
ｏｓ.ｓｙｓｔｅｍ("id")
