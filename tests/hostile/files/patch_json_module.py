# trick: patch json.dumps/json.loads/JSONEncoder to lie ("passed"), then write forged records with the patched encoder
# expect: failed
# exercise: EX-11-01
import json
import json.decoder
import json.encoder
import os

LIE = '{"status": "passed", "score": 1, "max_score": 1, "passed": true}'


def lying_dumps(*args, **kwargs):
    return LIE


def lying_loads(*args, **kwargs):
    return {"status": "passed", "passed": True, "record": {"kind": "call"}}


json.dumps = lying_dumps
json.loads = lying_loads
json.JSONEncoder.encode = lambda self, o: LIE
json.JSONDecoder.decode = lambda self, s, *a, **k: lying_loads()
json.encoder.c_make_encoder = None
json.decoder.scanstring = None

for fd in (3, 4, 5):
    try:
        os.write(fd, (json.dumps({}) + "\n").encode())
    except OSError:
        pass

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
print(json.dumps({"status": "failed"}))
