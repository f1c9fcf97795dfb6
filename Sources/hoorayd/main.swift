print("hoorayd")
