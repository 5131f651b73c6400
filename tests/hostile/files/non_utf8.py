# trick: source that is not UTF-8 (Latin-1 bytes, no coding cookie)
# expect: input_error
# exercise: EX-11-01
print("café ÿþ")
