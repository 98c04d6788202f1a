# expect: block SG825@5
import subprocess

def open_up(site):
    subprocess.run(["chmod", "-R", "777", "/var/www/" + site], check=True)
