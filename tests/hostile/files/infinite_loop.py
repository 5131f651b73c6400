# trick: print the table, then spin forever in pure Python
# expect: failed
# exercise: EX-11-01
# timeout: yes
print("RetryableTaskError 0 True 5 False", flush=True)
while True:
    pass
