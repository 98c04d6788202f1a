# expect: pass
import os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "app.settings")
os.environ.setdefault("SECRET_KEY_FILE", "")
