# expect: block SG505@9
import sys


class Finder:
    def find_spec(self, name, path, target=None):
        return None

sys.meta_path.insert(0, Finder())
