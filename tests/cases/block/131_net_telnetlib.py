# expect: block SG701@3
import telnetlib
tn = telnetlib.Telnet("evil.example.com")
