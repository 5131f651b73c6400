print("not yours")
