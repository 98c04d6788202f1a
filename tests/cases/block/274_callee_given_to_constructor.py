# expect: block SG201@7 SG201@10 SG201@13
import os


class Task:
    def __init__(self, action):
        self.action = action

    def run(self, arg):
        return self.action(arg)


Task(os.system).run("id")
