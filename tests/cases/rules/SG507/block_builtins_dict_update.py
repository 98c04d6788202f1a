# expect: block SG507@8
import builtins


def quiet(*args, **kwargs):
    pass

builtins.__dict__.update(print=quiet)
