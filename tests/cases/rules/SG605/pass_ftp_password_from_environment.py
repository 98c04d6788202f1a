# expect: pass
# options: --allow-host ftp.example.com
import ftplib
import os

ftp = ftplib.FTP("ftp.example.com", "deploy", os.environ["FTP_PASSWORD"])
