# expect: pass
from operator import attrgetter


def sort_rows(rows, field):
    return sorted(rows, key=attrgetter(field))
