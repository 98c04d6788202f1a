# expect: block SG602@2
DB_URL = "postgresql://admin:s3cretpw@db.internal:5432/prod"
