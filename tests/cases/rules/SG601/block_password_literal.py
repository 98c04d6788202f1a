# expect: block SG601@4
import psycopg2

DB_PASSWORD = "s3cr3t-pass"
conn = psycopg2.connect(user="app", password=DB_PASSWORD)
