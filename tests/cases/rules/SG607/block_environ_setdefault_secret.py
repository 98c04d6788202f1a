# expect: block SG607@3
from os import environ
environ.setdefault("DJANGO_SECRET_KEY", "django-insecure-9x8f7a6s5d4f3g2h1j")
