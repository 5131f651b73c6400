from throwaway_clamp import clamp

assert clamp(5, 0, 10) == 5
assert clamp(-1, 0, 10) == 0
print("clamp ok")
