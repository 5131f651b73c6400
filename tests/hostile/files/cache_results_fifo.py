# trick: .grader/judge/results.json is a named pipe, so reading or writing the cache would block grader check and list forever
# expect: failed
# exercise: EX-11-01
# course: results-fifo
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
