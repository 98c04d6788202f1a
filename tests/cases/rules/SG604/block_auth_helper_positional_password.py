# expect: block SG604@3
from requests.auth import HTTPBasicAuth as Basic
creds = Basic("admin", "S3cr3tPassw0rd")
