# expect: block SG101@7
class Calc:
    """A calculator."""

    def run(self, text):
        """
        >>> eval("__import__('os').getcwd()")
        '/'
        """
        return text
