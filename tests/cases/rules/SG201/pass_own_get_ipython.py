# expect: pass
class Shell:
    def system(self, cmd):
        return cmd.upper()


def get_ipython():
    return Shell()


get_ipython().system("hello")
