# expect: block SG602@3
import boto3
client = boto3.client("s3", aws_access_key_id="AKIAIOSF" + "ODNN7EXAMPLE")
