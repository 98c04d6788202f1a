# expect: block SG604@4 SG701@4
import smtplib
def send(server: smtplib.SMTP):
    smtplib.SMTP("localhost").login("me", "mailPass123")
