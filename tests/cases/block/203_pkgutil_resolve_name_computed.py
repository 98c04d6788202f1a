# expect: block SG104@3
import pkgutil
f = pkgutil.resolve_name(input())
