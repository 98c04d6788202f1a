# expect: block SG602@4
import boto3

client = boto3.client("s3", aws_access_key_id="AKIAIOSFODNN7EXAMPLE")
