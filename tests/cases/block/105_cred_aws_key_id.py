# expect: block SG602@2
aws_access_key_id = "AKIAIOSFODNN7EXAMPLE"
