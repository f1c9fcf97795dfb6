print("hooray")
