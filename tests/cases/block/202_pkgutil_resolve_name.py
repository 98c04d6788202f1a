# expect: block SG201@3
import pkgutil
pkgutil.resolve_name("os:system")("id")
