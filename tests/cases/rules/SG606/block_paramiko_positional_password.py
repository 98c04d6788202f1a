# expect: block SG705@3 SG606@4 SG702@4
import paramiko
c = paramiko.SSHClient()
c.connect(host, 22, "root", "toor-Prod-1")
