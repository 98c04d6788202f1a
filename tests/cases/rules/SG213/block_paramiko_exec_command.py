# expect: block SG213@4 SG705@3
import paramiko
client = paramiko.SSHClient()
client.exec_command("cat /etc/passwd")
