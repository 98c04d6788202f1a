# expect: pass
import os
import smtplib
import pymysql
import redis
from requests.auth import HTTPBasicAuth
auth = HTTPBasicAuth("admin", os.environ["API_PASSWORD"])
conn = pymysql.connect("db", "root", os.environ.get("DB_PASSWORD", ""), "app")
cache = redis.Redis("cache", 6379, 0, os.environ["REDIS_PASSWORD"])
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "app.settings")
os.environ.setdefault("SECRET_KEY_FILE", "")
def login(server: smtplib.SMTP, user: str, password: str) -> None:
    server.login(user, password)
