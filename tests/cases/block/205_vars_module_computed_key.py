# expect: block SG004@4
import os
op = "sys" + input()
vars(os)[op]("id")
