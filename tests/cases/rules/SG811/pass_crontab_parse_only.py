# expect: pass
from crontab import CronTab
cron = CronTab(tab="* * * * * echo hi")
print(len(list(cron)))
