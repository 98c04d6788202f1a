# expect: block SG605@5
# options: --allow-host ftp.example.com
import ftplib

ftp = ftplib.FTP("ftp.example.com", "deploy", "Depl0yPassw0rd")
