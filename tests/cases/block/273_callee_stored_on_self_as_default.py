# expect: block SG201@6 SG201@7 SG201@10
import os


class Job:
    def __init__(self, fn=os.system):
        self.fn = fn

    def go(self, command):
        self.fn(command)


Job().go("id")
